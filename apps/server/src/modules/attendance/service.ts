import {
  type ApproveAttendanceResult,
  type AttendanceHistoryPage,
  type AttendanceHistoryPageQuery,
  type AttendanceSummary,
  type ClassName,
  type ErrorWords,
  errorDetail,
  errorWords,
  type LastMarked,
  type MarkingScope,
  type NotMarked,
  type PendingDay,
  type Roster,
  type RosterEntry,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { type Actor, classesParams, recordActivity } from '../../lib/activity-log';
import { distinctIds } from '../../lib/distinct-ids';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors';
import { addDays, centreInstant, firstDayOfMonth, lastDayOfMonth, readableDate, today } from '../../lib/time';
import { requireClass } from '../classes';
import { wakeSenders } from '../delivery';
import { queueAbsenceAlerts } from './alerts';
import { classRefusal, dateRefusal, loadScope, type Marker, rosterRefusal, toMarkingScope } from './marking-scope';
import {
  approvePending,
  countExisting,
  countHistoryByDay,
  countMessagesSent,
  countMonth,
  countNotMarked,
  dayJson,
  daysWithRecords,
  findLeftBefore,
  findRoster,
  findStudentsForMarking,
  historyPageJson,
  type MarkInput,
  pendingDays,
  pendingJson,
  upsertAttendance,
} from './repository';
import { ABSENCE_ALERTS } from './settings';

/** History defaults to the last 7 days, ending today; longer ranges than a year are refused. */
const HISTORY_DEFAULT_DAYS = 7;
const HISTORY_MAX_DAYS = 366;

/**
 * Anyone on the staff may read any class's register (they can list its students anyway); the answer
 * says whether the caller may mark it, and if not why, so the console shows it read-only.
 */
export async function getRoster(
  ctx: AppContext,
  user: Marker,
  className: ClassName,
  date: string | undefined,
): Promise<Roster> {
  const day = date ?? today();
  // One of the centre's classes as written ("Class 7" is 7), archived ones too (ADR 043).
  className = await requireClass(ctx.db, 'class_name', className, { archivedToo: true });
  const refusal = rosterRefusal(await loadScope(ctx.db, user), className, day);
  const students = await findRoster(ctx.db, className, day);
  return {
    date: day,
    class_name: className,
    can_mark: refusal === undefined,
    cannot_mark_reason: refusal ? errorDetail(refusal) : null,
    cannot_mark: refusal ?? null,
    students,
    last_marked: lastMarked(students),
  };
}

/** The newest mark of a register: who made it and when ("Last marked by Priya Sharma at 10:42"). */
export function lastMarked(students: readonly RosterEntry[]): LastMarked | null {
  let newest: { by: string; at: string; time: number } | null = null;
  for (const student of students) {
    if (student.marked_at === null || student.marked_by === null) continue;
    const time = new Date(student.marked_at).getTime();
    if (newest === null || time > newest.time) {
      newest = { by: student.marked_by, at: new Date(student.marked_at).toISOString(), time };
    }
  }
  return newest && { by: newest.by, at: newest.at };
}

/**
 * The classes with students who have no mark on `date` (default today), with how many: what the
 * dashboard and Approval say ("Class 8: 9 students not marked").
 */
export async function getNotMarked(ctx: AppContext, date: string | undefined): Promise<NotMarked> {
  const day = date ?? today();
  return { date: day, classes: await countNotMarked(ctx.db, day) };
}

export async function getMarkingScope(ctx: AppContext, user: Marker): Promise<MarkingScope> {
  return toMarkingScope(await loadScope(ctx.db, user));
}

/**
 * Every rule is checked against the whole request before anything is written, inside the
 * transaction that writes, against the teacher's classes and the rules as they are now (locked until
 * it ends): a class taken away at the same moment either waits for this marking or refuses it.
 */
export async function markAttendance(
  ctx: AppContext,
  actor: Marker,
  date: string,
  records: MarkInput[],
): Promise<{ marked_count: number; message: string }> {
  if (date > today()) throw new ValidationError('date', 'validation.not_in_future');
  const ids = distinctIds(
    records.map((record) => record.student_id),
    (index) => `records[${index}].student_id`,
    'student',
  );

  await ctx.db.transaction(async (tx) => {
    const scope = await loadScope(tx, actor, true);
    if (scope.refusal) throw new ForbiddenError(scope.refusal);
    const students = await findStudentsForMarking(tx, ids);
    if (students.length !== ids.length) {
      const known = new Set(students.map((s) => s.id));
      const missing = ids.find((id) => !known.has(id));
      throw new NotFoundError('student.not_found_by_id', { id: Number(missing) });
    }
    const byClass = classRefusal(
      scope,
      students.map((s) => s.class_name),
    );
    if (byClass) throw new ForbiddenError(byClass);
    const byDate = dateRefusal(scope, date);
    if (byDate) throw new ValidationError('date', byDate);
    const [gone] = await findLeftBefore(tx, ids, date);
    if (gone) throw new ConflictError(leftRefusal(gone, date));
    const written = new Set(await upsertAttendance(tx, date, records, actor));
    const approved = ids.find((id) => !written.has(id));
    if (approved !== undefined) {
      const name = students.find((s) => s.id === approved)?.full_name ?? `student ${approved}`;
      throw new ConflictError('attendance.already_approved', { name, date });
    }
    await recordActivity(tx, actor, 'attendance.marked', 'attendance.marked', {
      count: ids.length,
      ...classesParams(students.map((s) => s.class_name)),
      date,
    });
  });
  return { marked_count: ids.length, message: `Attendance marked for ${ids.length} student(s)` };
}

/** The pending records, as the JSON text of an AttendanceRecord array. */
export function listPendingJson(ctx: AppContext, date: string | undefined): Promise<string> {
  return pendingJson(ctx.db, date);
}

/**
 * The days with records awaiting approval, newest first: admins approve any day, so every day is
 * listed, and the Approval page shows the ones other than the day it is on.
 */
export function listPendingDays(ctx: AppContext): Promise<readonly Readonly<PendingDay>[]> {
  return pendingDays(ctx.db);
}

export async function approveAttendance(
  ctx: AppContext,
  actor: Actor,
  attendanceIds: number[],
): Promise<ApproveAttendanceResult> {
  const ids = [...new Set(attendanceIds)];
  const approved = await ctx.db.transaction(async (tx) => {
    const approvedIds = await approvePending(tx, ids, actor);
    if (approvedIds.length === 0) {
      if ((await countExisting(tx, ids)) === 0) {
        throw new NotFoundError(ids.length === 1 ? 'attendance.record_not_found' : 'attendance.records_not_found');
      }
      throw new ConflictError('attendance.records_already_approved');
    }
    // Only the records this call approved: one approved before never alerts twice.
    const alerts = (await ABSENCE_ALERTS.read(tx))
      ? await queueAbsenceAlerts(ctx, tx, approvedIds, actor)
      : { messages: 0, families: 0, reach: { in_app: 0, whatsapp: 0, no_channel: 0 } };
    await recordActivity(tx, actor, 'attendance.approved', 'attendance.approved', {
      count: approvedIds.length,
      alerts: alerts.messages,
    });
    return { count: approvedIds.length, alerts };
  });
  if (approved.alerts.messages > 0) wakeSenders(ctx);
  return {
    approved_count: approved.count,
    message: `Successfully approved ${approved.count} attendance record(s).`,
    alerted_families: approved.alerts.families,
    alert_reach: approved.alerts.reach,
  };
}

function daysBetween(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000);
}

