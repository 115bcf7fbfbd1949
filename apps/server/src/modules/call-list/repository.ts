import type { MessageKind, MessageReach, ParentLanguage } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../lib/activity-log';
import { feeReminderPaidSql } from '../delivery';

/** Most rows the list answers; the office works through it from the top (a count says how many wait). */
export const CALL_LIST_LIMIT = 500;

/** How far back the list looks: a family not reached last month is no longer a call to make. */
export const CALL_LIST_DAYS = 7;

/**
 * Where message `m` stands with its family: THE definition of reached and not reached (migration
 * 0029's `message_reach`), with `$1` the time before which a message still unproven was not reached.
 * The list, the history, the analytics and the dashboard all read it (ADR 044).
 */
export const REACH = 'message_reach(m.delivery_status, m.sent_by_hand_at, m.sent_at, $1::timestamptz)';

/**
 * A message of the last CALL_LIST_DAYS days on the list: its family asked for a call, or nothing
 * reached it (not reached, or already sent by hand: it stays, ticked, for the week). Notices and
 * alerts, and fee reminders unless the family owes nothing now (ADR 061: never nag a payer).
 */
const ON_LIST = `(m.kind IN ('notice', 'absence_alert', 'late_alert')
    OR (m.kind = 'fee_reminder' AND (m.call_requested_at IS NOT NULL OR NOT ${feeReminderPaidSql('m.id')})))
  AND m.sent_at >= $1::timestamptz - interval '${CALL_LIST_DAYS} days'
  AND (m.call_requested_at IS NOT NULL OR ${REACH} IN ('not_reached', 'sent_by_hand'))`;

/** Still to do: a call asked for and not made, or a family nothing reached and not sent by hand. */
const TO_DO = `((m.call_requested_at IS NOT NULL AND m.called_at IS NULL)
  OR (m.call_requested_at IS NULL AND ${REACH} = 'not_reached'))`;

/**
 * Messages sent before this and still not reached need a call: `minutes` ago, to the minute (a
 * message counts up to a minute late), so that the reads of one minute ask the same question and
 * share one answer (the dashboard's is kept for the minute).
 */
export function notReachedBefore(minutes: number, now = Date.now()): string {
  return new Date(Math.floor((now - minutes * 60_000) / 60_000) * 60_000).toISOString();
}

/** A row of the list as stored; the service adds the text and the links. */
export interface ListRow {
  message_id: number;
  phone: string;
  recipient_name: string | null;
  subject: string;
  message: string;
  kind: MessageKind;
  sent_at: string;
  reason: 'not_reached' | 'call_requested';
  delivery_status: 'queued' | 'sent' | 'delivered' | 'read' | 'failed';
  failure_reason: string | null;
  called_at: string | null;
  called_by: string | null;
  reach: MessageReach;
  students: string;
  language: ParentLanguage;
  sent_by_hand_at: string | null;
  sent_by_hand_by: string | null;
}

export async function listSendList(db: Queryable, notReachedMinutes: number): Promise<ListRow[]> {
  return db.query<ListRow>(
    `SELECT m.id AS message_id, m.recipient AS phone, m.recipient_name, m.subject, m.message, m.kind, m.sent_at,
            CASE WHEN m.call_requested_at IS NOT NULL THEN 'call_requested' ELSE 'not_reached' END AS reason,
            m.delivery_status, m.failure_reason, m.called_at, m.called_by, ${REACH} AS reach, m.language,
            m.sent_by_hand_at, m.sent_by_hand_by,
            COALESCE((SELECT string_agg(s.full_name, ', ' ORDER BY lower(s.full_name), s.id) FROM students s
                       WHERE s.parent_phone = m.recipient AND s.left_on IS NULL), '') AS students
       FROM messages m
      WHERE ${ON_LIST}
        AND (m.called_at IS NULL OR m.called_at > now() - interval '7 days')
      ORDER BY ${TO_DO} DESC, (m.call_requested_at IS NOT NULL) DESC, m.sent_at DESC, m.id DESC
      LIMIT $2`,
    [notReachedBefore(notReachedMinutes), CALL_LIST_LIMIT],
  );
}

/**
 * Families (distinct phones) with something still to do, and families a message of the last week did
 * not reach (by the shared definition: the dashboard's and the analytics' count).
 */
export async function countFamiliesToDo(
  db: Queryable,
  notReachedMinutes: number,
): Promise<{ to_do: number; not_reached: number }> {
  const rows = await db.queryCached<{ to_do: number; not_reached: number }>(
    `SELECT count(DISTINCT m.recipient) FILTER (WHERE ${TO_DO})::int AS to_do,
            count(DISTINCT m.recipient) FILTER (WHERE ${REACH} = 'not_reached')::int AS not_reached
       FROM messages m WHERE ${ON_LIST}`,
    [notReachedBefore(notReachedMinutes)],
  );
  return rows[0] ?? { to_do: 0, not_reached: 0 };
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
      WHERE m.id = $2 AND ${ON_LIST}
      RETURNING m.recipient, m.recipient_name, m.subject`,
    [notReachedBefore(notReachedMinutes), messageId, calledBy],
  );
  return rows[0];
}

/**
 * Marks one message on the list sent by hand, once: who and when, never cleared. Locks the row, so of
 * two staff ticking it at once one sets it (`changed`) and the other finds it set. Undefined when the
 * message is not on the list, or a channel reached the family meanwhile and it was never sent by hand.
 */
export async function markSentByHand(
  tx: Queryable,
  messageId: number,
  notReachedMinutes: number,
  by: Actor,
): Promise<{ changed: boolean; recipient: string; recipient_name: string | null; subject: string } | undefined> {
  const before = notReachedBefore(notReachedMinutes);
  const found = await tx.query<{ recipient: string; recipient_name: string | null; subject: string; reach: string }>(
    `SELECT m.recipient, m.recipient_name, m.subject, ${REACH} AS reach
       FROM messages m WHERE m.id = $2 AND ${ON_LIST} FOR UPDATE`,
    [before, messageId],
  );
  const row = found[0];
  if (!row) return undefined;
  if (row.reach === 'sent_by_hand') return { changed: false, ...row };
  if (row.reach !== 'not_reached') return undefined;
  await tx.query(
    `UPDATE messages SET sent_by_hand_at = now(), sent_by_hand_by = $2, sent_by_hand_by_user_id = $3
      WHERE id = $1 AND sent_by_hand_at IS NULL`,
    [messageId, by.full_name, by.id],
  );
  return { changed: true, recipient: row.recipient, recipient_name: row.recipient_name, subject: row.subject };
}
