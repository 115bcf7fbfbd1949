import type { Database, Queryable } from '../../db/database';
import { type AttemptKey, findAttempt, setAttemptStatus, setAttemptsStatus } from './attempts';
import { FEE_REMINDER_PAID_REASON, paidFeeReminders } from './fee-reminder-paid';

/** A WhatsApp attempt claimed for sending, with what the request needs. */
export interface ClaimedWhatsapp {
  id: number;
  message_id: number;
  tries: number;
  recipient: string;
  kind: string;
  delivery_status: string;
  whatsapp_template: string | null;
  whatsapp_language: string | null;
  whatsapp_parameters: string[] | null;
  whatsapp_buttons: boolean;
  whatsapp_text: string | null;
  conversation_at: string | null;
}

/** What the claim decided for each attempt: send it, or why not. */
export interface ClaimedBatch {
  ready: ClaimedWhatsapp[];
  /** Over the daily limit: moved to when a conversation leaves the 24-hour window. */
  deferred: number;
  /** The family was reached meanwhile (the push was confirmed, or it was read in the app). */
  cancelled: number;
  /** The family opted out meanwhile. */
  optedOut: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Claims up to `limit` due WhatsApp attempts in one short transaction: their lease moves
 * `next_attempt_at` ahead and `tries` counts this try, SKIP LOCKED lets other instances pass over them.
 * Under the daily-limit lock it also decides, for each template to a family not sent one in the last 24
 * hours, whether it opens a new conversation now or waits for the window to move.
 */
export async function claimDueWhatsapp(
  tx: Queryable,
  limit: number,
  leaseMs: number,
  dailyLimit: number,
): Promise<ClaimedBatch> {
  await lockDailyLimit(tx);
  const claimed = await tx.query<ClaimedWhatsapp>(
    `UPDATE message_attempts a
        SET tries = a.tries + 1, next_attempt_at = now() + $2::int * interval '1 millisecond'
       FROM messages m
      WHERE a.id IN (
              SELECT id FROM message_attempts
               WHERE channel = 'whatsapp' AND status = 'queued' AND next_attempt_at <= now()
               ORDER BY next_attempt_at, id
               LIMIT $1
               FOR UPDATE SKIP LOCKED
            )
        AND m.id = a.message_id
     RETURNING a.id, a.message_id, a.tries, m.recipient, m.kind, m.delivery_status, a.whatsapp_template,
               a.whatsapp_language, a.whatsapp_parameters, a.whatsapp_buttons, a.whatsapp_text, a.conversation_at`,
    [limit, leaseMs],
  );
  const batch: ClaimedBatch = { ready: [], deferred: 0, cancelled: 0, optedOut: 0 };
  if (claimed.length === 0) return batch;
  claimed.sort((a, b) => a.id - b.id);

  const optedIn = await familiesOptedIn(
    tx,
    claimed.map((attempt) => attempt.recipient),
  );
  const today = await conversationsToday(tx);
  // A fee reminder to a family that paid since it was queued is not sent (ADR 061).
  const paid = await paidFeeReminders(
    tx,
    claimed.filter((attempt) => attempt.kind === 'fee_reminder').map((attempt) => attempt.message_id),
  );
  // Decided here, written below in one statement per kind of decision.
  const settled: ClaimedWhatsapp[] = [];
  const reached: number[] = [];
  const optedOut: number[] = [];
  const opening: number[] = [];
  const deferred: number[] = [];
  for (const attempt of claimed) {
    if (attempt.delivery_status === 'delivered' || attempt.delivery_status === 'read') {
      reached.push(attempt.id);
      continue;
    }
    if (paid.has(attempt.message_id)) {
      settled.push(attempt);
      continue;
    }
    // A one-off goes by its own rules (checked when staff sent it); a message to families needs consent now.
    if (attempt.kind !== 'whatsapp' && !optedIn.has(attempt.recipient)) {
      optedOut.push(attempt.id);
      continue;
    }
    if (attempt.whatsapp_template && !attempt.conversation_at && !today.phones.has(attempt.recipient)) {
      if (today.count >= dailyLimit) {
        deferred.push(attempt.id);
        continue;
      }
      opening.push(attempt.id);
      today.phones.add(attempt.recipient);
      today.count += 1;
    }
    batch.ready.push(attempt);
  }
  if (reached.length > 0) await tx.query('DELETE FROM message_attempts WHERE id = ANY($1::int[])', [reached]);
  await setAttemptsStatus(tx, settled, 'failed', { failureReason: FEE_REMINDER_PAID_REASON });
  for (const attemptId of optedOut) {
    await setAttemptStatus(tx, { attemptId }, 'failed', {
      failureReason: 'The parent opted out of WhatsApp messages.',
    });
  }
  if (opening.length > 0) {
    await tx.query('UPDATE message_attempts SET conversation_at = now() WHERE id = ANY($1::int[])', [opening]);
  }
  if (deferred.length > 0) {
    await deferForLimit(tx, deferred, new Date((today.oldest ?? new Date()).getTime() + DAY_MS), dailyLimit);
  }
  batch.cancelled = reached.length + settled.length;
  batch.optedOut = optedOut.length;
  batch.deferred = deferred.length;
  return batch;
}

/** Serialises the counting of new conversations across instances (a row lock on one settings row). */
export async function lockDailyLimit(tx: Queryable): Promise<void> {
  await tx.query(`SELECT value FROM settings WHERE key = 'whatsapp_daily_limit_lock' FOR UPDATE`);
}

/** How many families were sent a template in the last 24 hours (WhatsApp's daily limit counts them). */
export async function countConversationsToday(db: Queryable): Promise<number> {
  return (await conversationsToday(db)).count;
}

/** Families sent a template in the last 24 hours, and when the oldest of those conversations opened. */
export async function conversationsToday(
  db: Queryable,
): Promise<{ count: number; phones: Set<string>; oldest: Date | null }> {
  const rows = await db.query<{ recipient: string; opened: string }>(
    `SELECT m.recipient, min(a.conversation_at) AS opened
       FROM message_attempts a JOIN messages m ON m.id = a.message_id
      WHERE a.conversation_at > now() - interval '24 hours'
      GROUP BY m.recipient`,
  );
  const oldest = rows.reduce<Date | null>((first, row) => {
    const opened = new Date(row.opened);
    return first === null || opened < first ? opened : first;
  }, null);
  return { count: rows.length, phones: new Set(rows.map((row) => row.recipient)), oldest };
}

async function familiesOptedIn(db: Queryable, phones: string[]): Promise<Set<string>> {
  const rows = await db.query<{ parent_phone: string }>(
    `SELECT parent_phone FROM students WHERE parent_phone = ANY($1::text[])
      GROUP BY parent_phone HAVING bool_and(parent_whatsapp_opt_in)`,
    [[...new Set(phones)]],
  );
  return new Set(rows.map((row) => row.parent_phone));
}

export function limitReason(dailyLimit: number, until: Date): string {
  return `Over WhatsApp's daily limit of ${dailyLimit} new conversations; goes when the limit allows (from ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC).`;
}

async function deferForLimit(tx: Queryable, attemptIds: number[], until: Date, dailyLimit: number): Promise<void> {
  await tx.query(
    `UPDATE message_attempts SET tries = tries - 1, next_attempt_at = $2::timestamptz, waiting_reason = $3
      WHERE id = ANY($1::int[])`,
    [attemptIds, until.toISOString(), limitReason(dailyLimit, until)],
  );
}

/**
 * For a one-off message: under the daily-limit lock, whether a template to `phone` may go now (and
 * whether it opens a new conversation), or when it may.
 */
export async function admitConversation(
  tx: Queryable,
  phone: string,
  dailyLimit: number,
): Promise<{ ok: true; counted: boolean } | { ok: false; until: Date; reason: string }> {
  await lockDailyLimit(tx);
  const today = await conversationsToday(tx);
  if (today.phones.has(phone)) return { ok: true, counted: false };
  if (today.count < dailyLimit) return { ok: true, counted: true };
  const until = new Date((today.oldest ?? new Date()).getTime() + DAY_MS);
  return { ok: false, until, reason: limitReason(dailyLimit, until) };
}

/** Try again later (rate limits, 5xx, no answer): the try is kept, the lease becomes the back-off. */
export async function rescheduleWhatsapp(
  db: Queryable,
  attemptId: number,
  delayMs: number,
  reason: string,
): Promise<void> {
  await db.query(
    `UPDATE message_attempts SET next_attempt_at = now() + $2::int * interval '1 millisecond', waiting_reason = $3
      WHERE id = $1 AND status = 'queued'`,
    [attemptId, delayMs, reason],
  );
}

/**
 * The Cloud API took the message: its wamid is stored with the attempt, which becomes sent; then any
 * status that overtook the answer (kept in whatsapp_early_statuses) is applied. Two transactions, in
 * this order, as the webhook does the opposite (keeps the status, then looks for the wamid): whichever
 * commits second sees the other's row, so no status is lost between them.
 */
export async function storeProviderMessageId(
  db: Database,
  where: AttemptKey,
  providerMessageId: string,
): Promise<void> {
  const attempt = (await findAttempt(db, where))[0];
  if (attempt) await storeProviderMessageIds(db, [{ attemptId: attempt.id, providerMessageId }]);
}

/** storeProviderMessageId for many sends at once: one transaction, a statement per step, not per send. */
export async function storeProviderMessageIds(
  db: Database,
  sent: readonly { attemptId: number; providerMessageId: string }[],
): Promise<void> {
  if (sent.length === 0) return;
  const stored = await db.transaction(async (tx) => {
    const attempts = await tx.query<{ id: number; message_id: number }>(
      'SELECT id, message_id FROM message_attempts WHERE id = ANY($1::int[])',
      [sent.map((item) => item.attemptId)],
    );
    await setAttemptsStatus(tx, attempts, 'sent');
    return tx.query<{ provider_message_id: string }>(
      `UPDATE message_attempts a SET provider_message_id = s.provider_message_id
         FROM unnest($1::int[], $2::text[]) AS s(id, provider_message_id)
        WHERE a.id = s.id
        RETURNING a.provider_message_id`,
      [sent.map((item) => item.attemptId), sent.map((item) => item.providerMessageId)],
    );
  });
  if (stored.length === 0) return;
  // Most sends have no status ahead of them: a look outside a transaction (after the commit above, so
  // as safe as the transaction's own look) spares them a second transaction.
  const early = await db.query<{ provider_message_id: string }>(
    `SELECT DISTINCT provider_message_id FROM whatsapp_early_statuses
      WHERE provider_message_id = ANY($1::text[]) ORDER BY provider_message_id`,
    [stored.map((row) => row.provider_message_id)],
  );
  for (const { provider_message_id } of early) {
    await db.transaction((tx) => applyEarlyStatuses(tx, provider_message_id));
  }
}

/** Applies, once each and in the order they happened, the statuses kept for a wamid that is now stored. */
export async function applyEarlyStatuses(tx: Queryable, providerMessageId: string): Promise<void> {
  const attempt = await tx.query<{ id: number }>('SELECT id FROM message_attempts WHERE provider_message_id = $1', [
    providerMessageId,
  ]);
  const attemptId = attempt[0]?.id;
  if (attemptId === undefined) return;
  const early = await tx.query<{
    status: 'sent' | 'delivered' | 'read' | 'failed';
    status_at: string;
    error_code: number | null;
    failure_reason: string | null;
  }>(
    `DELETE FROM whatsapp_early_statuses WHERE provider_message_id = $1
     RETURNING status, status_at, error_code, failure_reason`,
    [providerMessageId],
  );
  early.sort((a, b) => Date.parse(a.status_at) - Date.parse(b.status_at));
  for (const status of early) {
    await setAttemptStatus(tx, { attemptId }, status.status, {
      at: new Date(status.status_at),
      errorCode: status.error_code,
      failureReason: status.failure_reason,
    });
  }
}

/** A status for a wamid no attempt has (yet): kept a while in case the sender has not stored it yet. */
export async function keepEarlyStatus(
  db: Queryable,
  status: {
    providerMessageId: string;
    status: 'sent' | 'delivered' | 'read' | 'failed';
    at: Date;
    errorCode: number | null;
    failureReason: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO whatsapp_early_statuses (provider_message_id, status, status_at, error_code, failure_reason)
     VALUES ($1, $2, $3::timestamptz, $4, $5)`,
    [status.providerMessageId, status.status, status.at.toISOString(), status.errorCode, status.failureReason],
  );
}

/** Early statuses no attempt claimed within a day were for messages this centre did not send. */
export async function dropStaleEarlyStatuses(db: Queryable): Promise<number> {
  const rows = await db.query(
    `DELETE FROM whatsapp_early_statuses WHERE received_at < now() - interval '1 day' RETURNING id`,
  );
  return rows.length;
}

/** 24 hours after the parent last wrote, when that is still ahead; else null (free text not allowed). */
export async function windowOpenUntil(db: Queryable, phone: string): Promise<Date | null> {
  const rows = await db.query<{ until: string | null }>(
    `SELECT max(received_at) + interval '24 hours' AS until FROM whatsapp_inbound WHERE phone = $1`,
    [phone],
  );
  const until = rows[0]?.until;
  if (!until) return null;
  const date = new Date(until);
  return date.getTime() > Date.now() ? date : null;
}

/** The family opted out: its WhatsApp attempts still waiting will not go. Answers how many. */
export async function failQueuedForPhone(tx: Queryable, phone: string, reason: string): Promise<number> {
  const queued = await tx.query<{ id: number; message_id: number }>(
    `SELECT a.id, a.message_id FROM message_attempts a JOIN messages m ON m.id = a.message_id
      WHERE m.recipient = $1 AND a.channel = 'whatsapp' AND a.status = 'queued'
      ORDER BY a.message_id, a.id`,
    [phone],
  );
  for (const attempt of queued) {
    await setAttemptStatus(tx, { attemptId: attempt.id }, 'failed', { failureReason: reason });
  }
  return queued.length;
}
