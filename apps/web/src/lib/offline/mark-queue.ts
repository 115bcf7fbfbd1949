import type { MarkAttendanceRequest, QueuedMarksResult } from '@tuitiondesk/contract';
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

/**
 * Marks made on this device wait here (IndexedDB) until the server has them: kept across reloads
 * and browser restarts, each under an id the server remembers, so sending one twice saves it once.
 * Every entry belongs to the account that made it; only that account ever sends or sees it.
 */
export interface QueuedMarks {
  submission_id: string;
  user_id: number;
  class_name: string;
  date: string;
  records: MarkAttendanceRequest['records'];
  /** Names as the register showed them, to name a student the server no longer knows. */
  names: Record<number, string>;
  queued_at: string;
  /** Set once the server has answered: when, and what it saved and refused. */
  sent_at: string | null;
  result: QueuedMarksResult | null;
  /** The teacher has read the answer (refusals included): it is no longer shown. */
  dismissed: boolean;
}

interface QueueSchema extends DBSchema {
  submissions: { key: string; value: QueuedMarks; indexes: { by_user: number } };
}

const DB_NAME = 'tuitiondesk-console';
/** Answers read and dismissed are dropped after this; an answer never read is kept until it is. */
const KEEP_SENT_MS = 2 * 24 * 60 * 60 * 1000;

let opened: Promise<IDBPDatabase<QueueSchema>> | undefined;

function database(): Promise<IDBPDatabase<QueueSchema>> {
  opened ??= openDB<QueueSchema>(DB_NAME, 1, {
    upgrade(db) {
      const store = db.createObjectStore('submissions', { keyPath: 'submission_id' });
      store.createIndex('by_user', 'user_id');
    },
  });
  return opened;
}

/** For tests: the next call opens the database again (fake-indexeddb is replaced between tests). */
export function closeQueueDatabase(): void {
  void opened?.then((db) => db.close()).catch(() => undefined);
  opened = undefined;
}

/** A random (v4) UUID; crypto.randomUUID exists only in secure contexts, getRandomValues everywhere. */
export function newSubmissionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export async function addToQueue(entry: QueuedMarks): Promise<void> {
  await (await database()).put('submissions', entry);
}

/** This account's entries, oldest first. */
export async function queueOf(userId: number): Promise<QueuedMarks[]> {
  const entries = await (await database()).getAllFromIndex('submissions', 'by_user', userId);
  return entries.sort((a, b) => a.queued_at.localeCompare(b.queued_at));
}

export async function recordAnswer(submissionId: string, result: QueuedMarksResult, sentAt: string): Promise<void> {
  const db = await database();
  const tx = db.transaction('submissions', 'readwrite');
  const entry = await tx.store.get(submissionId);
  // Nothing refused: nothing for the teacher to read but when it went, shown until dismissed or old.
  if (entry) await tx.store.put({ ...entry, sent_at: sentAt, result });
  await tx.done;
}

export async function dismissAnswers(userId: number, submissionIds: readonly string[]): Promise<void> {
  const db = await database();
  const tx = db.transaction('submissions', 'readwrite');
  for (const id of submissionIds) {
    const entry = await tx.store.get(id);
    if (entry && entry.user_id === userId && entry.sent_at) await tx.store.put({ ...entry, dismissed: true });
  }
  await tx.done;
}

/** Drops answers dismissed (or with nothing refused) that are older than two days. */
export async function pruneQueue(now = Date.now()): Promise<void> {
  const db = await database();
  const tx = db.transaction('submissions', 'readwrite');
  for (const entry of await tx.store.getAll()) {
    const isOld = entry.sent_at !== null && now - Date.parse(entry.sent_at) > KEEP_SENT_MS;
    const isSettled = entry.dismissed || (entry.result?.refused.length ?? 0) === 0;
    if (isOld && isSettled) await tx.store.delete(entry.submission_id);
  }
  await tx.done;
}

/** How many student marks wait to be sent in these entries. */
export function waitingMarks(entries: readonly QueuedMarks[]): number {
  return entries.filter((entry) => entry.sent_at === null).reduce((sum, entry) => sum + entry.records.length, 0);
}
