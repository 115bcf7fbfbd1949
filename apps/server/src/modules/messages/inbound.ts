import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { recordActivity } from '../../lib/activity-log';
import { failQueuedForPhone, parseFeeReplyPayload, parseReplyPayload, readMessagingSettings } from '../delivery';
import { familyTexts, findFamilyLanguage, setFamilyWhatsappConsent } from '../families';
import { type FeeWhatsappAnswer, receiveFeeFollowUpIn, receiveFeeTapIn } from '../fees';
import { familyName, findMessageByProviderId, insertInbound } from './inbound-repository';
import { recordParentReplyIn } from './replies';
import { insertOneOffWhatsapp } from './repository';

/** A parent's WhatsApp message as the callback carries it (the parts used). */
export interface InboundWhatsapp {
  from: string;
  id: string;
  timestamp: Date;
  type: string;
  text?: { body: string };
  button?: { payload?: string; text?: string };
  interactive?: { button_reply?: { id: string; title?: string } };
  context?: { id?: string };
}

/** What one inbound message came to, for the callback's counts. */
export type InboundOutcome = 'duplicate' | 'stored' | 'reply' | 'opt-out' | 'opt-in';

/**
 * Words that opt a family out when they are the whole message, in the languages families are written
 * to (compared lower-cased, without punctuation or extra spaces). START opts back in.
 */
export const STOP_WORDS = new Set([
  'stop',
  'stop all',
  'unsubscribe',
  'opt out',
  'optout',
  'रोकें',
  'रोको',
  'बंद',
  'बंद करें',
  'बंद करो',
  'थांबवा',
  'थांबा',
  'बंद करा',
  'நிறுத்து',
  'நிறுத்தவும்',
  'বন্ধ',
  'বন্ধ করুন',
  'بند',
  'بند کریں',
  'روکیں',
]);
export const START_WORDS = new Set(['start', 'subscribe', 'शुरू', 'सुरू', 'தொடங்கு', 'শুরু', 'شروع']);

function keyword(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[.,!?;:'"“”‘’()[\]{}।॥،؟]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * One inbound message, in one transaction with what it does (the reply it carries, the STOP or START),
 * so that a failure leaves none of it: neither a stored text whose opt-out was never made, nor the
 * reverse.
 */
export async function receiveWhatsapp(ctx: AppContext, message: InboundWhatsapp): Promise<InboundOutcome> {
  const phone = `+${message.from}`;
  const payload = message.button?.payload ?? message.interactive?.button_reply?.id;
  const body = message.text?.body ?? message.button?.text ?? message.interactive?.button_reply?.title ?? '';
  const reply = payload ? parseReplyPayload(payload) : undefined;
  // A fee reminder's button (ADR 061): stored with its payload, which its follow-up text looks back to.
  const feeTap = payload && !reply ? parseFeeReplyPayload(payload) : undefined;
  const word = reply || feeTap ? '' : keyword(body);
  const outcome = await ctx.db.transaction(async (tx): Promise<'duplicate' | 'stored' | 'reply' | 'consent'> => {
    const stored = await insertInbound(tx, {
      phone,
      providerMessageId: message.id,
      kind: message.type,
      body: body.slice(0, 4096),
      reply: reply?.reply ?? (feeTap ? payload : null) ?? null,
      contextProviderMessageId: message.context?.id ?? null,
      receivedAt: message.timestamp,
    });
    if (!stored) return 'duplicate';
    if (reply) {
      // The button was tapped on a template this centre sent to this phone (checked by the reply service).
      const contextMessage = message.context?.id ? await findMessageByProviderId(tx, message.context.id) : undefined;
      if (contextMessage !== undefined && contextMessage !== reply.messageId) return 'stored';
      const recorded = await recordParentReplyIn(tx, {
        phone,
        messageId: reply.messageId,
        reply: reply.reply,
        via: 'whatsapp',
      });
      return recorded === 'recorded' ? 'reply' : 'stored';
    }
    if (feeTap) {
      const contextMessage = message.context?.id ? await findMessageByProviderId(tx, message.context.id) : undefined;
      if (contextMessage !== undefined && contextMessage !== feeTap.messageId) return 'stored';
      return answerFeeReply(tx, phone, await receiveFeeTapIn(tx, { phone, ...feeTap }));
    }
    if (STOP_WORDS.has(word)) return (await changeConsent(tx, phone, false)) ? 'consent' : 'stored';
    if (START_WORDS.has(word)) return (await changeConsent(tx, phone, true)) ? 'consent' : 'stored';
    if (message.type !== 'text') return 'stored';
    const at = message.timestamp;
    return answerFeeReply(
      tx,
      phone,
      await receiveFeeFollowUpIn(tx, { phone, body, at, providerMessageId: message.id }),
    );
  });
  if (outcome === 'reply') ctx.whatsappWorker?.wake();
  if (outcome !== 'consent') return outcome;
  // The confirmation to the parent is queued: the worker sends it now.
  ctx.whatsappWorker?.wake();
  return STOP_WORDS.has(word) ? 'opt-out' : 'opt-in';
}

/** A fee reminder's answer handled: what it says back to the parent goes out once, inside the window. */
async function answerFeeReply(tx: Queryable, phone: string, answer: FeeWhatsappAnswer): Promise<'stored' | 'reply'> {
  if (!answer.handled) return 'stored';
  if (answer.say === null) return 'reply';
  const settings = await readMessagingSettings(tx);
  await insertOneOffWhatsapp(tx, {
    body: answer.say.text,
    recipient: phone,
    recipientName: await familyName(tx, phone),
    sender: { id: null, full_name: settings.centre_name },
    request: { kind: 'text', to: phone, body: answer.say.text },
    state: { kind: 'waiting', until: new Date(), reason: 'Answers the parent about the fees.' },
    language: answer.say.language,
  });
  return 'reply';
}

/**
 * The parent's own word: the family's consent changes at once, queued WhatsApp messages stop (on
 * STOP), and the parent is told once, inside the window their message just opened. Answers whether it
 * changed. Runs in the message's transaction.
 */
async function changeConsent(tx: Queryable, phone: string, optedIn: boolean): Promise<boolean> {
  const settings = await readMessagingSettings(tx);
  // Told in the family's language; STOP and START stay the words the parent types, in any language.
  const language = await findFamilyLanguage(tx, phone);
  const texts = familyTexts(language);
  const confirmation = optedIn ? texts.whatsappOn(settings.centre_name) : texts.whatsappOff(settings.centre_name);
  const isChange = await setFamilyWhatsappConsent(tx, phone, optedIn, {
    source: 'whatsapp_reply',
    changedBy: 'Parent (WhatsApp reply)',
  });
  if (!isChange) return false;
  if (!optedIn) await failQueuedForPhone(tx, phone, 'The parent opted out of WhatsApp messages.');
  const name = await familyName(tx, phone);
  const actor = { id: null, full_name: name };
  await recordActivity(
    tx,
    actor,
    optedIn ? 'messages.whatsapp_opt_in' : 'messages.whatsapp_opt_out',
    optedIn ? 'messages.whatsapp_on_by_reply' : 'messages.whatsapp_off_by_reply',
    { phone },
  );
  await insertOneOffWhatsapp(tx, {
    body: confirmation,
    recipient: phone,
    recipientName: name,
    sender: { id: null, full_name: settings.centre_name },
    request: { kind: 'text', to: phone, body: confirmation },
    state: { kind: 'waiting', until: new Date(), reason: 'Confirms the change to the parent.' },
    language,
  });
  return true;
}
