import type { Student, StudentStatus } from '@tuitiondesk/contract';
import {
  SCRUB_LEFT_AFTER_MONTHS_DEFAULT,
  SCRUB_LEFT_AFTER_MONTHS_MAX,
  SCRUB_LEFT_AFTER_MONTHS_MIN,
} from '@tuitiondesk/contract';
import { jsonTimestamp, type Queryable } from '../../db/database';
import { defineSetting } from '../../db/settings';

const COLUMNS = `id, unique_id, full_name, class_name, parent_name, parent_phone, parent_whatsapp_opt_in, parent_language,
  parent_whatsapp_opt_in_changed_at, parent_whatsapp_opt_in_changed_by, to_char(left_on, 'YYYY-MM-DD') AS left_on,
  scrubbed_at, created_at, updated_at`;

export interface StudentFields {
  full_name: string;
  class_name: string;
  parent_name: string;
  parent_phone: string;
}

const JSON_COLUMNS = `id, unique_id, full_name, class_name, parent_name, parent_phone, parent_whatsapp_opt_in,
  parent_language, ${jsonTimestamp('parent_whatsapp_opt_in_changed_at')} AS parent_whatsapp_opt_in_changed_at,
  parent_whatsapp_opt_in_changed_by, to_char(left_on, 'YYYY-MM-DD') AS left_on,
  ${jsonTimestamp('scrubbed_at')} AS scrubbed_at,
  ${jsonTimestamp('created_at')} AS created_at, ${jsonTimestamp('updated_at')} AS updated_at`;

/** The students (or one class's) of a status, oldest first, as the JSON text of a Student array. */
export function studentsJson(db: Queryable, className: string | undefined, status: StudentStatus): Promise<string> {
  return db.queryJson(
    `SELECT ${JSON_COLUMNS} FROM students
      WHERE ($1::text IS NULL OR class_name = $1)
        AND CASE $2::text WHEN 'current' THEN left_on IS NULL WHEN 'left' THEN left_on IS NOT NULL ELSE true END
      ORDER BY id`,
    [className ?? null, status],
  );
}

export async function findStudent(db: Queryable, id: number): Promise<Student | undefined> {
  const rows = await db.query<Student>(`SELECT ${COLUMNS} FROM students WHERE id = $1`, [id]);
  return rows[0];
}

/** Locks the row for the rest of the transaction, so two edits of one student do not interleave. */
export async function findStudentForUpdate(db: Queryable, id: number): Promise<Student | undefined> {
  const rows = await db.query<Student>(`SELECT ${COLUMNS} FROM students WHERE id = $1 FOR UPDATE`, [id]);
  return rows[0];
}

/**
 * One statement for any number of students; the database assigns each its STU code in order. A student
 * joining a family already on record takes the family's WhatsApp consent and language (and who gave it).
 */
export async function insertStudents(db: Queryable, students: StudentFields[]): Promise<Student[]> {
  if (students.length === 0) return [];
  return db.query<Student>(
    `INSERT INTO students (full_name, class_name, parent_name, parent_phone, parent_whatsapp_opt_in, parent_language,
                           parent_whatsapp_opt_in_changed_at, parent_whatsapp_opt_in_changed_by)
     SELECT s.full_name, s.class_name, s.parent_name, s.parent_phone, COALESCE(f.opt_in, false),
            COALESCE(f.language, 'en'), f.changed_at, f.changed_by
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY
            AS s(full_name, class_name, parent_name, parent_phone, n)
       LEFT JOIN LATERAL (
         SELECT e.parent_whatsapp_opt_in AS opt_in, e.parent_language AS language,
                e.parent_whatsapp_opt_in_changed_at AS changed_at, e.parent_whatsapp_opt_in_changed_by AS changed_by
           FROM students e WHERE e.parent_phone = s.parent_phone ORDER BY e.id LIMIT 1
       ) f ON true
      ORDER BY s.n
     RETURNING ${COLUMNS}`,
    [
      students.map((s) => s.full_name),
      students.map((s) => s.class_name),
      students.map((s) => s.parent_name),
      students.map((s) => s.parent_phone),
    ],
  );
}

