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
      ORDER BY s.class_name::int`,
    [date],
  );
}
