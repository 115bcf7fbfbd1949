import type { TeacherAttendanceDay } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { distinctIds } from '../../lib/distinct-ids';
import { ConflictError, NotFoundError } from '../../lib/errors';
import {
  countMarked,
  findDayLock,
  findTeacherDay,
  findTeachers,
  holdLocksForLocking,
  holdLocksForWriting,
  insertDayLock,
  type TeacherMarkInput,
  upsertTeacherAttendance,
  upsertTeacherRemarks,
} from './repository';

const LOCKED = 'teacher_attendance.locked';

export async function getTeacherDay(ctx: AppContext, date: string): Promise<TeacherAttendanceDay> {
  const [teachers, lock] = await Promise.all([findTeacherDay(ctx.db, date), findDayLock(ctx.db, date)]);
  const isLocked = lock !== undefined;
  const marked = teachers.filter((teacher) => teacher.status !== 'not_marked').length;
  return {
    date,
    total_teachers: teachers.length,
    marked_attendance: marked,
    pending_count: teachers.length - marked,
    is_locked: isLocked,
    locked_at: lock?.locked_at ?? null,
    locked_by: lock?.locked_by ?? null,
    teachers: teachers.map((teacher) => ({ ...teacher, is_locked: isLocked })),
  };
}

/** Inside the transaction, after the locks table is held: refuses a locked day. */
async function assertDayOpen(tx: Queryable, date: string): Promise<void> {
  await holdLocksForWriting(tx);
  if (await findDayLock(tx, date)) throw new ConflictError(LOCKED);
}

export async function markTeacherAttendance(
  ctx: AppContext,
  actor: Actor,
  date: string,
  records: TeacherMarkInput[],
): Promise<{ marked_count: number; message: string }> {
  const ids = distinctIds(
    records.map((record) => record.teacher_id),
    (index) => `teacher_records[${index}].teacher_id`,
    'teacher',
  );

  await ctx.db.transaction(async (tx) => {
    // The teachers' rows first, then the day: a teacher being deleted holds their row and then needs
    // the day-locks table (their account's locks lose their name), so the other order deadlocks.
    const teachers = await findTeachers(tx, ids);
    if (teachers.length !== ids.length) {
      const known = new Set(teachers.map((teacher) => teacher.id));
      throw new NotFoundError('teacher.not_found_by_id', { id: Number(ids.find((id) => !known.has(id))) });
    }
    await assertDayOpen(tx, date);
    await upsertTeacherAttendance(tx, date, records, actor.id);
    await recordActivity(tx, actor, 'teacher_attendance.marked', 'teacher_attendance.marked', {
      count: ids.length,
      date,
    });
  });
  return { marked_count: ids.length, message: `Attendance saved successfully for ${ids.length} teachers!` };
}

export async function lockTeacherAttendance(
  ctx: AppContext,
  actor: Actor,
  date: string,
): Promise<{ date: string; is_locked: true; locked_count: number; message: string }> {
  const lockedCount = await ctx.db.transaction(async (tx) => {
    await holdLocksForLocking(tx);
    if (await findDayLock(tx, date)) throw new ConflictError('teacher_attendance.already_locked');
    const marked = await countMarked(tx, date);
    if (marked === 0) throw new ConflictError('teacher_attendance.nothing_marked');
    await insertDayLock(tx, date, actor);
    await recordActivity(tx, actor, 'teacher_attendance.locked', 'teacher_attendance.locked', { date, count: marked });
    return marked;
  });
  return {
    date,
    is_locked: true,
    locked_count: lockedCount,
    message: 'Attendance locked successfully for the date. No further edits allowed.',
  };
}

export async function updateTeacherRemarks(
  ctx: AppContext,
  actor: Actor,
  input: { teacher_id: number; date: string; remarks: string },
): Promise<{ message: string }> {
  await ctx.db.transaction(async (tx) => {
    // As for marking: the teacher's row before the day.
    const [teacher] = await findTeachers(tx, [input.teacher_id]);
    if (!teacher) throw new NotFoundError('teacher.not_found_by_id', { id: input.teacher_id });
    await assertDayOpen(tx, input.date);
    await upsertTeacherRemarks(tx, input.teacher_id, input.date, input.remarks);
    await recordActivity(tx, actor, 'teacher_attendance.remarks_updated', 'teacher_attendance.remarks_updated', {
      teacher: teacher.full_name,
      date: input.date,
    });
  });
  return { message: 'Remarks saved successfully.' };
}
