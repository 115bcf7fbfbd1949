import type {
  AttendanceStatus,
  DeliveryStatus,
  ParentChild,
  ParentLanguage,
  ParentMessage,
} from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../lib/activity-log';
import { cancelWaitingFallback, refreshMessageStatuses, setAttemptStatus } from '../messages/attempts';

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
  left_on: string | null;
}

/** `lock`: FOR UPDATE, so an edit of the student's phone waits for (or is waited on by) the caller. */
export async function findStudentForAccess(
  db: Queryable,
  id: number,
  lock = false,
): Promise<AccessStudent | undefined> {
  const rows = await db.query<AccessStudent>(
    `SELECT id, full_name, parent_name, parent_phone, to_char(left_on, 'YYYY-MM-DD') AS left_on
       FROM students WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0];
}

const CHILD_COLUMNS = 's.id, s.unique_id, s.full_name, s.class_name';

/** Every student with this parent phone who still attends (not those who left), by name. */
export async function findChildren(db: Queryable, phone: string): Promise<ParentChild[]> {
  return db.query<ParentChild>(
    `SELECT ${CHILD_COLUMNS} FROM students s WHERE s.parent_phone = $1 AND s.left_on IS NULL
      ORDER BY lower(s.full_name), s.id`,
    [phone],
  );
}

/**
 * One of this phone's children, or undefined when the student is someone else's, left the centre, or
 * does not exist.
 */
export async function findChild(db: Queryable, phone: string, studentId: number): Promise<ParentChild | undefined> {
  const rows = await db.query<ParentChild>(
    `SELECT ${CHILD_COLUMNS} FROM students s WHERE s.id = $1 AND s.parent_phone = $2 AND s.left_on IS NULL`,
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
/**
 * A notice in the server's own words to one family, in the parent app only (in-app, with its push):
 * `access_notice` when its app access changed, `leave_notice` when the centre decided its leave request
 * (about one child, `studentId`).
 */
export async function insertFamilyNotice(
  tx: Queryable,
  notice: {
    kind: 'access_notice' | 'leave_notice';
    phone: string;
    recipientName: string;
    subject: string;
    message: string;
    language: ParentLanguage;
    sender: Actor;
    studentId?: number;
  },
): Promise<number> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO messages
       (message_type, kind, subject, message, recipient, recipient_name, sent_by, sent_by_user_id, delivery_status,
        language, student_id)
     VALUES ('IN_APP', $1, $2, $3, $4, $5, $6, $7, 'sent', $8, $9)
     RETURNING id`,
    [
      notice.kind,
      notice.subject,
      notice.message,
      notice.phone,
      notice.recipientName,
      notice.sender.full_name,
      notice.sender.id,
      notice.language,
      notice.studentId ?? null,
    ],
  );
  return (rows[0] as { id: number }).id;
}

export async function recordSignIn(db: Queryable, phone: string): Promise<void> {
  await db.query('UPDATE parent_access SET last_sign_in_at = now() WHERE phone = $1', [phone]);
}

// ---- The parent's inbox ----

/**
 * Every message to the family except one-off WhatsApp messages (those went to WhatsApp only). A notice or
 * alert that reached the family on WhatsApp is in the inbox as well.
 */
const INBOX_FILTER = "m.recipient = $1 AND m.kind <> 'whatsapp'";
const PARENT_MESSAGE_COLUMNS = `m.id, m.message_type, m.kind, m.subject, m.message, m.sent_at, m.sent_by, m.student_id,
  m.read_at, m.reply, (m.kind IN ('absence_alert', 'late_alert') AND m.reply IS NULL) AS can_reply`;

export async function listInbox(db: Queryable, phone: string, limit: number, offset: number): Promise<ParentMessage[]> {
  return db.query<ParentMessage>(
    `SELECT ${PARENT_MESSAGE_COLUMNS} FROM messages m
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
    `SELECT ${PARENT_MESSAGE_COLUMNS} FROM messages m WHERE m.id = $2 AND ${INBOX_FILTER}`,
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
 * parent app. The message becomes read, its push attempt too, and a WhatsApp fallback still waiting is
 * not needed. Undefined when the message is not the phone's.
 */
export async function markRead(tx: Queryable, phone: string, messageId: number): Promise<ParentMessage | undefined> {
  const opened = await tx.query<{ id: number }>(
    `UPDATE messages m SET read_at = COALESCE(m.read_at, now())
      WHERE m.id = $2 AND ${INBOX_FILTER}
      RETURNING m.id`,
    [phone, messageId],
  );
  if (opened.length === 0) return undefined;
  await setAttemptStatus(tx, { messageId, channel: 'push' }, 'read');
  await refreshMessageStatuses(tx, [messageId]);
  await cancelWaitingFallback(tx, messageId);
  return findInboxMessage(tx, phone, messageId);
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
  // A valid receipt proves a push reached a device, even for a message whose push attempt is not on record.
  await tx.query(
    `INSERT INTO message_attempts (message_id, channel, status, sent_at) VALUES ($1, 'push', 'sent', now())
     ON CONFLICT (message_id, channel) DO NOTHING`,
    [messageId],
  );
  await setAttemptStatus(tx, { messageId, channel: 'push' }, 'delivered');
  await cancelWaitingFallback(tx, messageId);
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
