import type { CallListItem } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

/** Most rows the list answers; the office works through it from the top (a count says how many wait). */
export const CALL_LIST_LIMIT = 500;

/** How far back the list looks: a family not reached last month is no longer a call to make. */
export const CALL_LIST_DAYS = 7;

/**
 * A message of the last CALL_LIST_DAYS days to a family that needs a call: it asked for one, or no
 * channel reached it (failed, or not delivered or read when sent before `$1`, see notReachedBefore).
 * Notices and alerts only.
 */
const NEEDS_CALL = `m.kind IN ('notice', 'absence_alert', 'late_alert')
  AND m.sent_at >= $1::timestamptz - interval '${CALL_LIST_DAYS} days'
  AND (m.call_requested_at IS NOT NULL
       OR m.delivery_status = 'failed'
       OR (m.delivery_status IN ('queued', 'sent') AND m.sent_at < $1::timestamptz))`;

/**
 * Messages sent before this and still not reached need a call: `minutes` ago, to the minute (a
 * message counts up to a minute late), so that the reads of one minute ask the same question and
 * share one answer (the dashboard's is kept for the minute).
 */
export function notReachedBefore(minutes: number, now = Date.now()): string {
  return new Date(Math.floor((now - minutes * 60_000) / 60_000) * 60_000).toISOString();
}

export async function listCallList(db: Queryable, notReachedMinutes: number): Promise<CallListItem[]> {
  const before = notReachedBefore(notReachedMinutes);
  return db.query<CallListItem>(
    `SELECT m.id AS message_id, m.recipient AS phone, m.recipient_name, m.subject, m.kind, m.sent_at,
            CASE WHEN m.call_requested_at IS NOT NULL THEN 'call_requested' ELSE 'not_reached' END AS reason,
            m.delivery_status, m.failure_reason, m.called_at, m.called_by
       FROM messages m
      WHERE ${NEEDS_CALL}
        AND (m.called_at IS NULL OR m.called_at > now() - interval '7 days')
      ORDER BY (m.called_at IS NULL) DESC, (m.call_requested_at IS NOT NULL) DESC, m.sent_at DESC, m.id DESC
      LIMIT $2`,
    [before, CALL_LIST_LIMIT],
  );
}

/** Families (distinct phones) with a call still to make. */
export async function countFamiliesToCall(db: Queryable, notReachedMinutes: number): Promise<number> {
  const rows = await db.queryCached<{ count: number }>(
    `SELECT count(DISTINCT m.recipient)::int AS count FROM messages m WHERE m.called_at IS NULL AND ${NEEDS_CALL}`,
    [notReachedBefore(notReachedMinutes)],
  );
  return rows[0]?.count ?? 0;
}

/** Ticks (or unticks) one message on the list; undefined when it is not on the list. */
export async function markCalled(
  tx: Queryable,
  messageId: number,
  notReachedMinutes: number,
  calledBy: string | null,
): Promise<{ recipient: string; recipient_name: string | null; subject: string } | undefined> {
  const rows = await tx.query<{ recipient: string; recipient_name: string | null; subject: string }>(
    `UPDATE messages m SET called_at = CASE WHEN $3::text IS NULL THEN NULL ELSE now() END, called_by = $3
      WHERE m.id = $2 AND ${NEEDS_CALL}
      RETURNING m.recipient, m.recipient_name, m.subject`,
    [notReachedBefore(notReachedMinutes), messageId, calledBy],
  );
  return rows[0];
}
