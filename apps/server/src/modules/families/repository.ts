import type { AttendanceStatus, ParentChild, ParentLanguage } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../lib/activity-log';
import type { FamilyChannels } from '../delivery';

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

// ---- The families a message reaches, with their channels ----

const FAMILY_CHANNELS = `
  bool_and(s.parent_whatsapp_opt_in) AS opted_in,
  (array_agg(s.parent_language ORDER BY s.id))[1] AS language,
  EXISTS (SELECT 1 FROM push_subscriptions p WHERE p.phone = s.parent_phone AND p.revoked_at IS NULL) AS has_device,
  EXISTS (SELECT 1 FROM parent_access pa WHERE pa.phone = s.parent_phone AND pa.last_sign_in_at IS NOT NULL) AS has_inbox`;

/**
 * The language a family reads (the one phone's records agree; if ever not, the first record's, as
 * every send reads it), or English for a phone with no student.
 */
export async function findFamilyLanguage(db: Queryable, phone: string): Promise<ParentLanguage> {
  const rows = await db.query<{ language: ParentLanguage }>(
    'SELECT parent_language AS language FROM students WHERE parent_phone = $1 ORDER BY id LIMIT 1',
    [phone],
  );
  return rows[0]?.language ?? 'en';
}

/**
 * The students whose families a notice to `$1` goes to: those of the class (every class when null)
 * who have not left (ADR 027). Sending and counting before sending read this one selection, so the
 * count shown in the send dialog is the number of families the send writes to.
 */
const NOTICE_STUDENTS = `FROM students s WHERE ($1::text IS NULL OR s.class_name = $1::text) AND s.left_on IS NULL`;

/** One family per distinct parent phone among the students of `className` (every class when null). */
export async function findFamilies(db: Queryable, className: string | null): Promise<FamilyChannels[]> {
  return db.query<FamilyChannels>(
    `SELECT s.parent_phone AS phone,
            COALESCE((array_agg(btrim(s.parent_name) ORDER BY s.id) FILTER (WHERE btrim(s.parent_name) <> ''))[1],
                     'Parent of ' || string_agg(s.full_name, ', ' ORDER BY s.full_name, s.id)) AS recipient_name,
            ${FAMILY_CHANNELS}
       ${NOTICE_STUDENTS}
      GROUP BY s.parent_phone
      ORDER BY s.parent_phone`,
    [className],
  );
}

/** One family's channels by its phone, students who left included (a fee receipt still reaches them); undefined for no such phone. */
export async function findFamilyChannels(db: Queryable, phone: string): Promise<FamilyChannels | undefined> {
  const rows = await db.query<FamilyChannels>(
    `SELECT s.parent_phone AS phone,
            COALESCE((array_agg(btrim(s.parent_name) ORDER BY s.id) FILTER (WHERE btrim(s.parent_name) <> ''))[1],
                     'Parent of ' || string_agg(s.full_name, ', ' ORDER BY s.full_name, s.id)) AS recipient_name,
            ${FAMILY_CHANNELS}
       FROM students s WHERE s.parent_phone = $1
      GROUP BY s.parent_phone`,
    [phone],
  );
  return rows[0];
}

/** How many families `findFamilies` finds for `className`, without building them. */
export async function countFamilies(db: Queryable, className: string | null): Promise<number> {
  const rows = await db.queryCached<{ families: number }>(
    `SELECT count(DISTINCT s.parent_phone)::int AS families ${NOTICE_STUDENTS}`,
    [className],
  );
  return rows[0]?.families ?? 0;
}

/** An approved absent or late record an alert is about, with its family's channels. */
export interface AlertSubject extends FamilyChannels {
  attendance_id: number;
  student_id: number;
  student_name: string;
  class_name: string;
  date: string;
  status: AttendanceStatus;
  remarks: string | null;
}

/** The records among `attendanceIds` whose status is one of `statuses`, by date then name. */
export async function findAlertSubjects(
  db: Queryable,
  attendanceIds: readonly number[],
  statuses: readonly string[],
): Promise<AlertSubject[]> {
  return db.query<AlertSubject>(
    `SELECT a.id AS attendance_id, a.student_id, st.full_name AS student_name, a.class_name,
            to_char(a.date, 'YYYY-MM-DD') AS date, a.status, a.remarks,
            st.parent_phone AS phone,
            COALESCE(NULLIF(btrim(st.parent_name), ''), 'Parent of ' || st.full_name) AS recipient_name,
            f.opted_in, f.language, f.has_device
       FROM attendance a
       JOIN students st ON st.id = a.student_id
       JOIN LATERAL (
         SELECT ${FAMILY_CHANNELS} FROM students s WHERE s.parent_phone = st.parent_phone GROUP BY s.parent_phone
       ) f ON true
      WHERE a.id = ANY($1::int[]) AND a.status = ANY($2::text[])
        -- A student who left is no longer written about, even for a day before they left.
        AND st.left_on IS NULL
      ORDER BY a.date, lower(st.full_name), a.id`,
    [[...attendanceIds], [...statuses]],
  );
}
