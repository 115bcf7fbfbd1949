import type { AttendanceStatus, PendingDay, RosterEntry } from '@tuitiondesk/contract';
import { jsonTimestamp, type Queryable } from '../../db/database';
import type { Actor } from '../../lib/activity-log';

/** Class names are digits ('7' … '10'): shorter first keeps 7, 8, 9 before 10. */
const CLASS_ORDER = 'length(a.class_name), a.class_name';

/** The fields of an AttendanceRecord, in order; timestamps printed by the database for JSON lists. */
const RECORD_COLUMNS = `a.id, a.student_id, s.full_name AS student_name, s.unique_id AS student_unique_id,
  a.class_name, a.date, a.status, a.remarks, a.parent_reason, s.parent_phone, ${jsonTimestamp('a.marked_at')} AS marked_at,
  a.marked_by, a.approved_by, ${jsonTimestamp('a.approved_at')} AS approved_at`;
const RECORD_ORDER = `a.date DESC, ${CLASS_ORDER}, lower(s.full_name), a.id`;

export interface StudentRef {
  id: number;
  full_name: string;
  class_name: string;
}

/**
 * The students among `ids` that exist. SHARE holds them until the transaction ends: a student deleted
 * meanwhile cannot break the attendance rows written for them, and one moved to another class cannot
 * slip past the check of the marker's classes (the row written carries the class checked). Rows are
 * locked in id order, so two markings and a bulk change never wait on each other in a circle.
 */
export async function findStudentsForMarking(db: Queryable, ids: number[]): Promise<StudentRef[]> {
  return db.query<StudentRef>(
    'SELECT id, full_name, class_name FROM students WHERE id = ANY($1::int[]) ORDER BY id FOR SHARE',
    [ids],
  );
}

/**
 * The students among `ids` who left the centre before `date` and have no record that day: a day after
 * leaving is not marked, though one already recorded may still be corrected (as the roster shows it).
 */
export async function findLeftBefore(
  db: Queryable,
  ids: number[],
  date: string,
): Promise<{ id: number; full_name: string; left_on: string }[]> {
  return db.query(
    `SELECT s.id, s.full_name, to_char(s.left_on, 'YYYY-MM-DD') AS left_on
       FROM students s
      WHERE s.id = ANY($1::int[]) AND s.left_on < $2::date
        AND NOT EXISTS (SELECT 1 FROM attendance a WHERE a.student_id = s.id AND a.date = $2::date)
      ORDER BY s.id`,
    [ids, date],
  );
}

/**
 * The classes on the teacher record of a sign-in account, or undefined when the account has none.
 * `lock` holds the record (FOR SHARE) until the transaction ends: an admin's edit of it waits.
 */
export async function findAssignedClasses(db: Queryable, userId: number, lock = false): Promise<string[] | undefined> {
  const rows = await db.query<{ classes_assigned: string[] }>(
    `SELECT classes_assigned FROM teachers WHERE user_id = $1${lock ? ' FOR SHARE' : ''}`,
    [userId],
  );
  return rows[0]?.classes_assigned;
}

export interface MarkInput {
  student_id: number;
  status: AttendanceStatus;
  remarks: string | undefined;
}

/**
 * Creates or updates one row per student and date, with the class the student is in now. Rows
 * already approved are left alone (and not returned), even when approved by a transaction that
 * committed while this one waited for the row.
 */
