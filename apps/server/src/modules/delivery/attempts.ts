import type { AttemptChannel, DeliveryStatus } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

/**
 * An attempt's status only moves forward: queued → sent → delivered → read; `failed` only from queued
 * or sent. A later proof (delivered, read) still moves a failed attempt on. Statuses that arrive late,
 * twice or out of order therefore change nothing they should not.
 */
const ATTEMPT_RANK = `CASE {s} WHEN 'queued' THEN 0 WHEN 'sent' THEN 1 WHEN 'failed' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 END`;
/** The message's status from its attempts: the best one wins; failed only when nothing else is left. */
const MESSAGE_PRIORITY = `CASE {s} WHEN 'read' THEN 4 WHEN 'delivered' THEN 3 WHEN 'sent' THEN 2 WHEN 'queued' THEN 1 ELSE 0 END`;
const rank = (column: string) => ATTEMPT_RANK.replace('{s}', column);
const priority = (column: string) => MESSAGE_PRIORITY.replace('{s}', column);

export interface AttemptChange {
  id: number;
  message_id: number;
  channel: AttemptChannel;
  status: DeliveryStatus;
  /** The status moved (false: it arrived late, twice, or out of order, and changed nothing). */
  changed: boolean;
}

/** An attempt by its id, by its WhatsApp message id, or as a message's attempt on one channel. */
export type AttemptKey =
  | { attemptId: number }
  | { providerMessageId: string }
  | { messageId: number; channel: AttemptChannel };

export function findAttempt(tx: Queryable, where: AttemptKey): Promise<{ id: number; message_id: number }[]> {
  if ('attemptId' in where) {
    return tx.query('SELECT id, message_id FROM message_attempts WHERE id = $1', [where.attemptId]);
  }
  if ('providerMessageId' in where) {
    return tx.query('SELECT id, message_id FROM message_attempts WHERE provider_message_id = $1', [
      where.providerMessageId,
    ]);
  }
  return tx.query('SELECT id, message_id FROM message_attempts WHERE message_id = $1 AND channel = $2', [
    where.messageId,
    where.channel,
  ]);
}

export interface StatusDetails {
  /** When it happened (the Cloud API's timestamp); now when not given. */
  at?: Date;
  failureReason?: string | null;
  errorCode?: number | null;
}

/**
 * Moves one attempt (by id, or by its WhatsApp message id) to `status` when that is forward, and then
 * the message's own status (see refreshMessageStatuses). Answers the attempt as it is afterwards, or
 * undefined for an unknown attempt.
 */
export async function setAttemptStatus(
  tx: Queryable,
  where: AttemptKey,
  status: DeliveryStatus,
  details: StatusDetails = {},
): Promise<AttemptChange | undefined> {
  const found = await findAttempt(tx, where);
  const attempt = found[0];
  if (!attempt) return undefined;
  const changed = (await setAttemptsStatus(tx, [attempt], status, details))[0];
  if (changed) return { ...changed, changed: true };
  const current = await tx.query<{ id: number; message_id: number; channel: AttemptChannel; status: DeliveryStatus }>(
    'SELECT id, message_id, channel, status FROM message_attempts WHERE id = $1',
    [attempt.id],
  );
  return current[0] ? { ...current[0], changed: false } : undefined;
}

/**
 * Moves each of `attempts` to `status` where that is forward, then their messages' own statuses, in one
 * statement each however many there are. Locks the messages first, in id order, then the attempts (the
 * lock order of every transaction that writes both), so batches that share messages never deadlock.
 * Answers the attempts that moved.
 */
