import {
  ACCESS_NOTICE_TYPE,
  type AttendanceStatus,
  type DeliveryStatus,
  type ParentChild,
  type ParentMessage,
} from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../lib/activity-log';

export interface ParentAccessRow {
  phone: string;
  code_hash: string;
  token_version: number;
  issued_by: string;
  issued_at: string;
  last_sign_in_at: string | null;
}

export async function findParentAccess(db: Queryable, phone: string): Promise<ParentAccessRow | undefined> {
  const rows = await db.query<ParentAccessRow>(
    `SELECT phone, code_hash, token_version, issued_by, issued_at, last_sign_in_at
       FROM parent_access WHERE phone = $1`,
    [phone],
  );
  return rows[0];
}

export interface AccessStudent {
  id: number;
  full_name: string;
  parent_name: string;
  parent_phone: string;
}

/** `lock`: FOR UPDATE, so an edit of the student's phone waits for (or is waited on by) the caller. */
export async function findStudentForAccess(
  db: Queryable,
  id: number,
  lock = false,
): Promise<AccessStudent | undefined> {
  const rows = await db.query<AccessStudent>(
    `SELECT id, full_name, parent_name, parent_phone FROM students WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0];
}

const CHILD_COLUMNS = 's.id, s.unique_id, s.full_name, s.class_name';

/** Every student with this parent phone, by name. */
export async function findChildren(db: Queryable, phone: string): Promise<ParentChild[]> {
  return db.query<ParentChild>(
    `SELECT ${CHILD_COLUMNS} FROM students s WHERE s.parent_phone = $1 ORDER BY lower(s.full_name), s.id`,
    [phone],
  );
}

/** One of this phone's children, or undefined when the student is someone else's (or does not exist). */
export async function findChild(db: Queryable, phone: string, studentId: number): Promise<ParentChild | undefined> {
  const rows = await db.query<ParentChild>(
    `SELECT ${CHILD_COLUMNS} FROM students s WHERE s.id = $1 AND s.parent_phone = $2`,
    [studentId, phone],
  );
  return rows[0];
}

/** The first non-empty parent name on record for the phone, else `Parent of` the children. */
export async function findParentName(db: Queryable, phone: string): Promise<string> {
  const rows = await db.query<{ name: string | null }>(
    `SELECT COALESCE(
              (array_agg(btrim(parent_name) ORDER BY id) FILTER (WHERE btrim(parent_name) <> ''))[1],
              'Parent of ' || string_agg(full_name, ', ' ORDER BY lower(full_name), id)
            ) AS name
       FROM students WHERE parent_phone = $1`,
    [phone],
  );
  return rows[0]?.name ?? 'Parent';
}

/** Devices that get the family's messages (not those a new code signed out, still to be told). */
export async function countPushSubscriptions(db: Queryable, phone: string): Promise<number> {
  const rows = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM push_subscriptions WHERE phone = $1 AND revoked_at IS NULL',
    [phone],
  );
  return rows[0]?.count ?? 0;
}

/**
 * Stores a new code hash for the phone. Issuing again bumps token_version, which ends every parent
 * token signed before, and clears last_sign_in_at (nobody has used the new code yet). Answers the
 * row; token_version 0 means this was the phone's first code.
 */
export async function upsertParentAccess(
  tx: Queryable,
  phone: string,
  codeHash: string,
  issuer: Actor,
): Promise<ParentAccessRow> {
  const rows = await tx.query<ParentAccessRow>(
    `INSERT INTO parent_access AS p (phone, code_hash, issued_by, issued_by_user_id, issued_at)
     VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (phone) DO UPDATE SET
       code_hash = EXCLUDED.code_hash,
       token_version = p.token_version + 1,
       issued_by = EXCLUDED.issued_by,
       issued_by_user_id = EXCLUDED.issued_by_user_id,
       issued_at = EXCLUDED.issued_at,
       last_sign_in_at = NULL
     RETURNING phone, code_hash, token_version, issued_by, issued_at, last_sign_in_at`,
    [phone, codeHash, issuer.full_name, issuer.id],
  );
  return rows[0] as ParentAccessRow;
}

/**
 * A phone's first code, only if it has none: nothing is written when a code exists (answers
 * undefined), so teachers issuing at once for one family leave exactly one code, and never replace it.
 */
export async function insertFirstParentAccess(
  tx: Queryable,
  phone: string,
  codeHash: string,
  issuer: Actor,
): Promise<ParentAccessRow | undefined> {
  const rows = await tx.query<ParentAccessRow>(
    `INSERT INTO parent_access (phone, code_hash, issued_by, issued_by_user_id, issued_at)
     VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (phone) DO NOTHING
     RETURNING phone, code_hash, token_version, issued_by, issued_at, last_sign_in_at`,
    [phone, codeHash, issuer.full_name, issuer.id],
  );
  return rows[0];
}

/** The access notice, as a message to the phone: the staff history and the family's inbox show it. */
export async function insertAccessNotice(
  tx: Queryable,
  notice: { phone: string; recipientName: string; subject: string; message: string; sender: Actor },
): Promise<number> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO messages
       (message_type, subject, message, recipient, recipient_name, sent_by, sent_by_user_id, delivery_status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'sent')
     RETURNING id`,
    [
      ACCESS_NOTICE_TYPE,
      notice.subject,
      notice.message,
      notice.phone,
      notice.recipientName,
      notice.sender.full_name,
      notice.sender.id,
    ],
  );
  return (rows[0] as { id: number }).id;
}

