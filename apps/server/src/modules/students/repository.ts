import type { Student } from '@tuitiondesk/contract';
import { jsonTimestamp, type Queryable } from '../../db/database';

const COLUMNS = `id, unique_id, full_name, class_name, parent_name, parent_phone, parent_whatsapp_opt_in, parent_language,
  parent_whatsapp_opt_in_changed_at, parent_whatsapp_opt_in_changed_by, created_at, updated_at`;

export interface StudentFields {
  full_name: string;
  class_name: string;
  parent_name: string;
  parent_phone: string;
}

const JSON_COLUMNS = `id, unique_id, full_name, class_name, parent_name, parent_phone, parent_whatsapp_opt_in,
  parent_language, ${jsonTimestamp('parent_whatsapp_opt_in_changed_at')} AS parent_whatsapp_opt_in_changed_at,
  parent_whatsapp_opt_in_changed_by,
  ${jsonTimestamp('created_at')} AS created_at, ${jsonTimestamp('updated_at')} AS updated_at`;

/** Every student (or one class's), oldest first, as the JSON text of a Student array. */
export function studentsJson(db: Queryable, className?: string): Promise<string> {
  return db.queryJson(`SELECT ${JSON_COLUMNS} FROM students WHERE ($1::text IS NULL OR class_name = $1) ORDER BY id`, [
    className ?? null,
  ]);
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

/** Students already on record with one of these (lower-cased name, phone) pairs. */
export async function findByNameAndPhone(
  db: Queryable,
  pairs: { full_name: string; parent_phone: string }[],
): Promise<{ key: string; unique_id: string }[]> {
  if (pairs.length === 0) return [];
  return db.query(
    `SELECT lower(s.full_name) || '|' || s.parent_phone AS key, min(s.unique_id) AS unique_id
       FROM students s
       JOIN unnest($1::text[], $2::text[]) AS p(name, phone) ON lower(s.full_name) = p.name AND s.parent_phone = p.phone
      GROUP BY 1`,
    [pairs.map((p) => p.full_name.toLowerCase()), pairs.map((p) => p.parent_phone)],
  );
}
