import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../testing';
import {
  clearSession,
  EXPIRES_KEY,
  loadSession,
  OFFLINE,
  ParentApiError,
  PROFILE_KEY,
  parentRequest,
  saveSession,
  setUnauthorizedHandler,
  TOKEN_KEY,
} from './api';

const profile = { phone: '+919812345678', parent_name: 'Priya Sharma', children: [] };
afterEach(() => {
  vi.restoreAllMocks();
  setUnauthorizedHandler(undefined);
});

describe('parentRequest', () => {
  it('sends the stored parent token, never the console’s', async () => {
    localStorage.setItem('token', 'staff-token');
    saveSession({ token: 'parent-token', profile });
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json({ unread_count: 0, messages: [] }));
    await parentRequest('/parent/messages');
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/parent/messages');
    expect((init?.headers as Record<string, string> | undefined)?.authorization).toBe('Bearer parent-token');
  });

  it('signs out on a 401 of a signed-in call, with the server’s detail in the error', async () => {
    saveSession({ token: 'old', profile });
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json({ detail: 'Session expired' }, 401));
    await expect(parentRequest('/parent/me')).rejects.toEqual(
      new ParentApiError(401, 'Session expired', { detail: 'Session expired' }),
    );
    expect(handler).toHaveBeenCalledOnce();
  });

  it('keeps the error body, so its code and params reach the translated text', async () => {
    const body = { detail: 'Student with id 42 was not found', code: 'student.not_found_by_id', params: { id: 42 } };
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(body, 404));
    await expect(parentRequest('/parent/children/42', { token: 't' })).rejects.toMatchObject({
      status: 404,
      detail: 'Student with id 42 was not found',
      code: 'student.not_found_by_id',
      params: { id: 42 },
      body,
    });
  });

  it('does not sign out on a 401 of sign-in itself (a wrong code)', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(json({ detail: 'Phone number or access code is incorrect' }, 401));
    await expect(
      parentRequest('/parent/login', { token: null, json: { phone: '+919812345678', code: 'X' } }),
    ).rejects.toMatchObject({ status: 401, detail: 'Phone number or access code is incorrect' });
    expect(handler).not.toHaveBeenCalled();
    const init = fetchMock.mock.calls[0]?.[1];
    expect((init?.headers as Record<string, string> | undefined)?.authorization).toBeUndefined();
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"phone":"+919812345678","code":"X"}');
  });

  it('says the centre cannot be reached when the network fails', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(parentRequest('/parent/me', { token: 't' })).rejects.toMatchObject({
      status: 0,
      detail: OFFLINE,
      code: 'client.centre_unreachable',
    });
  });
});

describe('the stored session', () => {
  it('keeps token and profile under parent_ keys, and forgets them on sign-out', () => {
    saveSession({ token: 'parent-token', profile }, 3600, 1_000);
    expect(localStorage.getItem(TOKEN_KEY)).toBe('parent-token');
    expect(TOKEN_KEY.startsWith('parent_') && PROFILE_KEY.startsWith('parent_')).toBe(true);
    expect(localStorage.getItem('token')).toBeNull();
    expect(loadSession(2_000)).toEqual({ token: 'parent-token', profile });
    clearSession();
    expect(loadSession()).toBeNull();
  });

  it('drops an expired session', () => {
    saveSession({ token: 'parent-token', profile }, 60, 0);
    expect(loadSession(61_000)).toBeNull();
    expect(localStorage.getItem(EXPIRES_KEY)).toBeNull();
  });
});
