import type { Queryable } from '../../db/database';

export interface CentreCounts {
  total_students: number;
  total_teachers: number;
  active_classes: number;
  pending_approval: number;
}

export async function countCentre(db: Queryable): Promise<CentreCounts> {
  const rows = await db.queryCached<CentreCounts>(
    `SELECT (SELECT count(*)::int FROM students WHERE left_on IS NULL) AS total_students,
            (SELECT count(*)::int FROM teachers) AS total_teachers,
            (SELECT count(DISTINCT class_name)::int FROM students WHERE left_on IS NULL) AS active_classes,
            (SELECT COALESCE(sum(records), 0)::int FROM attendance_counts WHERE NOT approved) AS pending_approval`,
  );
  return rows[0] as CentreCounts;
}

/** Classes that have students but no attendance record for the date, in class order. */
export async function findClassesWithoutAttendance(
  db: Queryable,
  date: string,
): Promise<readonly Readonly<{ class_name: string; students: number }>[]> {
  return db.queryCached(
    `SELECT s.class_name, count(*)::int AS students
       FROM students s
      WHERE s.left_on IS NULL AND NOT EXISTS (SELECT 1 FROM attendance_counts a WHERE a.class_name = s.class_name AND a.date = $1::date)
      GROUP BY s.class_name
      -- As the registers list classes (shorter first, so 7, 8, 9, 10 in order): never cast, 'Morning batch' is no number.
      ORDER BY length(s.class_name), s.class_name`,
    [date],
  );
}

export interface MyClassRow {
  class_name: string;
  students: number;
  marked: number;
  pending: number;
  /** When the caller was reminded of it today (PostgreSQL's text), or null. */
  reminded_at: string | null;
}

/**
 * The classes on the caller's teacher record with their state on `date`, in one statement: students
 * now in the class, records of the day and how many wait for approval (from the kept counts), and the
 * day's reminder. No row for an account with no teacher record.
 */
export async function findMyClasses(db: Queryable, userId: number, date: string): Promise<MyClassRow[]> {
  return db.query<MyClassRow>(
    `SELECT c.class_name,
            (SELECT count(*)::int FROM students s WHERE s.class_name = c.class_name AND s.left_on IS NULL) AS students,
            COALESCE((SELECT sum(a.records) FROM attendance_counts a
                       WHERE a.class_name = c.class_name AND a.date = $2::date), 0)::int AS marked,
            COALESCE((SELECT sum(a.records) FROM attendance_counts a
                       WHERE a.class_name = c.class_name AND a.date = $2::date AND NOT a.approved), 0)::int AS pending,
            (SELECT r.reminded_at::text FROM marking_reminders r
              WHERE r.user_id = $1 AND r.class_name = c.class_name AND r.date = $2::date) AS reminded_at
       FROM teachers t
      CROSS JOIN LATERAL (SELECT DISTINCT unnest(t.classes_assigned) AS class_name) c
      WHERE t.user_id = $1
      ORDER BY c.class_name`,
    [userId, date],
  );
}