/**
 * A student moved to another family's phone takes that family's consent and language (the family is
 * the phone); on a phone of its own it keeps its own.
 */
export async function updateStudent(db: Queryable, id: number, fields: StudentFields): Promise<Student> {
  const rows = await db.query<Student>(
    `UPDATE students st SET full_name = $2, class_name = $3, parent_name = $4, parent_phone = $5, updated_at = now(),
            parent_whatsapp_opt_in = COALESCE(f.opt_in, st.parent_whatsapp_opt_in),
            parent_language = COALESCE(f.language, st.parent_language),
            parent_whatsapp_opt_in_changed_at = CASE WHEN f.opt_in IS NULL THEN st.parent_whatsapp_opt_in_changed_at
                                                     ELSE f.changed_at END,
            parent_whatsapp_opt_in_changed_by = CASE WHEN f.opt_in IS NULL THEN st.parent_whatsapp_opt_in_changed_by
                                                     ELSE f.changed_by END
       FROM (SELECT 1) AS one
       LEFT JOIN LATERAL (
         SELECT e.parent_whatsapp_opt_in AS opt_in, e.parent_language AS language,
                e.parent_whatsapp_opt_in_changed_at AS changed_at, e.parent_whatsapp_opt_in_changed_by AS changed_by
           FROM students e WHERE e.parent_phone = $5 AND e.id <> $1 ORDER BY e.id LIMIT 1
       ) f ON true
      WHERE st.id = $1 RETURNING ${COLUMNS}`,
    [id, fields.full_name, fields.class_name, fields.parent_name, fields.parent_phone],
  );
  return rows[0] as Student;
}

/** Deletes the listed students (their attendance goes with them) and answers who was deleted. */
export async function deleteStudents(
  db: Queryable,
  ids: number[],
): Promise<{ id: number; unique_id: string; full_name: string }[]> {
  return db.query('DELETE FROM students WHERE id = ANY($1::int[]) RETURNING id, unique_id, full_name', [ids]);
}

export async function findExistingIds(db: Queryable, ids: number[]): Promise<number[]> {
  const rows = await db.query<{ id: number }>('SELECT id FROM students WHERE id = ANY($1::int[]) FOR UPDATE', [ids]);
  return rows.map((row) => row.id);
}

export async function deleteAllStudents(db: Queryable): Promise<number> {
  const rows = await db.query<{ count: number }>(
    'WITH gone AS (DELETE FROM students RETURNING 1) SELECT count(*)::int AS count FROM gone',
  );
  return rows[0]?.count ?? 0;
}

/**
 * Students already on record with one of these (lower-cased name, phone) pairs: for each pair, the
 * first one still attending, else the first who left (with the day they left).
 */
export async function findByNameAndPhone(
  db: Queryable,
  pairs: { full_name: string; parent_phone: string }[],
): Promise<{ key: string; unique_id: string; left_on: string | null }[]> {
  if (pairs.length === 0) return [];
  return db.query(
    `SELECT DISTINCT ON (1) lower(s.full_name) || '|' || s.parent_phone AS key, s.unique_id,
            to_char(s.left_on, 'YYYY-MM-DD') AS left_on
       FROM students s
       JOIN unnest($1::text[], $2::text[]) AS p(name, phone) ON lower(s.full_name) = p.name AND s.parent_phone = p.phone
      ORDER BY 1, s.left_on IS NOT NULL, s.id`,
    [pairs.map((p) => p.full_name.toLowerCase()), pairs.map((p) => p.parent_phone)],
  );
}

