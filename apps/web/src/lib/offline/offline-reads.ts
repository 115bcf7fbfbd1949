/**
 * The service worker keeps the last answers of these reads per account: for marking offline, and for
 * the fees counter on a phone with no network (the dues, a family and its statement, as last seen
 * online), where a payment then waits in the device's queue. Receipts are not kept: their PDF and JSON
 * share one address.
 */
export const OFFLINE_READS_CACHE = 'console-offline-reads';

/**
 * The API's base path, written out: the service worker imports this file, and importing the
 * contract would bundle all of zod into it (a test checks it against API_BASE_PATH).
 */
export const OFFLINE_API_BASE = '/api/v1';

const api = (path: string) => new RegExp(`^${OFFLINE_API_BASE}${path}$`);

/**
 * Set on an answer the worker gives from what it kept, when the network did not answer: the page then
 * knows the server was not reached, and keeps saying so.
 */
export const KEPT_ANSWER_HEADER = 'x-kept-answer';

export const OFFLINE_READS: readonly RegExp[] = [
  api('/auth/me'),
  api('/attendance/marking-scope'),
  api('/attendance/roster'),
  api('/settings/marking'),
  // The teacher's dashboard card: their classes today, each one tap from its register.
  api('/dashboard/my-classes'),
  api('/fees/dues'),
  api('/fees/ageing'),
  api('/fees/collections'),
  api('/fees/families/\\d+'),
  api('/fees/families/\\d+/statement'),
];

/** Forgets every kept answer on this device: at sign-out, and at sign-in (the last account's go). */
export async function forgetOfflineReads(): Promise<void> {
  if (typeof caches === 'undefined') return;
  await caches.delete(OFFLINE_READS_CACHE).catch(() => false);
}