/** The range asked for, or the last 7 days; refused when reversed or longer than a year. */
function historyRange(startDate: string | undefined, endDate: string | undefined): { start: string; end: string } {
  const end = endDate ?? today();
  const start = startDate ?? addDays(end, -HISTORY_DEFAULT_DAYS);
  if (start > end) throw new ValidationError('start_date', 'validation.not_after', { other: 'end_date' });
  if (daysBetween(start, end) + 1 > HISTORY_MAX_DAYS) {
    throw new ValidationError('end_date', 'validation.range_too_long', { days: HISTORY_MAX_DAYS });
  }
  return { start, end };
}

/**
 * Every record of a date range (default the last 7 days), newest first, as JSON texts a day at a
 * time: the whole range of a large centre is tens of megabytes, which is never held at once. Each
 * day's text goes through `keep` (kept by the answer's versions, so a repeated read of unchanged
 * data costs no query). The range is checked and its days found before anything is sent, so a bad
 * range or an unreachable database is still a plain error answer.
 */
export async function historyJsonByDay(
  ctx: AppContext,
  startDate: string | undefined,
  endDate: string | undefined,
): Promise<(keep: (part: string, build: () => Promise<string>) => Promise<string>) => AsyncGenerator<string>> {
  const { start, end } = historyRange(startDate, endDate);
  const days = await daysWithRecords(ctx.db, start, end);
  return async function* (keep) {
    for (const date of days) yield await keep(date, () => dayJson(ctx.db, date));
  };
}