export async function upsertAttendance(
  db: Queryable,
  date: string,
  records: MarkInput[],
  marker: Actor,
): Promise<number[]> {
  const rows = await db.query<{ student_id: number }>(
    `INSERT INTO attendance AS a (student_id, date, class_name, status, remarks, marked_by, marked_by_user_id, marked_at)
     SELECT r.student_id, $1::date, s.class_name, r.status, r.remarks, $5, $6, now()
       FROM unnest($2::int[], $3::text[], $4::text[]) AS r (student_id, status, remarks)
       JOIN students s ON s.id = r.student_id
      WHERE true
      ORDER BY r.student_id -- rows in one order for every caller: two markings of one class never deadlock
     ON CONFLICT (student_id, date) DO UPDATE SET
       class_name = EXCLUDED.class_name,
       status = EXCLUDED.status,
       remarks = COALESCE(EXCLUDED.remarks, a.remarks),
       marked_by = EXCLUDED.marked_by,
       marked_by_user_id = EXCLUDED.marked_by_user_id,
       marked_at = EXCLUDED.marked_at
     WHERE a.approved_at IS NULL
     RETURNING a.student_id`,
    [
      date,
      records.map((r) => r.student_id),
      records.map((r) => r.status),
      records.map((r) => r.remarks ?? null),
      marker.full_name,
      marker.id,
    ],
  );
  return rows.map((row) => row.student_id);
}

export async function findRoster(db: Queryable, className: string, date: string): Promise<RosterEntry[]> {
  return db.query<RosterEntry>(
    `SELECT s.id AS student_id, s.unique_id AS student_unique_id, s.full_name AS student_name, s.parent_phone,
            a.id AS attendance_id, a.status, a.remarks, a.marked_by, a.marked_at,
            (a.approved_at IS NOT NULL) AS is_approved, lv.leave
       FROM students s
       LEFT JOIN attendance a ON a.student_id = s.id AND a.date = $2::date
       -- The parent's live leave covering the day, approved first (leave_requests_live_idx).
       LEFT JOIN LATERAL (
         SELECT json_build_object('id', lr.id, 'status', lr.status, 'reason', lr.reason,
                  'from_date', to_char(lr.from_date, 'YYYY-MM-DD'), 'to_date', to_char(lr.to_date, 'YYYY-MM-DD')) AS leave
           FROM leave_requests lr
          WHERE lr.student_id = s.id AND lr.status IN ('pending', 'approved')
            AND lr.from_date <= $2::date AND lr.to_date >= $2::date
          ORDER BY lr.status = 'approved' DESC, lr.id
          LIMIT 1
       ) lv ON true
      -- A student who left is on the rosters up to their leaving day, and on a later day's only with a
      -- record for it (history may still be corrected).
      WHERE s.class_name = $1 AND (s.left_on IS NULL OR s.left_on >= $2::date OR a.id IS NOT NULL)
      ORDER BY lower(s.full_name), s.id`,
    [className, date],
  );
}

/**
 * Per class, the students on its register for `date` (as findRoster lists them) and how many of them
 * have no mark that day; only classes with someone not marked, in class order.
 */
export async function countNotMarked(
  db: Queryable,
  date: string,
): Promise<{ class_name: string; students: number; not_marked: number }[]> {
  return db.query(
    `SELECT s.class_name, count(*)::int AS students, count(*) FILTER (WHERE a.id IS NULL)::int AS not_marked
       FROM students s
       LEFT JOIN attendance a ON a.student_id = s.id AND a.date = $1::date
      WHERE s.left_on IS NULL OR s.left_on >= $1::date OR a.id IS NOT NULL
      GROUP BY s.class_name
     HAVING count(*) FILTER (WHERE a.id IS NULL) > 0
      ORDER BY length(s.class_name), s.class_name`,
    [date],
  );
}

/** Pending records (of one day, or all), as a JSON array of AttendanceRecord. */
export function pendingJson(db: Queryable, date: string | undefined): Promise<string> {
  return db.queryJson(
    `SELECT ${RECORD_COLUMNS}
       FROM attendance a JOIN students s ON s.id = a.student_id
      WHERE a.approved_at IS NULL AND ($1::date IS NULL OR a.date = $1::date)
      ORDER BY ${RECORD_ORDER}`,
    [date ?? null],
  );
}

/**
 * Every day with pending records and how many, newest first, from the kept counts: the pending rows
 * of attendance_counts (attendance_counts_pending_idx), a few a day whatever the number of records.
 * Days with none have no pending row (rows whose count falls to zero are removed).
 */
