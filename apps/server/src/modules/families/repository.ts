import type { ParentChild, ParentLanguage } from '@tuitiondesk/contract';
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
