import type { TeacherAttendanceStatus } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../lib/activity-log';

export interface DayLock {
  date: string;
  locked_by: string;
  locked_at: string;
}

export interface TeacherDayRow {
  teacher_id: number;
  teacher_unique_id: string;
  teacher_name: string;
  phone_number: string;
  status: TeacherAttendanceStatus;
  remarks: string | null;
  check_in_time: string | null;
  check_out_time: string | null;
}

/**
 * Marks and remarks take the locks table in SHARE mode, the lock action in SHARE ROW EXCLUSIVE
 * mode: marks run side by side, but a lock waits for the marks in flight to commit and a mark waits
 * for a lock in flight, so no change slips in beside or after the lock of its day.
 */
export async function holdLocksForWriting(db: Queryable): Promise<void> {
  await db.query('LOCK TABLE teacher_attendance_locks IN SHARE MODE');
}

export async function holdLocksForLocking(db: Queryable): Promise<void> {
  await db.query('LOCK TABLE teacher_attendance_locks IN SHARE ROW EXCLUSIVE MODE');
}

export async function findDayLock(db: Queryable, date: string): Promise<DayLock | undefined> {
  const rows = await db.queryCached<DayLock>(
    'SELECT date, locked_by, locked_at FROM teacher_attendance_locks WHERE date = $1::date',
    [date],
  );
  return rows[0];
}

export async function insertDayLock(db: Queryable, date: string, locker: Actor) {
  await db.query(
    'INSERT INTO teacher_attendance_locks (date, locked_by, locked_by_user_id) VALUES ($1::date, $2, $3)',
    [date, locker.full_name, locker.id],
  );
}

export async function findTeacherDay(db: Queryable, date: string): Promise<readonly TeacherDayRow[]> {
  return db.queryCached<TeacherDayRow>(
    `SELECT t.id AS teacher_id, t.unique_id AS teacher_unique_id, t.full_name AS teacher_name, t.phone_number,
            COALESCE(ta.status, 'not_marked') AS status, ta.remarks, ta.check_in_time, ta.check_out_time
       FROM teachers t
       LEFT JOIN teacher_attendance ta ON ta.teacher_id = t.id AND ta.date = $1::date
      ORDER BY lower(t.full_name), t.id`,
    [date],
  );
}

/** The teachers among `ids` that exist, held (KEY SHARE) so none is deleted before the rows are written. */
export async function findTeachers(db: Queryable, ids: number[]): Promise<{ id: number; full_name: string }[]> {
  return db.query<{ id: number; full_name: string }>(
    'SELECT id, full_name FROM teachers WHERE id = ANY($1::int[]) FOR KEY SHARE',
    [ids],
  );
}

export interface TeacherMarkInput {
  teacher_id: number;
  status: TeacherAttendanceStatus;
  remarks: string | undefined;
  check_in_time: string | null;
  check_out_time: string | null;
}

/** One row per teacher and date; remarks and times left out (null) keep what was saved before. */
export async function upsertTeacherAttendance(
  db: Queryable,
  date: string,
  records: TeacherMarkInput[],
  markerId: number,
): Promise<void> {
  await db.query(
    `INSERT INTO teacher_attendance AS ta
            (teacher_id, date, status, remarks, check_in_time, check_out_time, marked_by_user_id, updated_at)
     SELECT r.teacher_id, $1::date, r.status, r.remarks, r.check_in_time, r.check_out_time, $7, now()
       FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[])
            AS r (teacher_id, status, remarks, check_in_time, check_out_time)
      ORDER BY r.teacher_id -- rows in one order for every caller: two saves of one day never deadlock
     ON CONFLICT (teacher_id, date) DO UPDATE SET
       status = EXCLUDED.status,
       remarks = COALESCE(EXCLUDED.remarks, ta.remarks),
       check_in_time = COALESCE(EXCLUDED.check_in_time, ta.check_in_time),
       check_out_time = COALESCE(EXCLUDED.check_out_time, ta.check_out_time),
       marked_by_user_id = EXCLUDED.marked_by_user_id,
       updated_at = now()`,
    [
      date,
      records.map((r) => r.teacher_id),
      records.map((r) => r.status),
      records.map((r) => r.remarks ?? null),
      records.map((r) => r.check_in_time),
      records.map((r) => r.check_out_time),
      markerId,
    ],
  );
}

/** Sets the remarks of a teacher's day; a day not marked yet gets a row that stays `not_marked`. */
export async function upsertTeacherRemarks(db: Queryable, teacherId: number, date: string, remarks: string) {
  await db.query(
    `INSERT INTO teacher_attendance AS ta (teacher_id, date, remarks, updated_at)
     VALUES ($1, $2::date, $3, now())
     ON CONFLICT (teacher_id, date) DO UPDATE SET remarks = EXCLUDED.remarks, updated_at = now()`,
    [teacherId, date, remarks],
  );
}

export async function countMarked(db: Queryable, date: string): Promise<number> {
  const rows = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM teacher_attendance WHERE date = $1::date AND status <> 'not_marked'`,
    [date],
  );
  return rows[0]?.count ?? 0;
}
