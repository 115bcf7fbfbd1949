/** The inbox tells the centre what it showed: delivered, whatever the notification did (ADR 044). */
import type { ParentInbox } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../testing';
import { saveSession } from './api';
import { reportShown } from './use-inbox';

const profile = { phone: '+919812345678', parent_name: 'Priya Sharma', children: [] };
const inbox = (ids: number[]) => ({ unread_count: 0, messages: ids.map((id) => ({ id })) }) as unknown as ParentInbox;
const bodies = (fetchMock: { mock: { calls: unknown[][] } }) =>
  fetchMock.mock.calls.map(([url, init]) => [url, JSON.parse(String((init as RequestInit).body))]);

afterEach(() => vi.restoreAllMocks());

describe('reportShown', () => {
  it('reports the messages on screen once each; a failed report is tried again', async () => {
    saveSession({ token: 'parent-token', profile });
    const reported = new Set<number>();
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json({ delivered: 2 }));
    await reportShown(inbox([3, 2]), reported);
    await reportShown(inbox([4, 3, 2]), reported);
    expect(await reportShown(inbox([4, 3, 2]), reported)).toBeUndefined();
    expect(bodies(fetchMock)).toEqual([
      ['/api/v1/parent/messages/shown', { ids: [3, 2] }],
      ['/api/v1/parent/messages/shown', { ids: [4] }],
    ]);

    fetchMock.mockImplementation(async () => json({ detail: 'Service unavailable' }, 503));
    await reportShown(inbox([5]), reported);
    fetchMock.mockImplementation(async () => json({ delivered: 1 }));
    await reportShown(inbox([5]), reported);
    expect(bodies(fetchMock).slice(2)).toEqual([
      ['/api/v1/parent/messages/shown', { ids: [5] }],
      ['/api/v1/parent/messages/shown', { ids: [5] }],
    ]);
  });

  it('reports nothing while the page is hidden', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json({ delivered: 0 }));
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    expect(reportShown(inbox([1]), new Set())).toBeUndefined();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
