import {
  activityWords,
  type CreateLeaveRequest,
  errorWords,
  LEAVE_MAX_DAYS,
  type LeaveCount,
  type LeaveList,
  type LeaveRequest,
  type LeaveStatus,
  namingClasses,
  type ParentLeaveRequests,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors';
import { addDays, readableDate, today } from '../../lib/time';
import { loadScope, type Marker } from '../attendance';
import { requireClass } from '../classes';
import { notifyFamilyDevices } from '../delivery';
import {
  familyDate,
  familyTexts,
  findFamilyLanguage,
  findParentName,
  insertFamilyNotice,
  type LeaveDecision,
} from '../families';
import {
  countLeave,
  decidePending,
  findFamilyChild,
  findFamilyLeave,
  findLeaveRequest,
  findOverlappingLeave,
  findRequestFamilyPhone,
  insertLeaveRequest,
  type LeaveFilter,
  listFamilyLeave,
  listLeave,
} from './repository';

/** How far ahead a parent may tell: a request further out is most likely a mistyped year. */
export const LEAVE_MAX_DAYS_AHEAD = 366;
/** A family sees its most recent requests; older ones stay in the staff list. */
const FAMILY_LIST_LIMIT = 200;

const NOT_YOUR_CHILD = 'student.not_found';
const REQUEST_NOT_FOUND = 'leave.not_found';

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The parent as the activity feed names them: they have no staff account. Texts say "(parent)" themselves. */
async function parentActor(db: Queryable, phone: string) {
  const name = await findParentName(db, phone);
  return { id: null, full_name: `${name} (parent)`, text_name: name };
}

// ---- Parents ----

export async function getFamilyLeave(ctx: AppContext, phone: string): Promise<ParentLeaveRequests> {
  return { requests: await listFamilyLeave(ctx.db, phone, FAMILY_LIST_LIMIT) };
}

/**
 * A parent tells the centre a child will be away. Dates are the centre's calendar days: from today
 * on, the last not before the first, at most LEAVE_MAX_DAYS. The child's row is locked while the
 * overlap is checked and the request written, so two requests sent at once for one child cannot both
 * pass the check.
 */
export async function askForLeave(ctx: AppContext, phone: string, input: CreateLeaveRequest): Promise<LeaveRequest> {
  const from = input.from_date;
  const to = input.to_date ?? from;
  const day = today();
  if (from < day) throw new ValidationError('from_date', 'validation.leave_from_past', { today: day });
  const lastStart = addDays(day, LEAVE_MAX_DAYS_AHEAD);
  if (from > lastStart) throw new ValidationError('from_date', 'validation.leave_from_too_far', { last: lastStart });
  if (to < from) throw new ValidationError('to_date', 'validation.not_before', { other: 'from_date' });
  if (daysBetween(from, to) > LEAVE_MAX_DAYS) {
    throw new ValidationError('to_date', 'validation.leave_too_long', {
      max: LEAVE_MAX_DAYS,
      days: daysBetween(from, to),
    });
  }
  const id = await ctx.db.transaction(async (tx) => {
    const child = await findFamilyChild(tx, phone, input.student_id, true);
    if (!child) throw new NotFoundError(NOT_YOUR_CHILD);
    const overlap = await findOverlappingLeave(tx, child.id, from, to);
    if (overlap) {
      const name = child.full_name;
      const status = overlap.status;
      throw overlap.from_date === overlap.to_date
        ? new ConflictError('leave.overlaps_day', { name, date: readableDate(overlap.from_date), status })
        : new ConflictError('leave.overlaps_range', {
            name,
            from: readableDate(overlap.from_date),
            to: readableDate(overlap.to_date),
            status,
          });
    }
    const created = await insertLeaveRequest(tx, { studentId: child.id, phone, from, to, reason: input.reason });
    const parent = await parentActor(tx, phone);
    await recordActivity(
      tx,
      parent,
      'leave.requested',
      from === to
        ? activityWords('leave.requested', {
            name: child.full_name,
            class_name: child.class_name,
            date: from,
            reason: input.reason,
          })
        : activityWords('leave.requested_days', {
            name: child.full_name,
            class_name: child.class_name,
            from,
            to,
            reason: input.reason,
          }),
    );
    return created;
  });
  return (await findLeaveRequest(ctx.db, id)) as LeaveRequest;
}

/** A parent takes back a request the centre has not decided yet. */
export async function withdrawLeave(ctx: AppContext, phone: string, id: number): Promise<LeaveRequest> {
  await ctx.db.transaction(async (tx) => {
    const parent = await parentActor(tx, phone);
    if (!(await decidePending(tx, id, 'withdrawn', parent, phone))) {
      const current = await findFamilyLeave(tx, phone, id);
      if (!current) throw new NotFoundError(REQUEST_NOT_FOUND);
      throw new ConflictError('leave.cannot_withdraw', { status: current.status });
    }
    const request = (await findLeaveRequest(tx, id)) as LeaveRequest;
    await recordActivity(
      tx,
      parent,
      'leave.withdrawn',
      request.from_date === request.to_date
        ? activityWords('leave.withdrawn', { name: request.student_name, date: request.from_date })
        : activityWords('leave.withdrawn_days', {
            name: request.student_name,
            from: request.from_date,
            to: request.to_date,
          }),
    );
  });
  return (await findFamilyLeave(ctx.db, phone, id)) as LeaveRequest;
}

// ---- Staff ----

/**
 * What the caller may see: admins every class; a teacher the classes they may mark (ADR 019), and
 * nothing when they may mark none. A class asked for that is not theirs is refused, not emptied.
 */
async function visibleClasses(
  db: Queryable,
  user: Marker,
  className: string | undefined,
): Promise<readonly string[] | null> {
  // One of the centre's classes as written ("Class 7" is 7), archived ones too (ADR 043).
  if (className !== undefined) className = await requireClass(db, 'class_name', className, { archivedToo: true });
  const scope = await loadScope(db, user);
  if (!scope.restricted) return className === undefined ? null : [className];
  const classes = scope.refusal ? [] : scope.classes;
  if (className === undefined) return classes;
  if (!classes.includes(className)) {
    throw classes.length === 0
      ? new ForbiddenError('leave.no_class_assigned')
      : new ForbiddenError(
          namingClasses(
            errorWords('leave.classes_only', { count: classes.length, classes: classes.join(', ') }),
            scope.labelOf,
          ),
        );
  }
  return [className];
}

export async function getLeaveList(
  ctx: AppContext,
  user: Marker,
  query: {
    status?: LeaveStatus | undefined;
    class_name?: string | undefined;
    from_date?: string | undefined;
    to_date?: string | undefined;
    limit: number;
    offset: number;
  },
): Promise<LeaveList> {
  if (query.from_date && query.to_date && query.to_date < query.from_date)
    throw new ValidationError('to_date', 'validation.not_before', { other: 'from_date' });
  const filter: LeaveFilter = {
    status: query.status ?? null,
    classes: await visibleClasses(ctx.db, user, query.class_name),
    from: query.from_date ?? null,
    to: query.to_date ?? null,
  };
  if (filter.classes?.length === 0) return { requests: [], total: 0 };
  return {
    requests: await listLeave(ctx.db, filter, query.limit, query.offset),
    total: await countLeave(ctx.db, filter),
  };
}

/** The badge: waiting requests among those the caller may see. */
export async function getLeaveCount(ctx: AppContext, user: Marker): Promise<LeaveCount> {
  const classes = await visibleClasses(ctx.db, user, undefined);
  if (classes?.length === 0) return { pending: 0 };
  return { pending: await countLeave(ctx.db, { status: 'pending', classes, from: null, to: null }) };
}

/**
 * An admin approves or declines a waiting request. Two decisions at once: the row lock lets one
 * through and the other finds it decided (409), so a request is never both.
 */
export async function decideLeave(
  ctx: AppContext,
  actor: Actor,
  id: number,
  decision: LeaveDecision,
): Promise<LeaveRequest> {
  const { request, pushed } = await ctx.db.transaction(async (tx) => {
    if (!(await decidePending(tx, id, decision, actor))) {
      const current = await findLeaveRequest(tx, id);
      if (!current) throw new NotFoundError(REQUEST_NOT_FOUND);
      if (current.status === 'withdrawn') throw new ConflictError('leave.already_withdrawn');
      throw current.decided_by
        ? new ConflictError('leave.already_decided_by', { status: current.status, name: current.decided_by })
        : new ConflictError('leave.already_decided', { status: current.status });
    }
    const decided = (await findLeaveRequest(tx, id)) as LeaveRequest;
    await recordActivity(
      tx,
      actor,
      decision === 'approved' ? 'leave.approved' : 'leave.declined',
      decided.from_date === decided.to_date
        ? activityWords(decision === 'approved' ? 'leave.approved' : 'leave.declined', {
            name: decided.student_name,
            class_name: decided.class_name,
            date: decided.from_date,
            days: decided.days,
          })
        : activityWords(decision === 'approved' ? 'leave.approved_days' : 'leave.declined_days', {
            name: decided.student_name,
            class_name: decided.class_name,
            from: decided.from_date,
            to: decided.to_date,
            days: decided.days,
          }),
    );
    return { request: decided, pushed: await tellFamily(tx, actor, decided, decision) };
  });
  if (pushed) ctx.push.wake();
  return request;
}

/**
 * The family hears of the decision in the parent app, in its language, with a push to its devices: it
 * asked there, and learns there whether to send the child. True when a push was queued.
 */
async function tellFamily(tx: Queryable, actor: Actor, request: LeaveRequest, decision: LeaveDecision) {
  const phone = await findRequestFamilyPhone(tx, request.id);
  if (!phone) return false;
  const language = await findFamilyLanguage(tx, phone);
  const texts = familyTexts(language).leaveDecided;
  const from = familyDate(request.from_date, language);
  const to = request.to_date === request.from_date ? null : familyDate(request.to_date, language);
  const noticeId = await insertFamilyNotice(tx, {
    kind: 'leave_notice',
    phone,
    recipientName: await findParentName(tx, phone),
    subject: texts.subject[decision],
    message: texts.notice(decision, request.student_name, from, to),
    language,
    sender: actor,
    studentId: request.student_id,
  });
  return notifyFamilyDevices(tx, noticeId);
}