export interface HistoryPageResult extends Omit<AttendanceHistoryPage, 'records'> {
  /** The JSON text of the page's AttendanceRecord array. */
  recordsJson: string;
}

/**
 * One page of the filtered history with the counts of the whole filtered range. Records are ordered
 * by day first, so the day counts tell which days the page falls on: only those days' records are
 * sorted (a few thousand), not the whole range (150,000 in a month at a large centre).
 */
export async function getHistoryPage(ctx: AppContext, query: AttendanceHistoryPageQuery): Promise<HistoryPageResult> {
  const { start, end } = historyRange(query.start_date, query.end_date);
  const filter = {
    start,
    end,
    className:
      query.class_name === undefined
        ? null
        : await requireClass(ctx.db, 'class_name', query.class_name, { archivedToo: true }),
    status: query.status ?? null,
    search: query.search ? query.search.toLowerCase() : null,
  };
  const days = await countHistoryByDay(ctx.db, filter);
  const counts = { present: 0, absent: 0, late: 0, leave: 0 };
  let total = 0;
  let before = 0;
  let newest: string | undefined;
  let oldest: string | undefined;
  for (const day of days) {
    const size = day.present + day.absent + day.late + day.leave;
    if (total + size > query.offset && total < query.offset + query.limit) {
      if (newest === undefined) {
        newest = day.date;
        before = total;
      }
      oldest = day.date;
    }
    total += size;
    counts.present += day.present;
    counts.absent += day.absent;
    counts.late += day.late;
    counts.leave += day.leave;
  }
  const recordsJson =
    newest === undefined || oldest === undefined
      ? '[]'
      : await historyPageJson(ctx.db, { ...filter, start: oldest, end: newest }, query.limit, query.offset - before);
  return { period: { start_date: start, end_date: end }, total, counts, recordsJson };
}

export async function getSummary(ctx: AppContext): Promise<AttendanceSummary> {
  const day = today();
  const start = firstDayOfMonth(day);
  const end = lastDayOfMonth(day);
  // The month's bounds as instants at the centre's midnight (its time zone), for timestamps.
  const monthStart = centreInstant(start).toISOString();
  const nextMonthStart = centreInstant(addDays(end, 1)).toISOString();

  const counts = await countMonth(ctx.db, start, end);
  const messagesSent = await countMessagesSent(ctx.db, monthStart, nextMonthStart);
  const attended = counts.present + counts.late;
  const rate = counts.approved_records === 0 ? 0 : Math.round((attended / counts.approved_records) * 1000) / 10;
  return {
    period: { start_date: start, end_date: end },
    metrics: { attendance_rate: rate },
    totals: {
      total_records: counts.total_records,
      approved_records: counts.approved_records,
      pending_records: counts.total_records - counts.approved_records,
      present: counts.present,
      absent: counts.absent,
      late: counts.late,
      leave: counts.leave,
      messages_sent: messagesSent,
    },
  };
}

/** A student who left is not marked for a day after it (ADR 027). */
export function leftRefusal(student: { full_name: string; left_on: string }, date: string): ErrorWords {
  return errorWords('attendance.student_left', {
    name: student.full_name,
    left_on: readableDate(student.left_on),
    date: readableDate(date),
  });
}
