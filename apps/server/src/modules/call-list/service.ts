import type { CallList, CallListItem } from '@tuitiondesk/contract';
import { activityWords } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { NotFoundError } from '../../lib/errors';
import { readMessagingSettings } from '../delivery';
import { countFamiliesToDo, type ListRow, listSendList, markCalled, markSentByHand } from './repository';

/**
 * What the staff member sends from their own phone: the message as the family got it in the app, in
 * its language (the stored text is what delivery rendered for the family), after the centre's name.
 */
export function handText(centreName: string, row: Pick<ListRow, 'subject' | 'message'>): string {
  return `${centreName}: ${row.subject}\n\n${row.message}`;
}

/** WhatsApp's click-to-chat: the number in digits only (country code, no +), the text filled in. */
export function whatsappLink(phone: string, text: string): string {
  return `https://wa.me/${phone.replace(/\D/g, '')}?text=${encodeURIComponent(text)}`;
}

/**
 * An SMS with the text filled in: `sms:+91…?&body=…` is read by both Android (`?body=`) and iOS
 * (`&body=`, iOS 8 and later), one link for whichever phone the staff member has.
 */
export function smsLink(phone: string, text: string): string {
  return `sms:+${phone.replace(/\D/g, '')}?&body=${encodeURIComponent(text)}`;
}

export async function getCallList(ctx: AppContext): Promise<CallList> {
  const { not_reached_minutes, centre_name } = await readMessagingSettings(ctx.db);
  const [rows, counts] = await Promise.all([
    listSendList(ctx.db, not_reached_minutes),
    countFamiliesToDo(ctx.db, not_reached_minutes),
  ]);
  const items: CallListItem[] = rows.map(({ message, ...row }) => {
    const text = handText(centre_name, { subject: row.subject, message });
    return { ...row, text, whatsapp_link: whatsappLink(row.phone, text), sms_link: smsLink(row.phone, text) };
  });
  return { items, waiting_count: counts.to_do, not_reached_families: counts.not_reached, not_reached_minutes };
}

/** Families a message of the last week did not reach (the shared definition, ADR 044). */
export async function familiesNotReached(ctx: AppContext): Promise<number> {
  const { not_reached_minutes } = await readMessagingSettings(ctx.db);
  return (await countFamiliesToDo(ctx.db, not_reached_minutes)).not_reached;
}

/** Families with something still to do on the list: a call asked for, or a message to send by hand. */
export async function familiesToCall(ctx: AppContext): Promise<number> {
  const { not_reached_minutes } = await readMessagingSettings(ctx.db);
  return (await countFamiliesToDo(ctx.db, not_reached_minutes)).to_do;
}

/** Ticks a family called (or unticks a mistake), with an activity row. */
export async function setCalled(ctx: AppContext, actor: Actor, messageId: number, called: boolean): Promise<CallList> {
  const { not_reached_minutes } = await readMessagingSettings(ctx.db);
  await ctx.db.transaction(async (tx) => {
    const message = await markCalled(tx, messageId, not_reached_minutes, called ? actor.full_name : null);
    if (!message) throw new NotFoundError('call_list.not_found');
    const family = message.recipient_name ?? message.recipient;
    await recordActivity(
      tx,
      actor,
      called ? 'messages.family_called' : 'messages.family_call_undone',
      called
        ? activityWords('messages.family_called', { family, phone: message.recipient, subject: message.subject })
        : activityWords('messages.family_call_undone', { family, phone: message.recipient }),
    );
  });
  return getCallList(ctx);
}

/**
 * Marks a message the family never got as sent by hand (ADR 044): once, with who and when, its
 * activity row, and its audit row by the messages trigger, in one transaction. A second tick (two
 * staff at once, or a retry) finds it done and changes nothing: the same answer, no second row.
 */
export async function setSentByHand(ctx: AppContext, actor: Actor, messageId: number): Promise<CallList> {
  const { not_reached_minutes } = await readMessagingSettings(ctx.db);
  await ctx.db.transaction(async (tx) => {
    const message = await markSentByHand(tx, messageId, not_reached_minutes, actor);
    if (!message) throw new NotFoundError('call_list.not_found');
    if (!message.changed) return;
    await recordActivity(
      tx,
      actor,
      'messages.sent_by_hand',
      activityWords('messages.sent_by_hand', {
        family: message.recipient_name ?? message.recipient,
        phone: message.recipient,
        subject: message.subject,
      }),
    );
  });
  return getCallList(ctx);
}
