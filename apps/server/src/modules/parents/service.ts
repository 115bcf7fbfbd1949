import {
  type ChildAttendance,
  type DeliveryStatus,
  type FeeReminderReplyRequest,
  normaliseAccessCode,
  type ParentInbox,
  type ParentLoginResponse,
  type ParentMessage,
  type ParentProfile,
  type ParentReply,
  type ParentWhatsapp,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { recordActivity } from '../../lib/activity-log';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import { addDays, today } from '../../lib/time';
import type { ParentTokenClaims } from '../../lib/tokens';
import { keptSession } from '../../lib/versioned-answer';
import type { AuthenticatedParent } from '../../plugins/authentication';
import { POLICIES, parentAccount, releaseAttempt, rememberAddress, reserveAttempt } from '../auth';
import { failQueuedForPhone } from '../delivery';
import {
  findChild,
  findChildren,
  findParentAccess,
  findParentName,
  readFamily,
  recordSignIn,
  setFamilyWhatsappConsent,
  verifyAccessCode,
} from '../families';
import { answerFeeReminder } from '../fees';
import { familyName, recordParentReply } from '../messages';
import { hasCurrentChild } from '../students';
import {
  countUnread,
  findApprovedAttendance,
  findInboxMessage,
  listInbox,
  markDelivered,
  markRead,
  markShown,
} from './repository';

// Issuing and replacing access codes, and who may: family-access.ts.

export type { AuthenticatedParent } from '../../plugins/authentication';

/**
 * The parent a verified parent token speaks for, or undefined when that session has ended: the phone
 * has no access code any more, a new code was issued for it since the token was signed, or none of its
 * children attends any more (every one left). Kept under the families' and students' versions, like a
 * staff session (auth/session.ts).
 */
export async function findParentSession(
  ctx: AppContext,
  request: object,
  claims: ParentTokenClaims,
): Promise<AuthenticatedParent | undefined> {
  return keptSession(
    ctx,
    request,
    ['families', 'students'],
    `parent=${claims.phone}`,
    claims.tokenVersion,
    async () => {
      const access = await findParentAccess(ctx.db, claims.phone);
      if (!access || !(await hasCurrentChild(ctx.db, access.phone))) return null;
      return { token_version: access.token_version, session: { phone: access.phone } };
    },
  );
}

const INCORRECT = 'parents.incorrect_access';
const NO_CHILD_ATTENDING = 'parents.no_child_attending';

async function parentProfile(db: Queryable, phone: string): Promise<ParentProfile> {
  return { phone, parent_name: await findParentName(db, phone), children: await findChildren(db, phone) };
}

/** Throttled like staff sign-in, the phone standing for the account (auth/throttle.ts). */
export async function parentLogin(
  ctx: AppContext,
  phone: string,
  typedCode: string,
  clientIp: string,
): Promise<ParentLoginResponse> {
  // Reserved before the hash: a burst of guesses sent at once is checked no further than the limit.
  const attempt = await reserveAttempt(ctx.db, POLICIES.secret, parentAccount(phone), clientIp);
  const code = normaliseAccessCode(typedCode);
  const access = await findParentAccess(ctx.db, phone);
  // Hash either way, so an unknown phone or a malformed code takes as long as a wrong code.
  const isValid = await verifyAccessCode(code, access?.code_hash);
  if (!access || !isValid) throw new UnauthorizedError(INCORRECT);
  // Told only to the holder of the right code: a family whose children all left keeps no access.
  if (!(await hasCurrentChild(ctx.db, phone))) throw new ForbiddenError(NO_CHILD_ATTENDING);
  await releaseAttempt(ctx.db, attempt);
  await rememberAddress(ctx.db, attempt);
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
  const message = await ctx.db.transaction((tx) => markRead(tx, phone, messageId));
  if (!message) throw new NotFoundError('parents.message_not_found');
  return message;
}

/** The inbox showed these messages on screen: delivered, whatever the push did (ADR 044). */
export async function messagesShown(
  ctx: AppContext,
  phone: string,
  ids: readonly number[],
): Promise<{ delivered: number }> {
  return { delivered: await ctx.db.transaction((tx) => markShown(tx, phone, ids)) };
}

/** A one-tap answer to an absence or late alert, from the parent app. */
export async function replyToAlert(
  ctx: AppContext,
  phone: string,
  messageId: number,
  reply: ParentReply,
): Promise<ParentMessage> {
  const outcome = await recordParentReply(ctx, { phone, messageId, reply, via: 'parent_app' });
  if (outcome === 'not-found') throw new NotFoundError('parents.alert_not_found');
  if (outcome === 'already') throw new ConflictError('parents.alert_already_answered');
  return (await findInboxMessage(ctx.db, phone, messageId)) as ParentMessage;
}

/** An answer to a fee reminder, from the parent app (ADR 061): Paid already, Will pay on …, Please call me. */
export async function replyToFeeReminder(
  ctx: AppContext,
  phone: string,
  messageId: number,
  request: FeeReminderReplyRequest,
): Promise<ParentMessage> {
  await answerFeeReminder(ctx, phone, messageId, request);
  return (await findInboxMessage(ctx.db, phone, messageId)) as ParentMessage;
}

export async function getWhatsappChoice(ctx: AppContext, phone: string): Promise<ParentWhatsapp> {
  return { opted_in: (await readFamily(ctx.db, phone))?.opted_in === true, available: ctx.whatsapp !== undefined };
}

/**
 * The parent's own choice from the app: WhatsApp on or off for the whole family, at once. Turning it
 * off stops WhatsApp messages still waiting to go.
 */
export async function setWhatsappChoice(ctx: AppContext, phone: string, optedIn: boolean): Promise<ParentWhatsapp> {
  await ctx.db.transaction(async (tx) => {
    const changed = await setFamilyWhatsappConsent(tx, phone, optedIn, {
      source: 'parent_app',
      changedBy: 'Parent (parent app)',
    });
    if (!changed) return;
    if (!optedIn) await failQueuedForPhone(tx, phone, 'The parent opted out of WhatsApp messages.');
    const who = await familyName(tx, phone);
    await recordActivity(
      tx,
      { id: null, full_name: who },
      optedIn ? 'messages.whatsapp_opt_in' : 'messages.whatsapp_opt_out',
      optedIn ? 'messages.whatsapp_on_in_app' : 'messages.whatsapp_off_in_app',
      { phone },
    );
  });
  return getWhatsappChoice(ctx, phone);
}

export async function confirmReceipt(
  ctx: AppContext,
  receipt: string,
): Promise<{ message_id: number; delivery_status: DeliveryStatus }> {
  const messageId = await ctx.tokens.verifyReceipt(receipt);
  if (messageId === undefined) throw new BadRequestError('parents.receipt_invalid');
  const message = await ctx.db.transaction((tx) => markDelivered(tx, messageId));
  if (!message) throw new NotFoundError('parents.message_not_found');
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
  if (!child) throw new NotFoundError('student.not_found');
  const toDate = today();
  const fromDate = addDays(toDate, -(days - 1));
  const records = await findApprovedAttendance(ctx.db, child.id, fromDate, toDate);
  const totals = { present: 0, absent: 0, late: 0, leave: 0 };
  for (const record of records) totals[record.status] += 1;
  return { child, from_date: fromDate, to_date: toDate, days: records, totals };
}