export function pendingDays(db: Queryable): Promise<readonly Readonly<PendingDay>[]> {
  return db.queryCached<PendingDay>(
    `SELECT to_char(date, 'YYYY-MM-DD') AS date, sum(records)::int AS pending
       FROM attendance_counts
      WHERE NOT approved
      GROUP BY date
      ORDER BY date DESC`,
  );
}

/** The days from `start` to `end` that have records, newest first (from the kept counts). */
export async function daysWithRecords(db: Queryable, start: string, end: string): Promise<string[]> {
  const rows = await db.queryCached<{ date: string }>(
    `SELECT date FROM attendance_counts WHERE date BETWEEN $1::date AND $2::date GROUP BY date ORDER BY date DESC`,
    [start, end],
  );
  return rows.map((row) => row.date);
}

/** Every record of one day, as a JSON array of AttendanceRecord in the history's order. */
export function dayJson(db: Queryable, date: string): Promise<string> {
  return db.queryJson(
    `SELECT ${RECORD_COLUMNS}
       FROM attendance a JOIN students s ON s.id = a.student_id
      WHERE a.date = $1::date
      ORDER BY ${RECORD_ORDER}`,
    [date],
  );
}

export interface HistoryFilter {
  start: string;
  end: string;
  className: string | null;
  status: AttendanceStatus | null;
  /** Lower case; matched anywhere in the student's name or ID. */
  search: string | null;
}

const RANGE_WHERE = `a.date BETWEEN $1::date AND $2::date
        AND ($3::text IS NULL OR a.class_name = $3)
        AND ($4::text IS NULL OR a.status = $4)`;
const SEARCH_WHERE = '($5::text IS NULL OR strpos(lower(s.full_name), $5) > 0 OR strpos(lower(s.unique_id), $5) > 0)';

const rangeParams = (filter: HistoryFilter) => [filter.start, filter.end, filter.className, filter.status];

export interface DayCounts {
  date: string;
  present: number;
  absent: number;
  late: number;
  leave: number;
}

/**
 * Per day, newest first, how many filtered records have each status: from the kept counts
 * (attendance_counts, migration 0011), a few rows a day whatever the number of records, unless a
 * name is searched, which only the records themselves can answer.
 */
export async function countHistoryByDay(db: Queryable, filter: HistoryFilter): Promise<readonly DayCounts[]> {
  const searching = filter.search !== null;
  const source = searching
    ? `(SELECT a.date, a.class_name, a.status, 1 AS records
          FROM attendance a JOIN students s ON s.id = a.student_id
         WHERE ${RANGE_WHERE} AND ${SEARCH_WHERE}) a`
    : `(SELECT a.date, a.class_name, a.status, a.records FROM attendance_counts a WHERE ${RANGE_WHERE}) a`;
  return db.queryCached<DayCounts>(
    `SELECT a.date,
            COALESCE(sum(a.records) FILTER (WHERE a.status = 'present'), 0)::int AS present,
            COALESCE(sum(a.records) FILTER (WHERE a.status = 'absent'), 0)::int AS absent,
            COALESCE(sum(a.records) FILTER (WHERE a.status = 'late'), 0)::int AS late,
            COALESCE(sum(a.records) FILTER (WHERE a.status = 'leave'), 0)::int AS leave
       FROM ${source}
      GROUP BY a.date
      ORDER BY a.date DESC`,
    searching ? [...rangeParams(filter), filter.search] : rangeParams(filter),
  );
}

/** One page of the filtered records, in the order of the full history, as a JSON array. */
export function historyPageJson(db: Queryable, filter: HistoryFilter, limit: number, offset: number): Promise<string> {
  return db.queryJson(
    `SELECT ${RECORD_COLUMNS}
       FROM attendance a JOIN students s ON s.id = a.student_id
      WHERE ${RANGE_WHERE} AND ${SEARCH_WHERE}
      ORDER BY ${RECORD_ORDER}
      LIMIT $6 OFFSET $7`,
    [...rangeParams(filter), filter.search, limit, offset],
  );
}

