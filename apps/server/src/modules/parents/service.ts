import {
  type ChildAttendance,
  type DeliveryStatus,
  formatAccessCode,
  normaliseAccessCode,
  type ParentAccessIssued,
  type ParentAccessStatus,
  type ParentInbox,
  type ParentLoginResponse,
  type ParentMessage,
  type ParentProfile,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import { addDays, today } from '../../lib/time';
import { assertNotThrottled, clearFailures, recordFailure } from '../auth/throttle';
import { generateAccessCode, hashAccessCode, verifyAccessCode } from './access-codes';
import {
  type AccessStudent,
  countPushSubscriptions,
  countUnread,
  deleteOutboxRows,
  deletePushSubscriptions,
  findApprovedAttendance,
  findChild,
  findChildren,
  findParentAccess,
  findParentName,
  findStudentForAccess,
  listInbox,
  markDelivered,
  markRead,
  recordSignIn,
  upsertParentAccess,
} from './repository';

const INCORRECT = 'Phone number or access code is incorrect';
const FIRST_CODE_MESSAGE = 'Access code issued. Give it to the parent now: it cannot be shown again.';
const NEW_CODE_MESSAGE =
  "New access code issued. The parent's devices have been signed out. Give them the new code: it cannot be shown again.";

async function requireStudent(db: Queryable, studentId: number): Promise<AccessStudent> {
  const student = await findStudentForAccess(db, studentId);
  if (!student) throw new NotFoundError('Student not found');
  return student;
}

async function accessStatus(db: Queryable, phone: string): Promise<ParentAccessStatus> {
  const [children, parentName, access, devices] = [
    await findChildren(db, phone),
    await findParentName(db, phone),
    await findParentAccess(db, phone),
    await countPushSubscriptions(db, phone),
  ];
  return {
    phone,
    parent_name: parentName,
    children,
    has_code: access !== undefined,
    issued_at: access?.issued_at ?? null,
    issued_by: access?.issued_by ?? null,
    last_sign_in_at: access?.last_sign_in_at ?? null,
    devices_with_notifications: devices,
  };
}

/** The state of a student's parent's access; never the code, which is not stored. */
export async function getParentAccess(ctx: AppContext, studentId: number): Promise<ParentAccessStatus> {
  const student = await requireStudent(ctx.db, studentId);
  return accessStatus(ctx.db, student.parent_phone);
}

/**
 * Issues a new code for the student's parent phone. Issuing again replaces the hash, bumps the token
 * version (every device signed in with the old code is signed out) and drops the phone's push
 * subscriptions, all in one transaction with the activity row. The code is answered once, here.
 */
export async function issueParentAccess(ctx: AppContext, actor: Actor, studentId: number): Promise<ParentAccessIssued> {
  await requireStudent(ctx.db, studentId);
  const code = generateAccessCode();
  // Hashed before the transaction: no connection waits on scrypt.
  const codeHash = await hashAccessCode(code);
  const { status, isFirst } = await ctx.db.transaction(async (tx) => {
    const student = await requireStudent(tx, studentId);
    const access = await upsertParentAccess(tx, student.parent_phone, codeHash, actor);
    const first = access.token_version === 0;
    if (!first) await deletePushSubscriptions(tx, student.parent_phone);
    const current = await accessStatus(tx, student.parent_phone);
    await recordActivity(
      tx,
      actor,
      first ? 'parents.access_issued' : 'parents.access_reissued',
      `${actor.full_name} ${first ? 'issued' : 'issued a new'} parent access code for ${current.parent_name} (${
        student.parent_phone
      })`,
    );
    return { status: current, isFirst: first };
  });
  return { ...status, code: formatAccessCode(code), message: isFirst ? FIRST_CODE_MESSAGE : NEW_CODE_MESSAGE };
}

async function parentProfile(db: Queryable, phone: string): Promise<ParentProfile> {
  return { phone, parent_name: await findParentName(db, phone), children: await findChildren(db, phone) };
}

/** Throttled like staff sign-in: per phone and per client address (keys `parent:<phone>`, `ip:<address>`). */
export async function parentLogin(
  ctx: AppContext,
  phone: string,
  typedCode: string,
  clientIp: string,
): Promise<ParentLoginResponse> {
  // The phone counts as a username (5 failures); the address key is the one staff sign-in uses.
  const phoneKey = { kind: 'user' as const, key: `parent:${phone}` };
  const keys = [phoneKey, { kind: 'ip' as const, key: `ip:${clientIp}` }];
  await assertNotThrottled(ctx.db, keys);
  const code = normaliseAccessCode(typedCode);
  const access = await findParentAccess(ctx.db, phone);
  // Hash either way, so an unknown phone or a malformed code takes as long as a wrong code.
  const isValid = await verifyAccessCode(code, access?.code_hash);
  if (!access || !isValid) {
    await recordFailure(ctx.db, keys);
    throw new UnauthorizedError(INCORRECT);
  }
  await clearFailures(ctx.db, phoneKey.key);
  await recordSignIn(ctx.db, phone);
  return {
    access_token: await ctx.tokens.signParent({ phone, tokenVersion: access.token_version }),
    token_type: 'bearer',
    expires_in: ctx.tokens.parentExpiresInSeconds,
    parent: await parentProfile(ctx.db, phone),
  };
}

export function getParentProfile(ctx: AppContext, phone: string): Promise<ParentProfile> {
  return parentProfile(ctx.db, phone);
}

export async function getInbox(ctx: AppContext, phone: string, limit: number, offset: number): Promise<ParentInbox> {
  return {
    messages: await listInbox(ctx.db, phone, limit, offset),
    unread_count: await countUnread(ctx.db, phone),
  };
}

/** Opening a message proves it arrived: read, delivered, and no longer worth a push. */
export async function readMessage(ctx: AppContext, phone: string, messageId: number): Promise<ParentMessage> {
  const message = await ctx.db.transaction(async (tx) => {
    const updated = await markRead(tx, phone, messageId);
    if (updated) await deleteOutboxRows(tx, messageId);
    return updated;
  });
  if (!message) throw new NotFoundError('Message not found');
  return message;
}

export async function confirmReceipt(
  ctx: AppContext,
  receipt: string,
): Promise<{ message_id: number; delivery_status: DeliveryStatus }> {
  const messageId = await ctx.tokens.verifyReceipt(receipt);
  if (messageId === undefined) throw new BadRequestError('This delivery receipt is not valid');
  const message = await markDelivered(ctx.db, messageId);
  if (!message) throw new NotFoundError('Message not found');
  return { message_id: message.id, delivery_status: message.delivery_status };
}

export const CHILD_ATTENDANCE_DEFAULT_DAYS = 30;
export const CHILD_ATTENDANCE_MAX_DAYS = 90;

export async function getChildAttendance(
  ctx: AppContext,
  phone: string,
  studentId: number,
  days: number,
): Promise<ChildAttendance> {
  const child = await findChild(ctx.db, phone, studentId);
  if (!child) throw new NotFoundError('Student not found');
  const toDate = today();
  const fromDate = addDays(toDate, -(days - 1));
  const records = await findApprovedAttendance(ctx.db, child.id, fromDate, toDate);
  const totals = { present: 0, absent: 0, late: 0, leave: 0 };
  for (const record of records) totals[record.status] += 1;
  return { child, from_date: fromDate, to_date: toDate, days: records, totals };
}
