import { API_BASE_PATH, CLIENT_HEADER, CLIENT_HEADER_VALUES } from '@tuitiondesk/contract';
import { CLIENT_ERROR_CODES } from '../i18n/error-texts';
import { ApiError } from './api-error';
import { KEPT_ANSWER_HEADER } from './offline/offline-reads';
import { isGatewayFailure, noteReached, noteUnreachable } from './server-reach';

export { ApiError, errorText } from './api-error';

export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';

let onUnauthorized: (() => void) | undefined;

/** The session registers what a 401 does (sign out, go to the sign-in screen). */
export function setUnauthorizedHandler(handler: (() => void) | undefined): void {
  onUnauthorized = handler;
}

export function storedToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is (form-encoded or multipart). */
  body?: URLSearchParams | FormData;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  /** A token other than the stored one (the sign-in screen's change-password flow). */
  token?: string;
  /**
   * The call ends the account's other sessions and answers this session's new token (`access_token`):
   * a password change, turning two-factor sign-in on or off. The new token is stored as the answer
   * arrives, and a 401 that comes back meanwhile waits for it before ending the session.
   */
  replacesToken?: boolean;
}

/** A call that will hand this session a new token, while it is under way. */
let replacingToken: Promise<unknown> | undefined;

function urlOf(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE_PATH}${path}${search ? `?${search}` : ''}`;
}

/**
 * The last answers of GET calls with their entity tags, by token and address: the next call of the
 * same address asks `If-None-Match`, and a 304 (nothing changed) answers the very object kept, so
 * a poll that finds nothing new costs the server one small check and the screen no re-render.
 */
const keptAnswers = new Map<string, { etag: string; answer: unknown }>();
const KEPT_ANSWERS = 40;

function keepAnswer(key: string, etag: string, answer: unknown): void {
  keptAnswers.delete(key);
  keptAnswers.set(key, { etag, answer });
  for (const oldest of keptAnswers.keys()) {
    if (keptAnswers.size <= KEPT_ANSWERS) break;
    keptAnswers.delete(oldest);
  }
}

/** Forgets every kept answer (signing out). */
export function forgetKeptAnswers(): void {
  keptAnswers.clear();
}

async function send(path: string, options: RequestOptions, ifNoneMatch?: string): Promise<Response> {
  // Names the console in the audit log's "way" column; it labels the row and grants nothing.
  const headers: Record<string, string> = { accept: 'application/json', [CLIENT_HEADER]: CLIENT_HEADER_VALUES.console };
  const token = options.token ?? storedToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (ifNoneMatch) headers['if-none-match'] = ifNoneMatch;
  let body: BodyInit | undefined = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  let response: Response;
  try {
    response = await fetch(urlOf(path, options.query), {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    noteUnreachable();
    throw new ApiError(0, CLIENT_ERROR_CODES['client.unreachable'], { code: 'client.unreachable' });
  }
  // An answer the service worker kept (ADR 029) is not the server answering now.
  if (isGatewayFailure(response.status)) noteUnreachable();
  else if (!response.headers.has(KEPT_ANSWER_HEADER)) noteReached();
  if (!response.ok && !(ifNoneMatch && response.status === 304)) {
    const body: unknown = await response.json().catch(() => undefined);
    const detail = (body as { detail?: unknown } | undefined)?.detail;
    if (response.status === 401 && window.location.pathname !== '/login') {
      // The server may have ended this token because a call under way replaces it: that call's answer
      // decides. A request sent with a token since replaced does not end the session.
      if (replacingToken) await replacingToken.catch(() => undefined);
      const isCurrentToken = options.token !== undefined || token === storedToken();
      if (isCurrentToken) onUnauthorized?.();
    }
    throw new ApiError(response.status, typeof detail === 'string' ? detail : undefined, body);
  }
  return response;
}

/** Calls the API and answers the parsed JSON body. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const isRead = (options.method ?? 'GET') === 'GET' && options.json === undefined && options.body === undefined;
  if (isRead) return conditionalRead<T>(path, options);
  if (!options.replacesToken) return answerOf<T>(await send(path, options));
  const work = (async () => {
    const answer = await answerOf<T>(await send(path, options));
    const token = (answer as { access_token?: unknown } | undefined)?.access_token;
    // Not after a sign-out meanwhile: a session that ended stays ended.
    if (typeof token === 'string' && options.token === undefined && storedToken() !== null) {
      localStorage.setItem(TOKEN_KEY, token);
    }
    return answer;
  })();
  replacingToken = work;
  try {
    return await work;
  } finally {
    if (replacingToken === work) replacingToken = undefined;
  }
}

async function conditionalRead<T>(path: string, options: RequestOptions): Promise<T> {
  const key = `${options.token ?? storedToken() ?? ''}\n${urlOf(path, options.query)}`;
  const kept = keptAnswers.get(key);
  const response = await send(path, options, kept?.etag);
  if (response.status === 304 && kept) {
    keepAnswer(key, kept.etag, kept.answer);
    return kept.answer as T;
  }
  const answer = await answerOf<T>(response);
  const etag = response.headers.get('etag');
  if (etag) keepAnswer(key, etag, answer);
  else keptAnswers.delete(key);
  return answer;
}

async function answerOf<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** Calls the API for a file and answers it with the name the server gave it. */
export async function apiDownload(path: string, fallbackName: string): Promise<{ blob: Blob; filename: string }> {
  const response = await send(path, {});
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return { blob: await response.blob(), filename: match?.[1] ? decodeURIComponent(match[1]) : fallbackName };
}

/** Hands a file to the browser as a download. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
