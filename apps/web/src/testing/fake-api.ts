import { vi } from 'vitest';

/** One call the page made, as the fake server saw it. */
export interface FakeCall {
  method: string;
  url: URL;
  /** The path without the API prefix: `/students/`, `/attendance/roster`. */
  path: string;
  /** A JSON body parsed, a form or upload as sent, or undefined. */
  body: unknown;
  /** As sent: `authorization` carries the session's token. */
  headers: Headers;
}

/** What a route answers: `[status, JSON body]`, or a whole Response (an empty 500, a file); may be awaited. */
export type FakeReply = [number, unknown] | Response;
export type FakeRoute = (request: FakeCall) => FakeReply | Promise<FakeReply>;

export interface FakeApiOptions {
  /** Answers what no route names; by default 404 with `{ detail: 'Not found' }`. */
  otherwise?: FakeRoute;
}

const API_PREFIX = /^\/api\/v1(?=\/)/;

/** A Response with a JSON body, as the server sends it. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A reply the test sends when it chooses, to see the page while the call is under way. */
export function deferred<T = FakeReply>(): { promise: Promise<T>; release: (reply: T) => void } {
  let release: (reply: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

function bodyOf(init: RequestInit | undefined): unknown {
  const body = init?.body;
  if (typeof body === 'string') return body === '' ? undefined : JSON.parse(body);
  return body ?? undefined;
}

/** The session the browser holds, as `GET /auth/me` answers it: the stored user while a token is stored. */
function storedSession(): FakeReply {
  const user = localStorage.getItem('user');
  return localStorage.getItem('token') && user ? [200, JSON.parse(user)] : [401, { detail: 'Not authenticated' }];
}

/**
 * A fake API: answers by method and path, records every call. Only `fetch`, the outside world, is faked.
 * A route is named `'GET /students/'` or with the prefix, `'GET /api/v1/students/'`. `GET /auth/me`,
 * unless a route names it, answers the user a test signed in with.
 */
export function fakeApi(routes: Record<string, FakeRoute>, options: FakeApiOptions = {}) {
  const calls: FakeCall[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const path = url.pathname.replace(API_PREFIX, '');
    const call: FakeCall = { method, url, path, body: bodyOf(init), headers: new Headers(init?.headers) };
    calls.push(call);
    const route =
      routes[`${method} ${url.pathname}`] ??
      routes[`${method} ${path}`] ??
      (method === 'GET' && path === '/auth/me' ? storedSession : options.otherwise);
    const reply = route ? await route(call) : ([404, { detail: 'Not found' }] as FakeReply);
    return reply instanceof Response ? reply : json(reply[1], reply[0]);
  });
  return { calls, spy };
}
