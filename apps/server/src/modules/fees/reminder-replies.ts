/**
 * A family's answer to a fee reminder (issue 29, ADR 061), from the parent app or a WhatsApp button:
 * "Paid already" opens a match task for the admin, "Will pay on …" is a promise that pauses the
 * family's reminders until that day, "Please call me" puts the reminder on the call list. One answer
 * per reminder, written in one transaction with what it does.
 */
import { FEE_PROMISE_MAX_DAYS, type FeeReminderReplyRequest } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { recordActivity } from '../../lib/activity-log';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { addDays, today } from '../../lib/time';
import { messageReached } from '../delivery';
import {
  insertAnswer,
  insertMatchTask,
  lockFeeReminder,
  markOpened,
  type ReplyVia,
  requestCall,
} from './reminder-replies-repository';

/** What a family answered: on WhatsApp "Paid already" comes first and its reference in the next text. */
export type FeeAnswer =
  | { reply: 'paid'; reference: string | null }
  | { reply: 'will_pay'; date: string }
  | { reply: 'call' };

export interface FeeAnswerInput {
  phone: string;
  messageId: number;
  via: ReplyVia;
  answer: FeeAnswer;
}

export type FeeAnswerOutcome = 'recorded' | 'already' | 'not-found';

/** The days a promise may name, from the centre's today: tomorrow to FEE_PROMISE_MAX_DAYS ahead. */
export function promiseWindow(now = new Date()): { first: string; last: string } {
  const day = today(now);
  return { first: addDays(day, 1), last: addDays(day, FEE_PROMISE_MAX_DAYS) };
}

/** Whether `date` (yyyy-MM-dd) is a real day inside the promise window. */
export function isPromiseDay(date: string, now = new Date()): boolean {
  const { first, last } = promiseWindow(now);
  return addDays(date, 0) === date && date >= first && date <= last;
}

/** Records the answer and what it does, in the caller's transaction. */
export async function recordFeeAnswerIn(tx: Queryable, input: FeeAnswerInput): Promise<FeeAnswerOutcome> {
  const reminder = await lockFeeReminder(tx, input.phone, input.messageId);
  if (!reminder) return 'not-found';
  if (reminder.answered) return 'already';
  const { answer, via } = input;
  const reference = answer.reply === 'paid' ? answer.reference : null;
  const promisedOn = answer.reply === 'will_pay' ? answer.date : null;
  const inserted = await insertAnswer(tx, {
    messageId: reminder.id,
    familyId: reminder.family_id,
    reply: answer.reply,
    reference,
    promisedOn,
    via,
  });
  if (!inserted) return 'already';
  if (answer.reply === 'paid') {
    await insertMatchTask(tx, { familyId: reminder.family_id, messageId: reminder.id, reference, via });
  }
  if (answer.reply === 'call') await requestCall(tx, reminder.id, via === 'parent_app');
  else if (via === 'parent_app') await markOpened(tx, reminder.id);
  // The parent saw it, on the channel they answered from: a fallback still waiting is pointless.
  await messageReached(tx, reminder.id, via === 'whatsapp' ? 'answered_on_whatsapp' : 'answered_in_app');
  const actor = { id: null, full_name: reminder.recipient_name ?? `Parent (${input.phone})` };
  if (answer.reply === 'paid' && reference !== null) {
    await recordActivity(tx, actor, 'fees.reminder_answered', 'fees.reminder_paid', { reference, via });
  } else if (answer.reply === 'paid') {
    await recordActivity(tx, actor, 'fees.reminder_answered', 'fees.reminder_paid_no_reference', {});
  } else if (answer.reply === 'will_pay') {
    await recordActivity(tx, actor, 'fees.reminder_answered', 'fees.reminder_will_pay', { date: answer.date, via });
  } else {
    await recordActivity(tx, actor, 'fees.reminder_answered', 'fees.reminder_call', { via });
  }
  return 'recorded';
}

/**
 * POST /parent/messages/{id}/fee-reply: the family's answer from the parent app. 404 when the message
 * is not this family's fee reminder, 409 when it was answered already, 422 for a day outside the
 * promise window (nothing recorded).
 */
export async function answerFeeReminder(
  ctx: AppContext,
  phone: string,
  messageId: number,
  request: FeeReminderReplyRequest,
): Promise<void> {
  let answer: FeeAnswer;
  if (request.reply === 'will_pay') {
    if (!isPromiseDay(request.date)) throw new ValidationError('date', 'validation.promise_date', promiseWindow());
    answer = { reply: 'will_pay', date: request.date };
  } else if (request.reply === 'paid') {
    answer = { reply: 'paid', reference: request.reference.trim() };
  } else {
    answer = { reply: 'call' };
  }
  const outcome = await ctx.db.transaction((tx) =>
    recordFeeAnswerIn(tx, { phone, messageId, via: 'parent_app', answer }),
  );
  if (outcome === 'not-found') throw new NotFoundError('fees.reminder_not_found');
  if (outcome === 'already') throw new ConflictError('fees.reminder_answered');
}
