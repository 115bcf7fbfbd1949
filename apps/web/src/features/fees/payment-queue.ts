import type { RecordedPayment, RecordPayment } from '@tuitiondesk/contract';
import { type DBSchema, openDB } from 'idb';
import { useSyncExternalStore } from 'react';
import { ApiError, errorText, USER_KEY } from '../../lib/api-client';
import { isUnreachable, sendPayment } from './api';

/**
 * Counter payments taken while the server cannot be reached wait here (IndexedDB, ADR 055), keyed by
 * their client_id, until they are sent: kept across reloads, sent again when the network comes back.
 * The server answers a client_id it has seen with the first result, so a replay never records twice.
 * Each entry belongs to the account that took it; only that account sends or sees it.
 */
export interface QueuedPayment {
  client_id: string;
  user_id: number;
  /** The body as it will be sent (and as it was first tried). */
  body: RecordPayment & { client_id: string; family_id: number; amount_paise: number };
  parent_name: string;
  queued_at: string;
  /** Set once the server answered: its result, or its refusal's words (kept for the admin to read). */
  sent_at: string | null;
  result: RecordedPayment | null;
  refusal: string | null;
}

interface QueueSchema extends DBSchema {
  payments: { key: string; value: QueuedPayment; indexes: { by_user: number } };
}

const DB_NAME = 'tuitiondesk-fee-payments';

function database() {
  return openDB<QueueSchema>(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore('payments', { keyPath: 'client_id' }).createIndex('by_user', 'user_id');
    },
  });
}

async function withStore<T>(work: (db: Awaited<ReturnType<typeof database>>) => Promise<T>): Promise<T> {
  const db = await database();
  try {
    return await work(db);
  } finally {
    db.close();
  }
}

export function signedInUserId(): number | null {
  try {
    const user = JSON.parse(localStorage.getItem(USER_KEY) ?? 'null') as { id?: unknown } | null;
    return typeof user?.id === 'number' ? user.id : null;
  } catch {
    return null;
  }
}

/** The account's entries, oldest first. */
export function queuedPayments(userId: number): Promise<QueuedPayment[]> {
  return withStore(async (db) =>
    (await db.getAllFromIndex('payments', 'by_user', userId)).sort((a, b) => a.queued_at.localeCompare(b.queued_at)),
  );
}

type Listener = () => void;
const listeners = new Set<Listener>();
let snapshot: readonly QueuedPayment[] = [];

async function reload(): Promise<void> {
  const userId = signedInUserId();
  const read = userId === null ? [] : await queuedPayments(userId).catch(() => []);
  // The same entries keep the same snapshot: a screen re-renders only when the queue changed.
  if (JSON.stringify(read) === JSON.stringify(snapshot)) return;
  snapshot = read;
  for (const listener of listeners) listener();
}

/** Keeps a payment the server could not be reached for. */
export async function queuePayment(entry: Omit<QueuedPayment, 'sent_at' | 'result' | 'refusal' | 'user_id'>) {
  const userId = signedInUserId();
  if (userId === null) throw new Error('signed out');
  await withStore((db) =>
    db.put('payments', { ...entry, user_id: userId, sent_at: null, result: null, refusal: null }),
  );
  await reload();
}

/** Forgets an answered entry once its answer has been read. */
export async function dismissPayment(clientId: string): Promise<void> {
  await withStore(async (db) => {
    const entry = await db.get('payments', clientId);
    if (entry?.sent_at) await db.delete('payments', clientId);
  });
  await reload();
}

let run: Promise<number> | undefined;

/**
 * Sends what waits, oldest first, and answers how many the server took. Stops at the first that still
 * cannot reach the server; a refusal (422: a wrong reference, a family gone) is kept with its words.
 */
export function replayPayments(): Promise<number> {
  run ??= (async () => {
    let sent = 0;
    try {
      const userId = signedInUserId();
      if (userId === null) return 0;
      for (const entry of await queuedPayments(userId)) {
        if (entry.sent_at !== null) continue;
        let answered: Pick<QueuedPayment, 'result' | 'refusal'>;
        try {
          answered = { result: await sendPayment(entry.body), refusal: null };
          sent += 1;
        } catch (error) {
          if (isUnreachable(error) || (error instanceof ApiError && (error.status === 401 || error.status === 429)))
            break;
          // The server's words, in the language in use when it answered.
          answered = { result: null, refusal: errorText(error, String(error)) };
        }
        await withStore((db) => db.put('payments', { ...entry, ...answered, sent_at: new Date().toISOString() }));
      }
      return sent;
    } finally {
      run = undefined;
      await reload();
    }
  })();
  return run;
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  if (listeners.size === 1) void reload();
  return () => listeners.delete(listener);
}

/** The signed-in account's queued payments (waiting, and answered but not yet read). */
export function usePaymentQueue(): readonly QueuedPayment[] {
  return useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  );
}

/** For tests: reads the device again. */
export const reloadPaymentQueue = reload;