/**
 * Approves the pending ones among `ids` and answers their ids. A record that another transaction
 * approves first is skipped here: the row lock makes this statement re-check `approved_at IS NULL`
 * on the committed row, so each record is approved once.
 */
export async function approvePending(db: Queryable, ids: number[], approver: Actor): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `UPDATE attendance SET approved_at = now(), approved_by = $2, approved_by_user_id = $3
      WHERE id = ANY($1::int[]) AND approved_at IS NULL
      RETURNING id`,
    [ids, approver.full_name, approver.id],
  );
  return rows.map((row) => row.id);
}

export async function countExisting(db: Queryable, ids: number[]): Promise<number> {
  const rows = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM attendance WHERE id = ANY($1::int[])',
    [ids],
  );
  return rows[0]?.count ?? 0;
}

export interface MonthCounts {
  total_records: number;
  approved_records: number;
  present: number;
  absent: number;
  late: number;
  leave: number;
}

/** Status counts are of approved records only: pending ones may still change. From the kept counts. */
export async function countMonth(db: Queryable, start: string, end: string): Promise<MonthCounts> {
  const rows = await db.queryCached<MonthCounts>(
    `SELECT COALESCE(sum(records), 0)::int AS total_records,
            COALESCE(sum(records) FILTER (WHERE approved), 0)::int AS approved_records,
            COALESCE(sum(records) FILTER (WHERE approved AND status = 'present'), 0)::int AS present,
            COALESCE(sum(records) FILTER (WHERE approved AND status = 'absent'), 0)::int AS absent,
            COALESCE(sum(records) FILTER (WHERE approved AND status = 'late'), 0)::int AS late,
            COALESCE(sum(records) FILTER (WHERE approved AND status = 'leave'), 0)::int AS leave
       FROM attendance_counts
      WHERE date BETWEEN $1::date AND $2::date`,
    [start, end],
  );
  return rows[0] as MonthCounts;
}

/** Messages sent in [from, to): instants, so the month follows the centre's clock, not the session's. */
export async function countMessagesSent(db: Queryable, from: string, to: string): Promise<number> {
  // The kept counts of the range's quarter-hours (message_counts, migration 0013): `from` and `to`
  // are midnights in the centre's zone, which fall on quarter-hours.
  const rows = await db.queryCached<{ count: number }>(
    `SELECT COALESCE(sum(messages), 0)::int AS count FROM message_counts
      WHERE quarter >= $1::timestamptz AND quarter < $2::timestamptz`,
    [from, to],
  );
  return rows[0]?.count ?? 0;
}

/**
 * Of the (student, day) pairs given, the ones an approved request covers, as `student_id|date` keys:
 * one statement for a whole approval's worth of records. Reads the leave module's table directly, so the
 * absence alert (attendance's) does not depend on the leave module, which depends on attendance's marking scope.
 */
export async function findApprovedLeaveDays(
  db: Queryable,
  days: readonly { student_id: number; date: string }[],
): Promise<Set<string>> {
  if (days.length === 0) return new Set();
  const rows = await db.query<{ student_id: number; date: string }>(
    `SELECT d.student_id, to_char(d.date, 'YYYY-MM-DD') AS date
       FROM unnest($1::int[], $2::date[]) AS d (student_id, date)
      WHERE EXISTS (
        SELECT 1 FROM leave_requests lr
         WHERE lr.student_id = d.student_id AND lr.status = 'approved'
           AND lr.from_date <= d.date AND lr.to_date >= d.date)`,
    [days.map((day) => day.student_id), days.map((day) => day.date)],
  );
  return new Set(rows.map((row) => `${row.student_id}|${row.date}`));
}
