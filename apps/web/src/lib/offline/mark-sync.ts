import type { MarkAttendanceRequest, QueuedMarksResult } from '@tuitiondesk/contract';
import { useSyncExternalStore } from 'react';
import { ApiError, apiRequest, USER_KEY } from '../api-client';
import {
  addToQueue,
  dismissAnswers,
  newSubmissionId,
  pruneQueue,
  type QueuedMarks,
  queueOf,
  recordAnswer,
} from './mark-queue';

export interface MarkQueueState {
  /** The signed-in account whose queue this is; null when nobody is signed in. */
  userId: number | null;
  entries: readonly QueuedMarks[];
  /** The queue has been read from the device (until then a register cannot know what waits). */
  ready: boolean;
  sending: boolean;
  /**
   * Submissions of this tab on their first try: not yet "waiting" (a Submit online would otherwise
   * flash "30 marks waiting to be sent" for the moment its request takes).
   */
  firstSends: readonly string[];
}

/** The entries to show as waiting: not answered, and not on their first try from this tab. */
export function shownWaiting(state: MarkQueueState): QueuedMarks[] {
  return state.entries.filter((entry) => entry.sent_at === null && !state.firstSends.includes(entry.submission_id));
}

export interface NewMarks {
  class_name: string;
  date: string;
  records: MarkAttendanceRequest['records'];
  names: Record<number, string>;
}

/** What a submit came to: the server's answer, or kept on the device to be sent later. */
export type SubmitOutcome = { kind: 'sent'; result: QueuedMarksResult } | { kind: 'queued'; reason: string };

const RETRY_MS = 30_000;
const CHANNEL = 'tuitiondesk-mark-queue';

/** The signed-in account as the console stored it (the token sent is that account's). */
function signedInUserId(): number | null {
  try {
    const user = JSON.parse(localStorage.getItem(USER_KEY) ?? 'null') as { id?: unknown } | null;
    return typeof user?.id === 'number' ? user.id : null;
  } catch {
    return null;
  }
}

/** Worth trying again later: no network, the server restarting or busy. Anything else is its answer. */
function isPassing(error: unknown): boolean {
  return (
    !(error instanceof ApiError) ||
    error.status === 0 ||
    error.status === 401 ||
    error.status === 429 ||
    error.status >= 500
  );
}

/**
 * The device's queue of marks for the signed-in account, and the one loop that sends it: at sign-in,
 * after each submit, when the network comes back, when the console is shown again, and every 30 s
 * while marks wait. One tab sends at a time (Web Locks); the others hear of it (BroadcastChannel).
 */
