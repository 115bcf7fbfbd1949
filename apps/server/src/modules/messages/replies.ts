import { PARENT_REPLY_LABELS, type ParentReply } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { recordActivity } from '../../lib/activity-log';
import { readableDate } from '../../lib/time';
import { messageReached } from '../delivery';
import { lockAlert, recordReply, writeParentReason } from './replies-repository';

export type ReplyChannel = 'whatsapp' | 'parent_app';

/**
 * Records a parent's one-tap reply to an alert sent to `phone`: on the alert (once: the first answer
 * stands), as the parent's reason on the day's record, on the call list for "Please call me", and in
 * the activity feed. Answering shows the parent saw it: the alert counts as read.
 */
export async function recordParentReply(ctx: AppContext, input: ParentReplyInput): Promise<ReplyOutcome> {
  return ctx.db.transaction((tx) => recordParentReplyIn(tx, input));
}

export interface ParentReplyInput {
  phone: string;
  messageId: number;
  reply: ParentReply;
  via: ReplyChannel;
}

export type ReplyOutcome = 'recorded' | 'already' | 'not-found';

/** recordParentReply inside a transaction the caller holds (a WhatsApp reply: with the message that carried it). */
export async function recordParentReplyIn(tx: Queryable, input: ParentReplyInput): Promise<ReplyOutcome> {
  const alert = await lockAlert(tx, input.phone, input.messageId);
  if (!alert) return 'not-found';
  if (alert.reply !== null) return 'already';
  const label = PARENT_REPLY_LABELS[input.reply];
  await recordReply(tx, alert.id, input.reply, input.via === 'parent_app');
  if (alert.attendance_id !== null) await writeParentReason(tx, alert.attendance_id, label);
  // The parent saw it, on the channel they answered from: a fallback still waiting and pushes still
  // queued for it are pointless.
  await messageReached(tx, alert.id, input.via === 'whatsapp' ? 'answered_on_whatsapp' : 'answered_in_app');
  const who = alert.recipient_name ?? `Parent (${input.phone})`;
  if (alert.student_name && alert.date) {
    await recordActivity(tx, { id: null, full_name: who }, 'messages.parent_replied', 'messages.parent_replied', {
      reply: input.reply,
      kind: alert.kind,
      name: alert.student_name,
      date: alert.date,
      via: input.via,
    });
  } else {
    // An alert without its student or day (not written today) keeps its English sentence only.
    const about = `the ${alert.kind === 'late_alert' ? 'late' : 'absence'} alert${
      alert.student_name ? ` for ${alert.student_name}` : ''
    }${alert.date ? ` on ${readableDate(alert.date)}` : ''}`;
    await recordActivity(
      tx,
      { id: null, full_name: who },
      'messages.parent_replied',
      `${who} replied "${label}" to ${about} (${input.via === 'whatsapp' ? 'WhatsApp' : 'parent app'})`,
    );
  }
  return 'recorded';
}
