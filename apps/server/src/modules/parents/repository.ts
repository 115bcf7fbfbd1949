import type { AttendanceStatus, DeliveryStatus, ParentMessage } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { messageReached } from '../delivery';

// ---- The parent's inbox ----

/**
 * Every message to the family except one-off WhatsApp messages (those went to WhatsApp only). A notice or
 * alert that reached the family on WhatsApp is in the inbox as well.
 */
const INBOX_FILTER = "m.recipient = $1 AND m.kind <> 'whatsapp'";
const PARENT_MESSAGE_COLUMNS = `m.id, m.message_type, m.kind, m.subject, m.message, m.sent_at, m.sent_by, m.student_id,
  m.read_at, m.reply, (m.kind IN ('absence_alert', 'late_alert') AND m.reply IS NULL) AS can_reply,
  fa.fee_answer, (m.kind = 'fee_reminder' AND fa.fee_answer IS NULL) AS can_fee_reply`;
/** A fee reminder's answer (ADR 061), null for any other message or before the family answered. */
const FEE_ANSWER_JOIN = `LEFT JOIN LATERAL (
  SELECT json_build_object('reply', a.reply, 'reference', a.reference,
                           'date', to_char(a.promised_on, 'YYYY-MM-DD'), 'at', a.answered_at) AS fee_answer
    FROM fee_reminder_answers a WHERE a.message_id = m.id) fa ON true`;

export async function listInbox(db: Queryable, phone: string, limit: number, offset: number): Promise<ParentMessage[]> {
  return db.query<ParentMessage>(
    `SELECT ${PARENT_MESSAGE_COLUMNS} FROM messages m ${FEE_ANSWER_JOIN}
      WHERE ${INBOX_FILTER}
      ORDER BY m.sent_at DESC, m.id DESC
      LIMIT $2 OFFSET $3`,
    [phone, limit, offset],
  );
}

export async function findInboxMessage(
  db: Queryable,
  phone: string,
  messageId: number,
): Promise<ParentMessage | undefined> {
  const rows = await db.query<ParentMessage>(
    `SELECT ${PARENT_MESSAGE_COLUMNS} FROM messages m ${FEE_ANSWER_JOIN} WHERE m.id = $2 AND ${INBOX_FILTER}`,
    [phone, messageId],
  );
  return rows[0];
}

export async function countUnread(db: Queryable, phone: string): Promise<number> {
  const rows = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM messages m WHERE ${INBOX_FILTER} AND m.read_at IS NULL`,
    [phone],
  );
  return rows[0]?.count ?? 0;
}

/**
 * Marks one of the phone's messages read (the first time only): opening it proves it arrived, on the
 * parent app. The message becomes read, its push attempt too, a WhatsApp fallback still waiting is not
 * needed, and its pushes still queued are dropped. Undefined when the message is not the phone's.
 */
export async function markRead(tx: Queryable, phone: string, messageId: number): Promise<ParentMessage | undefined> {
  const opened = await tx.query<{ id: number }>(
    `UPDATE messages m SET read_at = COALESCE(m.read_at, now())
      WHERE m.id = $2 AND ${INBOX_FILTER}
      RETURNING m.id`,
    [phone, messageId],
  );
  if (opened.length === 0) return undefined;
  await messageReached(tx, messageId, 'opened_in_app');
  return findInboxMessage(tx, phone, messageId);
}

/**
 * The parent app's inbox showed these messages: each of the phone's (in its inbox) not yet delivered or
 * read becomes delivered, its app attempt with it, whatever the push did, and a WhatsApp fallback still
 * waiting is not needed (ADR 044). Locks the messages in id order. Answers how many moved.
 */
export async function markShown(tx: Queryable, phone: string, messageIds: readonly number[]): Promise<number> {
  const shown = await tx.query<{ id: number }>(
    `SELECT m.id FROM messages m
      WHERE m.id = ANY($2::int[]) AND ${INBOX_FILTER} AND m.delivery_status NOT IN ('delivered', 'read')
      ORDER BY m.id FOR UPDATE`,
    [phone, [...new Set(messageIds)]],
  );
  for (const { id } of shown) await messageReached(tx, id, 'shown_in_app');
  return shown.length;
}

/**
 * A push receipt: the device got the message. Its push attempt becomes delivered (a read one stays
 * read), the message with it, and a WhatsApp fallback still waiting is not needed. Answers the
 * message's status afterwards, or undefined for no such message.
 */
export async function markDelivered(
  tx: Queryable,
  messageId: number,
): Promise<{ id: number; delivery_status: DeliveryStatus } | undefined> {
  const locked = await tx.query('SELECT id FROM messages WHERE id = $1 FOR UPDATE', [messageId]);
  if (locked.length === 0) return undefined;
  await messageReached(tx, messageId, 'push_receipt');
  const rows = await tx.query<{ id: number; delivery_status: DeliveryStatus }>(
    'SELECT id, delivery_status FROM messages WHERE id = $1',
    [messageId],
  );
  return rows[0];
}

// ---- A child's attendance ----

export interface ChildDay {
  date: string;
  status: AttendanceStatus;
  remarks: string | null;
}

/** Approved records only: a pending one may still change. Newest first. */
export async function findApprovedAttendance(
  db: Queryable,
  studentId: number,
  from: string,
  to: string,
): Promise<ChildDay[]> {
  return db.query<ChildDay>(
    `SELECT a.date, a.status, a.remarks FROM attendance a
      WHERE a.student_id = $1 AND a.approved_at IS NOT NULL AND a.date BETWEEN $2::date AND $3::date
      ORDER BY a.date DESC`,
    [studentId, from, to],
  );
}