/** Marks the student as having left on `leftOn` (null: restores them). */
export async function setLeftOn(db: Queryable, id: number, leftOn: string | null): Promise<Student> {
  const rows = await db.query<Student>(
    `UPDATE students SET left_on = $2::date, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, leftOn],
  );
  return rows[0] as Student;
}

/** Whether any student who has not left has this parent phone. */
export async function hasCurrentChild(db: Queryable, phone: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM students WHERE parent_phone = $1 AND left_on IS NULL LIMIT 1', [phone]);
  return rows.length > 0;
}

const SCRUB_LIMIT = 500;

/** Whether a student who left before `leftBefore` still has personal data (a cheap look before any lock). */
export async function hasStudentsToScrub(db: Queryable, leftBefore: string): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM students WHERE left_on IS NOT NULL AND scrubbed_at IS NULL AND left_on < $1::date LIMIT 1',
    [leftBefore],
  );
  return rows.length > 0;
}

/**
 * Removes the personal data of students who left before `leftBefore` and are not scrubbed yet, up to
 * SCRUB_LIMIT a call (oldest first): the name becomes `Former student STU0042`, the parent's name and
 * phone are emptied, the consent fields cleared. Rows another transaction holds are skipped (SKIP
 * LOCKED), so two instances running it at once each scrub different students and never wait on one
 * another; a student scrubbed already is never picked again. Their attendance rows stay as they are.
 * Answers the students scrubbed, with the phone, name and parent name each had (what the rest of
 * the scrub removes wherever else it was written).
 */
export async function scrubLeftStudents(
  db: Queryable,
  leftBefore: string,
): Promise<{ id: number; unique_id: string; phone: string; name: string; parent_name: string }[]> {
  return db.query(
    `WITH due AS (
       SELECT id, parent_phone, full_name, parent_name FROM students
        WHERE left_on IS NOT NULL AND scrubbed_at IS NULL AND left_on < $1::date
        ORDER BY id LIMIT ${SCRUB_LIMIT}
        FOR UPDATE SKIP LOCKED
     )
     UPDATE students s SET full_name = 'Former student ' || s.unique_id, parent_name = '', parent_phone = '',
            parent_whatsapp_opt_in = false, parent_whatsapp_opt_in_changed_at = NULL,
            parent_whatsapp_opt_in_changed_by = NULL, scrubbed_at = now(), updated_at = now()
       FROM due WHERE s.id = due.id
     RETURNING s.id, s.unique_id, due.parent_phone AS phone, due.full_name AS name, due.parent_name`,
    [leftBefore],
  );
}

/**
 * Of these phones, those no student still holds (every child of the family was scrubbed): the
 * family's access code and devices go, and the phone leaves the messages and leave requests kept.
 */
export async function forgetFamilies(db: Queryable, phones: string[]): Promise<string[]> {
  const rows = await db.query<{ phone: string }>(
    `SELECT p.phone FROM unnest($1::text[]) AS p(phone)
      WHERE NOT EXISTS (SELECT 1 FROM students s WHERE s.parent_phone = p.phone)
      ORDER BY p.phone`,
    [[...new Set(phones)]],
  );
  const gone = rows.map((row) => row.phone);
  if (gone.length === 0) return gone;
  // The devices go with the access (push_subscriptions cascade), their queued pushes with them.
  await db.query('DELETE FROM parent_access WHERE phone = ANY($1::text[])', [gone]);
  await db.query(
    `UPDATE messages SET recipient = '', recipient_name = 'Former family' WHERE recipient = ANY($1::text[])`,
    [gone],
  );
  await db.query(`DELETE FROM whatsapp_consent_log WHERE phone = ANY($1::text[])`, [gone]);
  return gone;
}

/** Leave requests of scrubbed students keep their dates and state, not the family's phone. */
export async function scrubLeaveRequests(db: Queryable, studentIds: number[]): Promise<void> {
  await db.query(`UPDATE leave_requests SET parent_phone = '' WHERE student_id = ANY($1::int[])`, [studentIds]);
}

/**
 * The months after leaving when a student is scrubbed (migration 0016 stores the default). `update`
 * holds the row, so two changes at once apply one after the other; a value edited by hand into
 * nonsense falls back to the default, never to "scrub at once".
 */
export const SCRUB_LEFT_AFTER_MONTHS = defineSetting({
  key: 'scrub_left_after_months',
  fallback: SCRUB_LEFT_AFTER_MONTHS_DEFAULT,
  bounds: { min: SCRUB_LEFT_AFTER_MONTHS_MIN, max: SCRUB_LEFT_AFTER_MONTHS_MAX },
});
