import type { MarkingScope } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OFFLINE_READS_CACHE } from '../../lib/offline/offline-reads';
import { registersKept, registersOf } from './offline-ready';

const scope: MarkingScope = {
  restricted: true,
  classes: ['7', '9'],
  any_class: false,
  days_back: 1,
  earliest_date: '2026-11-21',
  today: '2026-11-22',
  cannot_mark_reason: null,
};

/** The Cache API as the worker leaves it: each kept roster's address, with the account's digest. */
function cachesHolding(urls: string[]) {
  const cache = { keys: async () => urls.map((url) => new Request(`http://localhost${url}&__account=ab12`)) };
  vi.stubGlobal('caches', {
    has: async (name: string) => name === OFFLINE_READS_CACHE && urls.length > 0,
    open: async () => cache,
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('ready to work offline (ADR 048)', () => {
  it("a teacher's registers are each of their classes on each day of their window", () => {
    expect(registersOf(scope)).toEqual([
      { className: '7', date: '2026-11-21' },
      { className: '7', date: '2026-11-22' },
      { className: '9', date: '2026-11-21' },
      { className: '9', date: '2026-11-22' },
    ]);
    // An admin, or a centre letting teachers mark any class: kept as they are opened, not read ahead.
    expect(registersOf({ ...scope, restricted: false })).toEqual([]);
    expect(registersOf({ ...scope, any_class: true })).toEqual([]);
  });

  it('is ready only when the worker keeps every one of them', async () => {
    const roster = (className: string, date: string) =>
      `/api/v1/attendance/roster?class_name=${className}&date=${date}`;
    cachesHolding([roster('7', '2026-11-21'), roster('7', '2026-11-22'), roster('9', '2026-11-22')]);
    expect(await registersKept(registersOf(scope))).toBe(false);
    cachesHolding([
      roster('7', '2026-11-21'),
      roster('7', '2026-11-22'),
      roster('9', '2026-11-21'),
      roster('9', '2026-11-22'),
      '/api/v1/auth/me?x=1',
    ]);
    expect(await registersKept(registersOf(scope))).toBe(true);
    cachesHolding([]);
    expect(await registersKept(registersOf(scope))).toBe(false);
    expect(await registersKept([])).toBe(false);
  });
});