export async function recordSignIn(db: Queryable, phone: string): Promise<void> {
  await db.query('UPDATE parent_access SET last_sign_in_at = now() WHERE phone = $1', [phone]);
}

// ---- The parent's inbox ----

/** In-app messages only: a WhatsApp text went to the phone's WhatsApp, not to the parent app. */
const INBOX_FILTER = "m.recipient = $1 AND m.message_type <> 'WHATSAPP'";
const PARENT_MESSAGE_COLUMNS =
  'm.id, m.message_type, m.subject, m.message, m.sent_at, m.sent_by, m.student_id, m.read_at';

export async function listInbox(db: Queryable, phone: string, limit: number, offset: number): Promise<ParentMessage[]> {
  return db.query<ParentMessage>(
    `SELECT ${PARENT_MESSAGE_COLUMNS} FROM messages m
      WHERE ${INBOX_FILTER}
      ORDER BY m.sent_at DESC, m.id DESC
      LIMIT $2 OFFSET $3`,
    [phone, limit, offset],
  );
}

export async function countUnread(db: Queryable, phone: string): Promise<number> {
  const rows = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM messages m WHERE ${INBOX_FILTER} AND m.read_at IS NULL`,
    [phone],
  );
  return rows[0]?.count ?? 0;
}

/**
 * Marks one of the phone's messages read (the first time only) and delivered: opening it proves it
 * arrived. Undefined when the message is not the phone's.
 */
export async function markRead(tx: Queryable, phone: string, messageId: number): Promise<ParentMessage | undefined> {
  const rows = await tx.query<ParentMessage>(
    `UPDATE messages m SET
       read_at = COALESCE(m.read_at, now()),
       delivery_status = 'delivered',
       delivered_at = COALESCE(m.delivered_at, now()),
       failure_reason = NULL
      WHERE m.id = $2 AND ${INBOX_FILTER}
      RETURNING ${PARENT_MESSAGE_COLUMNS}`,
    [phone, messageId],
  );
  return rows[0];
}

/** A message that was read needs no more pushes. */
export async function deleteOutboxRows(tx: Queryable, messageId: number): Promise<void> {
  await tx.query('DELETE FROM push_outbox WHERE message_id = $1', [messageId]);
}

/**
 * A push receipt: the device got the message. Moves `sent` or `failed` to `delivered`; a message
 * already delivered stays as it is. Answers the status afterwards, or undefined for no such message.
 */
export async function markDelivered(
  db: Queryable,
  messageId: number,
): Promise<{ id: number; delivery_status: DeliveryStatus } | undefined> {
  const rows = await db.query<{ id: number; delivery_status: DeliveryStatus }>(
    `WITH updated AS (
       UPDATE messages SET delivery_status = 'delivered', delivered_at = COALESCE(delivered_at, now()),
              failure_reason = NULL
        WHERE id = $1 AND delivery_status IN ('sent', 'failed')
        RETURNING id, delivery_status
     )
     SELECT id, delivery_status FROM updated
     UNION ALL
     SELECT id, delivery_status FROM messages WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM updated)`,
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
