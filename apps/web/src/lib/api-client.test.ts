import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, errorText, forgetKeptAnswers, setUnauthorizedHandler } from './api-client';
import { KEPT_ANSWER_HEADER } from './offline/offline-reads';
import { isServerUnreachable, noteReached } from './server-reach';

function answer(status: number, body: unknown) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
}

afterEach(() => {
  vi.restoreAllMocks();
  setUnauthorizedHandler(undefined);
});

describe('errorText: the server detail, else the screen fallback', () => {
  it('prefers the detail', () => {
    expect(errorText(new ApiError(409, 'email: taken'), 'Failed to save teacher')).toBe('email: taken');
  });
  it('falls back without a detail, or for other errors', () => {
    expect(errorText(new ApiError(500, undefined), 'Failed to fetch students')).toBe('Failed to fetch students');
    expect(errorText(new Error('boom'), 'Failed to delete student')).toBe('Failed to delete student');
  });
});

describe('apiRequest', () => {
  it('sends the stored token and JSON, and reads the answer', async () => {
    localStorage.setItem('token', 'abc');
    const fetch = answer(200, { ok: true });
    expect(await apiRequest('/students/', { method: 'POST', json: { a: 1 } })).toEqual({ ok: true });
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/v1/students/');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer abc');
    expect(init.body).toBe('{"a":1}');
  });

  it('turns a failure into an ApiError carrying the detail', async () => {
    answer(422, { detail: 'parent_phone: must include the country code' });
    await expect(apiRequest('/students/')).rejects.toMatchObject({
      status: 422,
      detail: 'parent_phone: must include the country code',
    });
  });

  it('calls the 401 handler outside the sign-in screen', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    answer(401, { detail: 'Not authenticated' });
    await expect(apiRequest('/auth/me')).rejects.toBeInstanceOf(ApiError);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('does not end the session for a 401 to a request sent with a token that has since been replaced', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    localStorage.setItem('token', 'before');
    let release: (response: Response) => void = () => undefined;
    vi.spyOn(globalThis, 'fetch').mockReturnValue(new Promise<Response>((resolve) => (release = resolve)));
    const pending = apiRequest('/activities/recent');
    // Meanwhile two-factor sign-in was turned on: the server ended the old token and handed over a new one.
    localStorage.setItem('token', 'after');
    release(new Response(JSON.stringify({ detail: 'Session ended' }), { status: 401 }));
    await expect(pending).rejects.toMatchObject({ status: 401 });
    expect(handler).not.toHaveBeenCalled();
  });

  it('holds back a 401 that arrives while a call replacing the token is under way, then lets the new token go on', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    localStorage.setItem('token', 'before');
    const releases: ((response: Response) => void)[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>((resolve) => releases.push(resolve)));
    const confirm = apiRequest<{ access_token: string }>('/auth/two-factor/confirm', {
      method: 'POST',
      json: { otp: '123456' },
      replacesToken: true,
    });
    const poll = apiRequest('/activities/recent');
    // The server has already ended the old token: the poll's 401 comes back first.
    releases[1]?.(new Response(JSON.stringify({ detail: 'Session ended' }), { status: 401 }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(handler).not.toHaveBeenCalled();
    releases[0]?.(new Response(JSON.stringify({ access_token: 'after' }), { status: 200 }));
    await expect(confirm).resolves.toEqual({ access_token: 'after' });
    await expect(poll).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('token')).toBe('after');
    expect(handler).not.toHaveBeenCalled();
  });

  it('still ends the session for a 401 to the current token once no call replaces it', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    localStorage.setItem('token', 'current');
    answer(401, { detail: 'Session ended' });
    await expect(apiRequest('/activities/recent')).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('says the server cannot be reached when the network fails', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiRequest('/students/')).rejects.toMatchObject({ status: 0 });
  });
});

