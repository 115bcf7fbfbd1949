import type { LeaveRequest, LeaveStatus } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import type { ActivityActor } from '../../lib/activity-log';

/** A request as both sides show it; the class is the student's class now. */
const LEAVE_COLUMNS = `lr.id, lr.student_id, s.full_name AS student_name, s.unique_id AS student_unique_id,
  s.class_name, lr.from_date, lr.to_date, (lr.to_date - lr.from_date + 1) AS days, lr.reason, lr.status,
  lr.requested_at, lr.decided_at, lr.decided_by`;
const NEWEST_FIRST = 'lr.requested_at DESC, lr.id DESC';

/** The statuses that hold a child's days: a new request must not overlap them. */
export const LIVE_STATUSES: readonly LeaveStatus[] = ['pending', 'approved'];

export interface FamilyChild {
  id: number;
  full_name: string;
  class_name: string;
  parent_phone: string;
}

/**
 * One of the family's children, or undefined when the id is not a child of this phone (unknown,
 * another family's, or one who left the centre: the caller cannot tell which). `lock` holds the student row until the transaction
 * ends, so two requests for one child are checked for overlap one after the other.
 */
export async function findFamilyChild(
  db: Queryable,
  phone: string,
  studentId: number,
  lock = false,
): Promise<FamilyChild | undefined> {
  const rows = await db.query<FamilyChild>(
    `SELECT id, full_name, class_name, parent_phone FROM students
      WHERE id = $1 AND parent_phone = $2 AND left_on IS NULL${lock ? ' FOR UPDATE' : ''}`,
    [studentId, phone],
  );
  return rows[0];
}

/** A live request of this child sharing at least one day with `from`–`to`, the earliest first. */
export async function findOverlappingLeave(
  db: Queryable,
  studentId: number,
  from: string,
  to: string,
): Promise<Pick<LeaveRequest, 'id' | 'status' | 'from_date' | 'to_date'> | undefined> {
  const rows = await db.query<Pick<LeaveRequest, 'id' | 'status' | 'from_date' | 'to_date'>>(
    `SELECT id, status, from_date, to_date FROM leave_requests
      WHERE student_id = $1 AND status = ANY($4::text[]) AND from_date <= $3::date AND to_date >= $2::date
      ORDER BY from_date, id LIMIT 1`,
    [studentId, from, to, LIVE_STATUSES],
  );
  return rows[0];
}

export async function insertLeaveRequest(
  tx: Queryable,
  request: { studentId: number; phone: string; from: string; to: string; reason: string },
): Promise<number> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO leave_requests (student_id, parent_phone, from_date, to_date, reason)
     VALUES ($1, $2, $3::date, $4::date, $5) RETURNING id`,
    [request.studentId, request.phone, request.from, request.to, request.reason],
  );
  return (rows[0] as { id: number }).id;
}

export async function findLeaveRequest(db: Queryable, id: number): Promise<LeaveRequest | undefined> {
  const rows = await db.query<LeaveRequest>(
    `SELECT ${LEAVE_COLUMNS} FROM leave_requests lr JOIN students s ON s.id = lr.student_id WHERE lr.id = $1`,
    [id],
  );
  return rows[0];
}

/** The phone of the family a request is from (its child's parent phone now). */
export async function findRequestFamilyPhone(db: Queryable, id: number): Promise<string | undefined> {
  const rows = await db.query<{ phone: string }>(
    'SELECT s.parent_phone AS phone FROM leave_requests lr JOIN students s ON s.id = lr.student_id WHERE lr.id = $1',
    [id],
  );
  return rows[0]?.phone;
}

/** The requests for the children on this phone now (not those who left), newest first. */
export async function listFamilyLeave(db: Queryable, phone: string, limit: number): Promise<LeaveRequest[]> {
  return db.query<LeaveRequest>(
    `SELECT ${LEAVE_COLUMNS} FROM leave_requests lr JOIN students s ON s.id = lr.student_id
      WHERE s.parent_phone = $1 AND s.left_on IS NULL
      ORDER BY ${NEWEST_FIRST}
      LIMIT $2`,
    [phone, limit],
  );
}

/** A request of one of this phone's children, or undefined. */
export async function findFamilyLeave(db: Queryable, phone: string, id: number): Promise<LeaveRequest | undefined> {
  const rows = await db.query<LeaveRequest>(
    `SELECT ${LEAVE_COLUMNS} FROM leave_requests lr JOIN students s ON s.id = lr.student_id
      WHERE lr.id = $1 AND s.parent_phone = $2 AND s.left_on IS NULL`,
    [id, phone],
  );
  return rows[0];
}

/**
 * Moves a waiting request to `status` and answers whether this call did. A concurrent decision waits
 * for the row and then re-checks `status = 'pending'` on the committed row, so exactly one wins.
 * `phone`, when given, limits it to that family's children (a parent withdrawing).
 */
export async function decidePending(
  tx: Queryable,
  id: number,
  status: Exclude<LeaveStatus, 'pending'>,
  decider: ActivityActor,
  phone?: string,
): Promise<boolean> {
  const rows = await tx.query<{ id: number }>(
    `UPDATE leave_requests lr
        SET status = $2, decided_at = now(), decided_by = $3, decided_by_user_id = $4
      WHERE lr.id = $1 AND lr.status = 'pending'
        AND ($5::text IS NULL
             OR EXISTS (SELECT 1 FROM students s
                         WHERE s.id = lr.student_id AND s.parent_phone = $5 AND s.left_on IS NULL))
      RETURNING lr.id`,
    [id, status, decider.full_name, decider.id, phone ?? null],
  );
  return rows.length > 0;
}

export interface LeaveFilter {
  status: LeaveStatus | null;
  /** The classes the caller may see; null for every class. */
  classes: readonly string[] | null;
  from: string | null;
  to: string | null;
}

/** Students who left are out of the lists (and the badge), as they are out of the student list. */
const FILTER_WHERE = `s.left_on IS NULL
        AND ($1::text IS NULL OR lr.status = $1)
        AND ($2::text[] IS NULL OR s.class_name = ANY($2::text[]))
        AND ($3::date IS NULL OR lr.to_date >= $3::date)
        AND ($4::date IS NULL OR lr.from_date <= $4::date)`;
const filterParams = (filter: LeaveFilter) => [
  filter.status,
  filter.classes === null ? null : [...filter.classes],
  filter.from,
  filter.to,
];

export async function listLeave(
  db: Queryable,
  filter: LeaveFilter,
  limit: number,
  offset: number,
): Promise<LeaveRequest[]> {
  return db.query<LeaveRequest>(
    `SELECT ${LEAVE_COLUMNS} FROM leave_requests lr JOIN students s ON s.id = lr.student_id
      WHERE ${FILTER_WHERE}
      ORDER BY ${NEWEST_FIRST}
      LIMIT $5 OFFSET $6`,
    [...filterParams(filter), limit, offset],
  );
}

export async function countLeave(db: Queryable, filter: LeaveFilter): Promise<number> {
  const rows = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM leave_requests lr JOIN students s ON s.id = lr.student_id
      WHERE ${FILTER_WHERE}`,
    filterParams(filter),
  );
  return rows[0]?.count ?? 0;
}