export async function setAttemptsStatus(
  tx: Queryable,
  attempts: readonly { id: number; message_id: number }[],
  status: DeliveryStatus,
  details: StatusDetails = {},
): Promise<Omit<AttemptChange, 'changed'>[]> {
  if (attempts.length === 0) return [];
  await tx.query('SELECT id FROM messages WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE', [
    [...new Set(attempts.map((attempt) => attempt.message_id))],
  ]);
  const changed = await tx.query<{ id: number; message_id: number; channel: AttemptChannel; status: DeliveryStatus }>(
    `UPDATE message_attempts a SET
       status = $2,
       sent_at = CASE WHEN $2 IN ('sent', 'delivered', 'read') THEN COALESCE(a.sent_at, $3::timestamptz) ELSE a.sent_at END,
       delivered_at = CASE WHEN $2 IN ('delivered', 'read') THEN COALESCE(a.delivered_at, $3::timestamptz) ELSE a.delivered_at END,
       read_at = CASE WHEN $2 = 'read' THEN COALESCE(a.read_at, $3::timestamptz) ELSE a.read_at END,
       failed_at = CASE WHEN $2 = 'failed' THEN $3::timestamptz ELSE a.failed_at END,
       failure_reason = CASE WHEN $2 = 'failed' THEN $4 ELSE NULL END,
       error_code = CASE WHEN $2 = 'failed' THEN $5::int ELSE a.error_code END,
       waiting_reason = NULL,
       next_attempt_at = CASE WHEN $2 = 'queued' THEN a.next_attempt_at ELSE NULL END
      WHERE a.id = ANY($1::int[])
        AND (${rank('$2::text')} > ${rank('a.status')} OR ($2 = 'failed' AND a.status IN ('queued', 'sent')))
      RETURNING a.id, a.message_id, a.channel, a.status`,
    [
      attempts.map((attempt) => attempt.id),
      status,
      (details.at ?? new Date()).toISOString(),
      details.failureReason ?? null,
      details.errorCode ?? null,
    ],
  );
  await refreshMessageStatuses(
    tx,
    changed.map((attempt) => attempt.message_id),
  );
  return changed.sort((a, b) => a.id - b.id);
}

/**
 * Each message's status from its attempts and from the parent opening it in the app: read > delivered >
 * sent > queued, failed only when every attempt failed. Never lowered: a message already sent stays sent
 * while another attempt is queued, and failed is reached only from queued or sent. `message_type` becomes
 * the channel of the attempt that raised it. The caller holds the messages' row locks.
 */
export async function refreshMessageStatuses(tx: Queryable, messageIds: readonly number[]): Promise<void> {
  if (messageIds.length === 0) return;
  await tx.query(
    `UPDATE messages m SET
       delivery_status = best.status,
       message_type = best.type,
       delivered_at = CASE WHEN best.status IN ('delivered', 'read')
                           THEN COALESCE(m.delivered_at, best.reached_at, now()) ELSE m.delivered_at END,
       failure_reason = CASE WHEN best.status = 'failed' THEN (
         SELECT CASE WHEN count(*) = 1 THEN max(a.failure_reason) ELSE string_agg(
                  CASE a.channel WHEN 'push' THEN 'Parent app: ' ELSE 'WhatsApp: ' END || a.failure_reason,
                  ' ' ORDER BY a.id) END
           FROM message_attempts a WHERE a.message_id = m.id AND a.status = 'failed'
       ) ELSE NULL END
      FROM (SELECT DISTINCT id FROM unnest($1::int[]) AS u(id)) target
      CROSS JOIN LATERAL (
        SELECT c.status, c.type, c.reached_at FROM (
          SELECT a.status, CASE a.channel WHEN 'whatsapp' THEN 'WHATSAPP' ELSE 'IN_APP' END AS type,
                 COALESCE(a.delivered_at, a.read_at) AS reached_at,
                 COALESCE(a.read_at, a.delivered_at, a.sent_at, a.failed_at, a.created_at) AS at
            FROM message_attempts a WHERE a.message_id = target.id
          UNION ALL
          SELECT 'read', 'IN_APP', o.read_at, o.read_at FROM messages o WHERE o.id = target.id AND o.read_at IS NOT NULL
        ) c
        ORDER BY ${priority('c.status')} DESC, c.at ASC
        LIMIT 1
      ) best
     WHERE m.id = target.id
       AND (${priority('best.status')} > ${priority('m.delivery_status')}
            OR (best.status = 'failed' AND m.delivery_status IN ('queued', 'sent')))`,
    [[...messageIds]],
  );
}

/**
 * The family was reached (a push receipt, an opening in the app): a WhatsApp attempt still waiting as
 * the fallback is not needed. One already claimed by a sender (tries > 0) is left to finish.
 */
export async function cancelWaitingFallback(tx: Queryable, messageId: number): Promise<void> {
  await tx.query(
    `DELETE FROM message_attempts
      WHERE message_id = $1 AND channel = 'whatsapp' AND status = 'queued' AND tries = 0`,
    [messageId],
  );
}

/** The push was given up: the WhatsApp fallback, if the family has one, need not wait any longer. */
export async function hastenFallback(tx: Queryable, messageId: number): Promise<void> {
  await tx.query(
    `UPDATE message_attempts SET next_attempt_at = now(), waiting_reason = NULL
      WHERE message_id = $1 AND channel = 'whatsapp' AND status = 'queued' AND tries = 0 AND next_attempt_at > now()`,
    [messageId],
  );
}