class MarkSync {
  private state: MarkQueueState = { userId: null, entries: [], ready: false, sending: false, firstSends: [] };
  private readonly listeners = new Set<() => void>();
  private readonly sentListeners = new Set<(result: QueuedMarksResult) => void>();
  private run: Promise<void> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private channel: BroadcastChannel | undefined;
  private started = false;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): MarkQueueState => this.state;

  /** Called with each answer the server gives to a queued submission (the console refreshes its registers). */
  onSent(listener: (result: QueuedMarksResult) => void): () => void {
    this.sentListeners.add(listener);
    return () => this.sentListeners.delete(listener);
  }

  private set(change: Partial<MarkQueueState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }

  private start(): void {
    if (this.started || typeof window === 'undefined') return;
    this.started = true;
    window.addEventListener('online', () => void this.send());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') void this.send();
    });
    if (typeof BroadcastChannel !== 'undefined') {
      this.channel = new BroadcastChannel(CHANNEL);
      this.channel.onmessage = () => void this.reload();
    }
  }

  /** The account signed in now (null: signed out). Only its entries are read, shown and sent. */
  async switchAccount(userId: number | null): Promise<void> {
    this.start();
    if (userId !== this.state.userId) this.set({ userId, entries: [], ready: false });
    if (userId === null) {
      this.schedule();
      return;
    }
    await pruneQueue().catch(() => undefined);
    await this.reload();
    void this.send();
  }

  private async reload(): Promise<void> {
    const userId = this.state.userId;
    if (userId === null) return;
    const entries = await queueOf(userId).catch(() => [] as QueuedMarks[]);
    if (this.state.userId === userId) this.set({ entries, ready: true });
    this.schedule();
  }

  private changed(): void {
    this.channel?.postMessage('changed');
  }

  private schedule(): void {
    const isWaiting = this.state.entries.some((entry) => entry.sent_at === null);
    if (isWaiting && !this.timer) this.timer = setInterval(() => void this.send(), RETRY_MS);
    if (!isWaiting && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Keeps the marks on the device first, then sends; answers the server's answer, or that they wait. */
  async submit(marks: NewMarks): Promise<SubmitOutcome> {
    const userId = this.state.userId;
    if (userId === null) throw new Error('Sign in to mark attendance');
    const entry: QueuedMarks = {
      submission_id: newSubmissionId(),
      user_id: userId,
      ...marks,
      queued_at: new Date().toISOString(),
      sent_at: null,
      result: null,
      dismissed: false,
    };
    this.set({ firstSends: [...this.state.firstSends, entry.submission_id] });
    try {
      return await this.submitEntry(entry);
    } finally {
      this.set({ firstSends: this.state.firstSends.filter((id) => id !== entry.submission_id) });
    }
  }

  private async submitEntry(entry: QueuedMarks): Promise<SubmitOutcome> {
    try {
      await addToQueue(entry);
    } catch {
      // No IndexedDB on this browser (some private modes): nothing can wait, so send straight away.
      const result = await this.sendOne(entry);
      if (result) return { kind: 'sent', result };
      throw new Error(
        `${this.lastProblem ?? 'The server could not be reached.'} This browser cannot keep marks offline: try again when connected.`,
      );
    }
    await this.reload();
    this.changed();
    await this.send();
    const sent = this.state.entries.find((kept) => kept.submission_id === entry.submission_id);
    if (sent?.result) return { kind: 'sent', result: sent.result };
    return { kind: 'queued', reason: this.lastProblem ?? 'The server could not be reached.' };
  }

  private lastProblem: string | undefined;

  /** Sends what waits, oldest first; a run already under way is joined. */
  send(): Promise<void> {
    this.run ??= this.sendAll().finally(() => {
      this.run = undefined;
    });
    return this.run;
  }

  private async sendAll(): Promise<void> {
    const userId = this.state.userId;
    if (userId === null || !this.state.entries.some((entry) => entry.sent_at === null)) return;
    const work = async () => {
      this.set({ sending: true });
      try {
        // Another tab may have sent some meanwhile: read the queue again under the lock.
        for (const entry of await queueOf(userId)) {
          if (entry.sent_at !== null) continue;
          // The token stored is another account's (signed in elsewhere in this browser): never send as them.
          if (signedInUserId() !== entry.user_id || this.state.userId !== entry.user_id) return;
          const result = await this.sendOne(entry);
          if (!result) return;
          await recordAnswer(entry.submission_id, result, new Date().toISOString());
          for (const listener of this.sentListeners) listener(result);
        }
      } finally {
        this.set({ sending: false });
        await this.reload();
        this.changed();
      }
    };
    if (typeof navigator !== 'undefined' && navigator.locks) await navigator.locks.request(CHANNEL, work);
    else await work();
  }

  private async sendOne(entry: QueuedMarks): Promise<QueuedMarksResult | undefined> {
    try {
      const result = await apiRequest<QueuedMarksResult>('/attendance/submissions', {
        method: 'POST',
        json: { submission_id: entry.submission_id, date: entry.date, records: entry.records },
      });
      this.lastProblem = undefined;
      return result;
    } catch (error) {
      if (isPassing(error)) {
        this.lastProblem = error instanceof ApiError ? error.message : 'The server could not be reached.';
        return undefined;
      }
      // The server refused the whole submission (it is kept, with its words, for the teacher to read).
      const reason = (error as ApiError).message;
      return {
        submission_id: entry.submission_id,
        class_name: entry.class_name,
        date: entry.date,
        saved_at: new Date().toISOString(),
        marked_count: 0,
        message: reason,
        refused: entry.records.map((record) => ({
          student_id: record.student_id,
          student_name: entry.names[record.student_id] ?? null,
          reason,
        })),
      };
    }
  }

  async dismiss(submissionIds: readonly string[]): Promise<void> {
    const userId = this.state.userId;
    if (userId === null) return;
    await dismissAnswers(userId, submissionIds);
    await this.reload();
    this.changed();
  }
}

export const markSync = new MarkSync();

export function useMarkQueue(): MarkQueueState {
  return useSyncExternalStore(markSync.subscribe, markSync.getSnapshot);
}
