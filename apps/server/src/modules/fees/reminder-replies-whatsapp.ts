/**
 * A fee reminder answered on WhatsApp (ADR 061). A button carries only the choice, so "Paid already"
 * asks for the payment reference and "Will pay on …" for the day, each in the family's language, and
 * the parent's next text within the day fills it in. A day that cannot be read is asked for once more;
 * then the family goes on the call list. Runs inside the inbound message's transaction; the text to
 * send back is answered to the caller, which queues it (messages owns the one-off WhatsApp).
 */
import { FEE_PROMISE_MAX_DAYS, type FeeReminderReply, type ParentLanguage } from '@tuitiondesk/contract';
import { formatErrorText } from '@tuitiondesk/contract/error-codes';
import bn from '@tuitiondesk/contract/texts/fee-replies/bn.json';
import en from '@tuitiondesk/contract/texts/fee-replies/en.json';
import hi from '@tuitiondesk/contract/texts/fee-replies/hi.json';
import mr from '@tuitiondesk/contract/texts/fee-replies/mr.json';
import ta from '@tuitiondesk/contract/texts/fee-replies/ta.json';
import ur from '@tuitiondesk/contract/texts/fee-replies/ur.json';
import type { Queryable } from '../../db/database';
import { addDays, readableDateIn } from '../../lib/time';
import { parseFeeReplyPayload } from '../delivery';
import { findFamilyLanguage } from '../families';
import { isPromiseDay, promiseWindow, recordFeeAnswerIn } from './reminder-replies';
import { fillWaitingReference, findPendingTap, lockFeeReminder } from './reminder-replies-repository';

type ReplyTextKey = keyof typeof en;
const TEXTS: Record<ParentLanguage, Readonly<Partial<Record<ReplyTextKey, string>>>> = { en, hi, mr, ta, bn, ur };

/** What the parent is told back; null when nothing is said. */
export interface FeeWhatsappAnswer {
  handled: boolean;
  say: { text: string; language: ParentLanguage } | null;
}

async function saying(
  tx: Queryable,
  phone: string,
  key: ReplyTextKey,
  params: (language: ParentLanguage) => Record<string, string> = () => ({}),
): Promise<FeeWhatsappAnswer> {
  const language = await findFamilyLanguage(tx, phone);
  const text = formatErrorText(TEXTS[language][key] ?? en[key], params(language));
  return { handled: true, say: { text, language } };
}

/** A fee reminder's button tapped: "Please call me" at once, the other two ask their question. */
export async function receiveFeeTapIn(
  tx: Queryable,
  input: { phone: string; messageId: number; reply: FeeReminderReply },
): Promise<FeeWhatsappAnswer> {
  const { phone, messageId, reply } = input;
  if (reply === 'will_pay') {
    // The promise is recorded with its day, from the next text: nothing yet but the question.
    const reminder = await lockFeeReminder(tx, phone, messageId);
    if (!reminder || reminder.answered) return { handled: false, say: null };
    return saying(tx, phone, 'ask_date');
  }
  const answer = reply === 'paid' ? { reply, reference: null } : { reply };
  const outcome = await recordFeeAnswerIn(tx, { phone, messageId, via: 'whatsapp', answer });
  if (outcome !== 'recorded') return { handled: false, say: null };
  return reply === 'paid' ? saying(tx, phone, 'ask_reference') : { handled: true, say: null };
}

/**
 * A plain text: the day after a "Will pay on …" tap, or the reference after a "Paid already", when one
 * is awaited (the latest tap of the last 24 hours decides which); else not ours.
 */
export async function receiveFeeFollowUpIn(
  tx: Queryable,
  input: { phone: string; body: string; at: Date; providerMessageId: string },
): Promise<FeeWhatsappAnswer> {
  const { phone, body, at } = input;
  const tap = await findPendingTap(tx, phone, at, input.providerMessageId);
  const tapped = tap ? parseFeeReplyPayload(tap.payload) : undefined;
  if (tap && tapped?.reply === 'will_pay' && tap.texts_since < 2) {
    const reminder = await lockFeeReminder(tx, phone, tapped.messageId);
    if (reminder && !reminder.answered) {
      const date = readPromiseDate(body);
      const messageId = tapped.messageId;
      if (date !== undefined) {
        await recordFeeAnswerIn(tx, { phone, messageId, via: 'whatsapp', answer: { reply: 'will_pay', date } });
        return saying(tx, phone, 'promise_confirmed', (language) => ({ date: readableDateIn(date, language) }));
      }
      if (tap.texts_since === 0)
        return saying(tx, phone, 'ask_date_again', () => ({ days: `${FEE_PROMISE_MAX_DAYS}` }));
      await recordFeeAnswerIn(tx, { phone, messageId, via: 'whatsapp', answer: { reply: 'call' } });
      return saying(tx, phone, 'call_instead');
    }
  }
  const reference = body.trim().slice(0, 35).trim();
  if (reference === '' || !(await fillWaitingReference(tx, phone, reference, at))) return { handled: false, say: null };
  return { handled: true, say: null };
}

const DATE_TEXT = /^(\d{1,2})(?:\s*[/.-]\s*(\d{1,2})(?:\s*[/.-]\s*(\d{4}|\d{2}))?)?$/;

function isoDay(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * A day as a parent writes it: d/m, d/m/yyyy (or yy), d-m, d.m, or a bare day of the month (the next
 * such day); without a year, the next such day from tomorrow. Undefined when it is not one, or falls
 * outside the promise window.
 */
export function readPromiseDate(text: string, now = new Date()): string | undefined {
  const match = DATE_TEXT.exec(text.trim().replace(/[.।]+$/, ''));
  if (!match) return undefined;
  const { first } = promiseWindow(now);
  const day = Number(match[1]);
  let date: string | undefined;
  if (match[2] === undefined) {
    for (let ahead = 0; ahead <= FEE_PROMISE_MAX_DAYS && date === undefined; ahead += 1) {
      const candidate = addDays(first, ahead);
      if (Number(candidate.slice(8, 10)) === day) date = candidate;
    }
  } else {
    const month = Number(match[2]);
    const written = match[3];
    const year =
      written === undefined ? Number(first.slice(0, 4)) : Number(written.length === 2 ? `20${written}` : written);
    date = isoDay(year, month, day);
    if (written === undefined && date < first) date = isoDay(year + 1, month, day);
  }
  return date !== undefined && isPromiseDay(date, now) ? date : undefined;
}