describe('apiRequest: reads ask whether anything changed', () => {
  const tagged = (status: number, body: unknown, etag: string) =>
    new Response(status === 304 ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', etag },
    });
  const sentTag = (fetch: { mock: { calls: unknown[][] } }, call: number) =>
    ((fetch.mock.calls[call] as [string, RequestInit])[1].headers as Record<string, string>)['if-none-match'];

  it('sends the tag of the last answer, and a 304 answers the very object kept', async () => {
    localStorage.setItem('token', 'tag-token');
    forgetKeptAnswers();
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(tagged(200, [{ id: 1, full_name: 'Asha' }], '"v1"'))
      .mockResolvedValueOnce(tagged(304, null, '"v1"'))
      .mockResolvedValueOnce(tagged(200, [{ id: 1, full_name: 'Asha Rao' }], '"v2"'));
    const first = await apiRequest<unknown[]>('/students/');
    expect(sentTag(fetch, 0)).toBeUndefined();
    const second = await apiRequest<unknown[]>('/students/');
    expect(sentTag(fetch, 1)).toBe('"v1"');
    expect(second).toBe(first);
    const third = await apiRequest<unknown[]>('/students/');
    expect(sentTag(fetch, 2)).toBe('"v1"');
    expect(third).toEqual([{ id: 1, full_name: 'Asha Rao' }]);
  });

  it('keeps answers apart by address and by token, and forgets them on sign-out', async () => {
    forgetKeptAnswers();
    localStorage.setItem('token', 'first-token');
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => tagged(200, [{ id: 2 }], '"same"'));
    await apiRequest('/students/', { query: { class_name: '7' } });
    await apiRequest('/students/', { query: { class_name: '8' } });
    expect(sentTag(fetch, 1)).toBeUndefined();
    localStorage.setItem('token', 'second-token');
    await apiRequest('/students/', { query: { class_name: '7' } });
    expect(sentTag(fetch, 2)).toBeUndefined();
    await apiRequest('/students/', { query: { class_name: '7' } });
    expect(sentTag(fetch, 3)).toBe('"same"');
    forgetKeptAnswers();
    await apiRequest('/students/', { query: { class_name: '7' } });
    expect(sentTag(fetch, 4)).toBeUndefined();
  });

  it('never sends a tag with a write', async () => {
    forgetKeptAnswers();
    localStorage.setItem('token', 'write-token');
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => tagged(200, { ok: true }, '"w"'));
    await apiRequest('/students/', { method: 'POST', json: { a: 1 } });
    await apiRequest('/students/', { method: 'POST', json: { a: 1 } });
    expect(sentTag(fetch, 1)).toBeUndefined();
  });
});

describe('whether the server can be reached, as each call finds it', () => {
  afterEach(() => noteReached());

  it('finds it out of reach when a call gets no answer, and within reach at the next answer', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(apiRequest('/students/')).rejects.toMatchObject({ status: 0 });
    expect(isServerUnreachable()).toBe(true);
    answer(200, []);
    await apiRequest('/students/');
    expect(isServerUnreachable()).toBe(false);
  });

  it('takes a gateway’s 502, 503 or 504 for a server out of reach, and its own errors for one within it', async () => {
    for (const status of [502, 503, 504]) {
      answer(status, { detail: 'Bad gateway' });
      await expect(apiRequest('/students/')).rejects.toMatchObject({ status });
      expect(isServerUnreachable()).toBe(true);
      answer(500, { detail: 'Internal server error' });
      await expect(apiRequest('/students/')).rejects.toMatchObject({ status: 500 });
      expect(isServerUnreachable()).toBe(false);
    }
  });

  it('does not take an answer the service worker kept for the server answering', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(apiRequest('/auth/me')).rejects.toMatchObject({ status: 0 });
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response('{}', { status: 200, headers: { 'content-type': 'application/json', [KEPT_ANSWER_HEADER]: '1' } }),
    );
    await apiRequest('/auth/me');
    expect(isServerUnreachable()).toBe(true);
  });

  it('leaves it as it was when a call is cancelled', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValueOnce(new DOMException('The operation was aborted.', 'AbortError'));
    await expect(apiRequest('/students/')).rejects.toMatchObject({ name: 'AbortError' });
    expect(isServerUnreachable()).toBe(false);
  });
});
