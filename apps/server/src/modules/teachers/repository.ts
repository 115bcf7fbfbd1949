import type { Teacher } from '@tuitiondesk/contract';
import { jsonTimestamp, type Queryable } from '../../db/database';

/** With whether the teacher's account signs in with an authenticator (an admin can reset it: a lost phone). */
const COLUMNS = `t.id, t.unique_id, t.user_id, u.username, t.full_name, t.first_name, t.last_name, t.email, t.phone_number,
  t.subjects, t.classes_assigned, t.qualification, t.experience_years, t.address, t.emergency_contact,
  EXISTS (SELECT 1 FROM user_two_factor f WHERE f.user_id = t.user_id AND f.confirmed_at IS NOT NULL)
    AS two_factor_enabled,
  t.created_at, t.updated_at`;
const FROM = 'teachers t LEFT JOIN users u ON u.id = t.user_id';

export interface TeacherFields {
  first_name: string;
  last_name: string;
  email: string | null;
  phone_number: string;
  subjects: string[];
  classes_assigned: string[];
  qualification: string;
  experience_years: number;
  address: string;
  emergency_contact: string;
}

const JSON_COLUMNS = COLUMNS.replace(
  't.created_at, t.updated_at',
  `${jsonTimestamp('t.created_at')} AS created_at,
  ${jsonTimestamp('t.updated_at')} AS updated_at`,
);

/** Every teacher, oldest first, as the JSON text of a Teacher array. */
export function teachersJson(db: Queryable): Promise<string> {
  return db.queryJson(`SELECT ${JSON_COLUMNS} FROM ${FROM} ORDER BY t.id`);
}

export async function findTeacher(db: Queryable, id: number, forUpdate = false): Promise<Teacher | undefined> {
  const rows = await db.query<Teacher>(
    `SELECT ${COLUMNS} FROM ${FROM} WHERE t.id = $1${forUpdate ? ' FOR UPDATE OF t' : ''}`,
    [id],
  );
  return rows[0];
}

export async function findTeachersByIds(db: Queryable, ids: number[]): Promise<Teacher[]> {
  return db.query<Teacher>(`SELECT ${COLUMNS} FROM ${FROM} WHERE t.id = ANY($1::int[]) ORDER BY t.id`, [ids]);
}

/** The teachers (other than `exceptId`) that already use one of these emails, compared without case. */
export async function findEmailsInUse(
  db: Queryable,
  emails: string[],
  exceptId?: number,
): Promise<{ email: string; unique_id: string; full_name: string }[]> {
  if (emails.length === 0) return [];
  return db.query(
    `SELECT lower(email) AS email, unique_id, full_name FROM teachers
      WHERE lower(email) = ANY($1::text[]) AND ($2::int IS NULL OR id <> $2)`,
    [emails.map((e) => e.toLowerCase()), exceptId ?? null],
  );
}

/** Inserts the teachers in one statement, in order; answers their ids and codes. */
export async function insertTeachers(
  db: Queryable,
  teachers: TeacherFields[],
): Promise<{ id: number; unique_id: string; full_name: string }[]> {
  if (teachers.length === 0) return [];
  // Arrays of arrays do not travel through unnest, so lists go as JSON text and are unpacked per row.
  return db.query(
    `INSERT INTO teachers (first_name, last_name, full_name, email, phone_number, subjects, classes_assigned,
                           qualification, experience_years, address, emergency_contact)
     SELECT f, l, f || ' ' || l, e, p,
            ARRAY(SELECT jsonb_array_elements_text(s::jsonb)), ARRAY(SELECT jsonb_array_elements_text(c::jsonb)),
            q, x, a, ec
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                   $8::int[], $9::text[], $10::text[]) WITH ORDINALITY AS r(f, l, e, p, s, c, q, x, a, ec, n)
      ORDER BY n
     RETURNING id, unique_id, full_name`,
    [
      teachers.map((t) => t.first_name),
      teachers.map((t) => t.last_name),
      teachers.map((t) => t.email),
      teachers.map((t) => t.phone_number),
      teachers.map((t) => JSON.stringify(t.subjects)),
      teachers.map((t) => JSON.stringify(t.classes_assigned)),
      teachers.map((t) => t.qualification),
      teachers.map((t) => t.experience_years),
      teachers.map((t) => t.address),
      teachers.map((t) => t.emergency_contact),
    ],
  );
}

/** One sign-in account per teacher (username = the teacher's code), linked back to the teacher. */
export async function insertTeacherAccounts(
  db: Queryable,
  accounts: { teacher_id: number; username: string; full_name: string; password_hash: string }[],
): Promise<void> {
  if (accounts.length === 0) return;
  await db.query(
    `WITH created AS (
       INSERT INTO users (username, full_name, role, password_hash, must_change_password)
       SELECT username, full_name, 'teacher', password_hash, true
         FROM unnest($2::text[], $3::text[], $4::text[]) AS a(username, full_name, password_hash)
       RETURNING id, username
     )
     UPDATE teachers t SET user_id = created.id
       FROM created JOIN unnest($1::int[], $2::text[]) AS a(teacher_id, username) ON a.username = created.username
      WHERE t.id = a.teacher_id`,
    [
      accounts.map((a) => a.teacher_id),
      accounts.map((a) => a.username),
      accounts.map((a) => a.full_name),
      accounts.map((a) => a.password_hash),
    ],
  );
}

export async function updateTeacher(db: Queryable, id: number, fields: TeacherFields): Promise<void> {
  await db.query(
    `UPDATE teachers SET first_name = $2, last_name = $3, full_name = $2 || ' ' || $3, email = $4, phone_number = $5,
            subjects = $6::text[], classes_assigned = $7::text[], qualification = $8, experience_years = $9,
            address = $10, emergency_contact = $11, updated_at = now()
      WHERE id = $1`,
    [
      id,
      fields.first_name,
      fields.last_name,
      fields.email,
      fields.phone_number,
      fields.subjects,
      fields.classes_assigned,
      fields.qualification,
      fields.experience_years,
      fields.address,
      fields.emergency_contact,
    ],
  );
  await db.query(
    `UPDATE users u SET full_name = t.full_name, updated_at = now() FROM teachers t
      WHERE t.id = $1 AND u.id = t.user_id AND u.full_name <> t.full_name`,
    [id],
  );
}

export async function findExistingTeacherIds(db: Queryable, ids: number[]): Promise<number[]> {
  const rows = await db.query<{ id: number }>('SELECT id FROM teachers WHERE id = ANY($1::int[]) FOR UPDATE', [ids]);
  return rows.map((row) => row.id);
}

/**
 * Deletes teachers (all when `ids` is undefined) with their attendance and their sign-in accounts.
 * Answers how many teachers and accounts went.
 */
export async function deleteTeachers(
  db: Queryable,
  ids?: number[],
): Promise<{ teachers: { id: number; unique_id: string; full_name: string }[]; users: number }> {
  const teachers = await db.query<{ id: number; unique_id: string; full_name: string; user_id: number | null }>(
    `DELETE FROM teachers WHERE $1::int[] IS NULL OR id = ANY($1::int[])
     RETURNING id, unique_id, full_name, user_id`,
    [ids ?? null],
  );
  const userIds = teachers.flatMap((t) => (t.user_id === null ? [] : [t.user_id]));
  const users =
    userIds.length === 0
      ? []
      : await db.query("DELETE FROM users WHERE id = ANY($1::int[]) AND role = 'teacher' RETURNING id", [userIds]);
  return {
    teachers: teachers.map(({ id, unique_id, full_name }) => ({ id, unique_id, full_name })),
    users: users.length,
  };
}
