import type { ParentProfile } from '@tuitiondesk/contract';
import { CLIENT_ERROR_CODES } from '../i18n/error-texts';
import { ApiError } from '../lib/api-error';

/**
 * The parent app's own small fetch wrapper and session storage. Contract imports are type-only: the
 * contract's runtime (zod) never reaches the parent bundle.
 */

export const API_BASE = '/api/v1';
export const TOKEN_KEY = 'parent_token';
export const PROFILE_KEY = 'parent_profile';
export const EXPIRES_KEY = 'parent_expires_at';

export const SESSION_ENDED =
  'You have been signed out: the access code was changed or your session ended. Please sign in again.';
export const OFFLINE = CLIENT_ERROR_CODES['client.centre_unreachable'];

/** A failed call (the console's error type: the HTTP status, the server's `detail`, and its body with `code` and `params`). */
export { ApiError as ParentApiError, errorText } from '../lib/api-error';

export interface ParentSession {
  token: string;
  profile: ParentProfile;
}

export function loadSession(now = Date.now()): ParentSession | null {
  try {
    const token = localStorage.getItem(TOKEN_KEY);
    const profile = localStorage.getItem(PROFILE_KEY);
    const expires = Number(localStorage.getItem(EXPIRES_KEY) ?? 'NaN');
    if (!token || !profile) return null;
    if (Number.isFinite(expires) && expires <= now) {
      clearSession();
      return null;
    }
    return { token, profile: JSON.parse(profile) as ParentProfile };
  } catch {
    return null;
  }
}

export function saveSession(session: ParentSession, expiresInSeconds?: number, now = Date.now()): void {
  try {
    localStorage.setItem(TOKEN_KEY, session.token);
    localStorage.setItem(PROFILE_KEY, JSON.stringify(session.profile));
    if (expiresInSeconds !== undefined) localStorage.setItem(EXPIRES_KEY, String(now + expiresInSeconds * 1000));
  } catch {
    // Private mode without storage: the session lasts as long as the page.
  }
}

export function clearSession(): void {
  try {
    for (const key of [TOKEN_KEY, PROFILE_KEY, EXPIRES_KEY]) localStorage.removeItem(key);
  } catch {
    // nothing stored
  }
}

let onUnauthorized: (() => void) | undefined;

/** What a 401 on a signed-in call does (sign out, back to sign-in with a message). */
export function setUnauthorizedHandler(handler: (() => void) | undefined): void {
  onUnauthorized = handler;
}

export interface ParentRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  json?: unknown;
  signal?: AbortSignal;
  /** Sign-in sends none; every other call sends the stored parent token. */
  token?: string | null;
}

/**
 * The header the parent app's service worker puts on the answers it keeps for offline reading: when
 * the server gave that answer. An answer that has it came from the phone, not from the server.
 */
export const KEPT_AT_HEADER = 'x-tuitiondesk-kept-at';

/** Calls the parent API and answers the parsed JSON body. */
export async function parentRequest<T>(path: string, options: ParentRequestOptions = {}): Promise<T> {
  return (await parentResponse<T>(path, options)).body;
}

/**
 * A read that also says whether the answer is the copy the service worker kept (offline, or the
 * centre out of reach), and from when: `keptAt` is undefined for an answer fresh from the server.
 */
export async function parentRead<T>(path: string): Promise<{ body: T; keptAt: string | undefined }> {
  const { body, response } = await parentResponse<T>(path, {});
  const kept = response.headers.get(KEPT_AT_HEADER);
  return { body, keptAt: kept && !Number.isNaN(Date.parse(kept)) ? kept : undefined };
}

async function parentResponse<T>(
  path: string,
  options: ParentRequestOptions,
): Promise<{ body: T; response: Response }> {
  // Names the parent app in the audit log's "way" column (CLIENT_HEADER in the contract, written out:
  // the parent bundle takes no code from it); it labels the row and grants nothing.
  const headers: Record<string, string> = { accept: 'application/json', 'x-tuitiondesk-client': 'parent-app' };
  const token = options.token === undefined ? localStorageToken() : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
      headers,
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    // Coded as the console's own unreachable error, so it shows in the language in use.
    throw new ApiError(0, OFFLINE, { code: 'client.centre_unreachable' });
  }
  if (!response.ok) {
    // The whole body goes with the error: its `code` and `params` translate it (ADR 036).
    const body: unknown = await response.json().catch(() => undefined);
    const detail = (body as { detail?: unknown } | undefined)?.detail;
    // A 401 on sign-in is a wrong code; on any other call the session is over.
    if (response.status === 401 && token) onUnauthorized?.();
    throw new ApiError(response.status, typeof detail === 'string' ? detail : undefined, body);
  }
  if (response.status === 204) return { body: undefined as T, response };
  return { body: (await response.json()) as T, response };
}

function localStorageToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}
