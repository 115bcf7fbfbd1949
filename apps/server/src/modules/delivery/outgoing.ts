import {
  fillPlaceholders,
  type MessageKind,
  type ParentLanguage,
  placeholdersIn,
  type TemplatePlaceholder,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../lib/activity-log';
import type { TemplateForSending } from '../templates';
import {
  type FamilyChannels,
  insertMessages,
  insertSend,
  insertWhatsappAttempts,
  type NewMessage,
  type NewWhatsappAttempt,
} from './outgoing-repository';
import { enqueuePushes } from './push-repository';
import { conversationsToday } from './whatsapp-repository';

/** What one family is to get: the in-app text, and how the same message reads as a WhatsApp template. */
export interface FamilyMessage {
  family: FamilyChannels;
  kind: MessageKind;
  subject: string;
  body: string;
  language: ParentLanguage;
  studentId: number | null;
  attendanceId: number | null;
  /** The approved template, or null when the centre mapped none (WhatsApp then cannot carry it). */
  whatsapp: { template: string; language: string; parameters: string[]; buttons: boolean } | null;
}

export interface QueuedSend {
  messageIds: number[];
  /** Families (distinct phones, each once on its best channel) the parent app reaches, WhatsApp, none. */
  inApp: number;
  whatsapp: number;
  unreachable: number;
  /** WhatsApp attempts due now that are over the daily limit: they wait for its next window. */
  whatsappWaiting: number;
}

export const UNREACHABLE_REASON = 'No channel reaches this family: no parent app notifications and no WhatsApp opt-in.';
const NO_TEMPLATE_REASON =
  'No channel reaches this family: no parent app notifications, and no approved WhatsApp template is set for this message (Templates tab).';

/**
 * Stores one message per family and queues it on the first channel that can reach the family (ADR 023):
 * the parent app when it has a device (and WhatsApp after `whatsapp_fallback_minutes` when it opted
 * in), else WhatsApp when it opted in, else nothing (stored `failed`, on the call list). All in the
 * caller's transaction, so the messages, their attempts and their outbox rows exist together or not at
 * all. The caller wakes the senders after the commit (`wakeSenders`).
 */
export async function queueFamilyMessages(
  ctx: AppContext,
  tx: Queryable,
  send: { kind: MessageKind; subject: string; recipients: string | null; templateId: number | null; sender: Actor },
  messages: readonly FamilyMessage[],
  fallbackMinutes: number,
): Promise<QueuedSend> {
  const whatsappOn = whatsappIsOn(ctx);
  const channelOf = (message: FamilyMessage): 'push' | 'inbox' | 'whatsapp' | 'none' => {
    if (message.family.has_device) return 'push';
    if (message.family.has_inbox) return 'inbox';
    return familyChannel(whatsappOn, message.family, message.whatsapp !== null) === 'whatsapp' ? 'whatsapp' : 'none';
  };
  // No recipients: a message to one family alone (a fee receipt), listed in the history as the family's, with no send.
  const sendId = send.recipients === null ? null : await insertSend(tx, { ...send, recipients: send.recipients });
  const rows: NewMessage[] = messages.map((message) => {
    const channel = channelOf(message);
    const noTemplate = whatsappOn && message.family.opted_in && !message.whatsapp;
    return {
      message_type: channel === 'whatsapp' ? 'WHATSAPP' : 'IN_APP',
      kind: message.kind,
      subject: message.subject,
      message: message.body,
      recipient: message.family.phone,
      recipient_name: message.family.recipient_name,
      language: message.language,
      student_id: message.studentId,
      attendance_id: message.attendanceId,
      // In the inbox with nothing to push: there, waiting to be shown (which counts as delivered).
      delivery_status: channel === 'none' ? 'failed' : channel === 'inbox' ? 'sent' : 'queued',
      failure_reason: channel === 'none' ? (noTemplate ? NO_TEMPLATE_REASON : UNREACHABLE_REASON) : null,
    };
  });
  const ids = await insertMessages(tx, sendId, send.sender, rows);

  await enqueuePushes(
    tx,
    ids.filter((_, index) => channelOf(messages[index] as FamilyMessage) === 'push'),
  );

  const attempts: NewWhatsappAttempt[] = [];
  messages.forEach((message, index) => {
    const channel = channelOf(message);
    const id = ids[index] as number;
    if (!whatsappOn || !message.family.opted_in || !message.whatsapp || channel === 'none') return;
    const isFallback = channel === 'push' || channel === 'inbox';
    attempts.push({
      message_id: id,
      template: message.whatsapp.template,
      language: message.whatsapp.language,
      parameters: message.whatsapp.parameters,
      buttons: message.whatsapp.buttons,
      delay_ms: isFallback ? fallbackMinutes * 60_000 : 0,
      waiting_reason:
        isFallback && fallbackMinutes > 0
          ? `Waits ${fallbackMinutes} min for the parent app to confirm; sent on WhatsApp if it does not.`
          : null,
    });
  });
  await insertWhatsappAttempts(tx, attempts);

  let whatsappWaiting = 0;
  const limit = ctx.config.whatsapp?.dailyLimit;
  if (limit !== undefined) {
    const dueNow = attempts.filter((attempt) => attempt.delay_ms === 0);
    if (dueNow.length > 0) {
      const today = await conversationsToday(tx);
      const phoneOf = new Map(ids.map((id, index) => [id, (messages[index] as FamilyMessage).family.phone]));
      const newPhones = new Set(
        dueNow.map((attempt) => phoneOf.get(attempt.message_id) as string).filter((phone) => !today.phones.has(phone)),
      );
      whatsappWaiting = Math.max(0, newPhones.size - Math.max(0, limit - today.count));
    }
  }

  // A family with two alerts counts once, on the best channel any of its messages has.
  const best = new Map<string, 'app' | 'whatsapp' | 'none'>();
  for (const message of messages) {
    const channel = channelOf(message);
    const reach = channel === 'push' || channel === 'inbox' ? 'app' : channel;
    const before = best.get(message.family.phone);
    if (before === undefined || CHANNEL_ORDER.indexOf(reach) < CHANNEL_ORDER.indexOf(before)) {
      best.set(message.family.phone, reach);
    }
  }
  const counts = countByChannel(best.values());
  return { messageIds: ids, inApp: counts.app, whatsapp: counts.whatsapp, unreachable: counts.none, whatsappWaiting };
}

/** The channels a family can be reached on, best first (ADR 044). */
export type ReachChannel = 'app' | 'whatsapp' | 'none';
const CHANNEL_ORDER: readonly ReachChannel[] = ['app', 'whatsapp', 'none'];

/** WhatsApp is configured for the centre (its messages can go). */
export function whatsappIsOn(ctx: AppContext): boolean {
  return ctx.whatsapp !== undefined;
}

/**
 * The best channel that reaches a family, the one a send uses first: the parent app (a device with
 * notifications, or the inbox of a family signed in), else WhatsApp (opted in, WhatsApp on, and a
 * WhatsApp text for the message), else none: the family goes on the send list.
 */
export function familyChannel(
  whatsappOn: boolean,
  family: Pick<FamilyChannels, 'has_device' | 'has_inbox' | 'opted_in'>,
  hasWhatsappText: boolean,
): ReachChannel {
  if (family.has_device || family.has_inbox) return 'app';
  if (whatsappOn && family.opted_in && hasWhatsappText) return 'whatsapp';
  return 'none';
}

/** How many of `channels` are each channel. */
export function countByChannel(channels: Iterable<ReachChannel>): Record<ReachChannel, number> {
  const counts: Record<ReachChannel, number> = { app: 0, whatsapp: 0, none: 0 };
  for (const channel of channels) counts[channel] += 1;
  return counts;
}

/** After the commit: the push worker and the WhatsApp worker start on what was queued. */
export function wakeSenders(ctx: AppContext): void {
  ctx.push.wake();
  ctx.whatsappWorker?.wake();
}

/** What a template's placeholders are filled with, in the language of the text being filled. */
export type PlaceholderValues = (language: ParentLanguage) => Partial<Record<TemplatePlaceholder, string>>;

/**
 * The centre's template text for a family's language (else English), filled for the family, and the
 * approved WhatsApp template it maps to with its parameters in the order the text uses them. The
 * placeholders are filled in the language of the text they go into: a Hindi text gets the Hindi status
 * word and date, and the English text (the app's, or WhatsApp's when only English is approved) the
 * English ones, so no message mixes two languages.
 */
export function renderForFamily(
  template: TemplateForSending,
  language: ParentLanguage,
  valuesIn: PlaceholderValues,
  buttons: boolean,
): { language: ParentLanguage; body: string; whatsapp: FamilyMessage['whatsapp'] } {
  const own = template.texts[language];
  const english = template.texts.en;
  const text = own ?? english;
  const textLanguage: ParentLanguage = own ? language : 'en';
  const body = text ? fillPlaceholders(text.body, valuesIn(textLanguage)) : template.subject;
  // WhatsApp needs the text and the approved template of one language: the family's, else English.
  const mapped = own?.whatsapp_template
    ? { text: own, language: textLanguage }
    : english?.whatsapp_template
      ? { text: english, language: 'en' as const }
      : undefined;
  const mappedValues: Partial<Record<TemplatePlaceholder, string>> = mapped ? valuesIn(mapped.language) : {};
  const whatsapp = mapped
    ? {
        template: mapped.text.whatsapp_template as string,
        language: mapped.language,
        parameters: placeholdersIn(mapped.text.body).map((name) => mappedValues[name as TemplatePlaceholder] ?? ''),
        buttons,
      }
    : null;
  return { language: textLanguage, body, whatsapp };
}
