import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { recordActivity } from '../../lib/activity-log';
import { recordParentReply } from '../replies/service';
import { readMessagingSettings } from '../settings/repository';
import { setFamilyWhatsappConsent } from '../students/consent';
import { setAttemptStatus } from './attempts';
import { familyTexts } from './family-texts';
import { familyName, findMessageByProviderId, insertInbound } from './inbound-repository';
import { findFamilyLanguage } from './outgoing-repository';
import { parseReplyPayload } from './reply-payload';
import { insertOneOffWhatsapp } from './repository';
import { applyEarlyStatuses, failQueuedForPhone, keepEarlyStatus } from './whatsapp-repository';

/**
 * `X-Hub-Signature-256: sha256=<hex>`: the HMAC-SHA256 of the exact bytes received, keyed with the
 * app secret. Compared in constant time; anything malformed is simply not a match.
 */
export function isSignedByMeta(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const given = header.slice('sha256='.length);
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

/** The verification handshake: the challenge when the token matches (constant-time), else undefined. */
export function handshakeChallenge(query: Record<string, unknown>, verifyToken: string): string | undefined {
  const mode = query['hub.mode'];
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string') return undefined;
  const given = Buffer.from(token);
  const wanted = Buffer.from(verifyToken);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return undefined;
  // Meta's challenge is a number; anything else is not echoed (the answer must not become a page).
  return /^[0-9A-Za-z_-]{1,128}$/.test(challenge) ? challenge : undefined;
}

// ---- What the Cloud API posts (only the parts used; the rest is ignored) ----

const unixSeconds = z.union([z.string(), z.number()]).transform((value, context) => {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    context.addIssue({ code: 'custom', message: 'not a timestamp' });
    return z.NEVER;
  }
  return new Date(seconds * 1000);
});

const statusSchema = z.object({
  id: z.string().min(1).max(256),
  status: z.string(),
  timestamp: unixSeconds,
  recipient_id: z.string().optional(),
  errors: z
    .array(z.object({ code: z.number().optional(), title: z.string().optional(), message: z.string().optional() }))
    .optional(),
});

const inboundSchema = z.object({
  from: z.string().regex(/^\d{8,15}$/),
  id: z.string().min(1).max(256),
  timestamp: unixSeconds,
  type: z.string(),
  text: z.object({ body: z.string() }).optional(),
  button: z.object({ payload: z.string().optional(), text: z.string().optional() }).optional(),
  interactive: z
    .object({ button_reply: z.object({ id: z.string(), title: z.string().optional() }).optional() })
    .optional(),
  context: z.object({ id: z.string().optional() }).optional(),
});

const changeSchema = z.object({
  field: z.string(),
  value: z
    .object({
      statuses: z.array(z.unknown()).optional(),
      messages: z.array(z.unknown()).optional(),
    })
    .optional(),
});

const callbackSchema = z.object({
  object: z.string(),
  entry: z.array(z.object({ changes: z.array(changeSchema).optional() })).max(1000),
});

const TRACKED_STATUSES = new Set(['sent', 'delivered', 'read', 'failed']);

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

export interface CallbackResult {
  statuses: number;
  unknownStatuses: number;
  inbound: number;
  duplicates: number;
  replies: number;
  optOuts: number;
}

/**
 * Applies one signed callback: statuses move attempts forward (late, duplicate and out-of-order ones
 * change nothing they should not; one for a wamid not stored yet waits for it), inbound messages are
 * stored once each, button replies become the parent's reason, STOP and START change the family's
 * consent. Each item is its own short transaction; an item that is not understood is skipped.
 */
export async function processCallback(ctx: AppContext, payload: unknown): Promise<CallbackResult> {
  const result: CallbackResult = { statuses: 0, unknownStatuses: 0, inbound: 0, duplicates: 0, replies: 0, optOuts: 0 };
  const callback = callbackSchema.safeParse(payload);
  if (!callback.success || callback.data.object !== 'whatsapp_business_account') return result;
  for (const entry of callback.data.entry) {
    for (const change of entry.changes ?? []) {
      if (change.field !== 'messages' || !change.value) continue;
      for (const raw of change.value.statuses ?? []) {
        const status = statusSchema.safeParse(raw);
        if (status.success) await applyStatus(ctx, status.data, result);
      }
      for (const raw of change.value.messages ?? []) {
        const message = inboundSchema.safeParse(raw);
        if (message.success) await receive(ctx, message.data, result);
      }
    }
  }
  return result;
}

async function applyStatus(
  ctx: AppContext,
  status: z.infer<typeof statusSchema>,
  result: CallbackResult,
): Promise<void> {
  if (!TRACKED_STATUSES.has(status.status)) return;
  const value = status.status as 'sent' | 'delivered' | 'read' | 'failed';
  const error = status.errors?.[0];
  const failureReason =
    value === 'failed'
      ? [error?.title, error?.message].filter(Boolean).join(': ').slice(0, 500) || 'WhatsApp could not deliver it'
      : null;
  const details = { at: status.timestamp, errorCode: error?.code ?? null, failureReason };
  const applied = await ctx.db.transaction((tx) =>
    setAttemptStatus(tx, { providerMessageId: status.id }, value, details),
  );
  if (applied) {
    result.statuses += 1;
    return;
  }
  // Not stored yet (the callback overtook the send's answer), or not ours: kept, then looked for again,
  // in case the sender stored the wamid meanwhile (it applies what it finds kept after storing).
  result.unknownStatuses += 1;
  await keepEarlyStatus(ctx.db, { providerMessageId: status.id, status: value, ...details });
  await ctx.db.transaction((tx) => applyEarlyStatuses(tx, status.id));
}

async function receive(ctx: AppContext, message: z.infer<typeof inboundSchema>, result: CallbackResult): Promise<void> {
  const phone = `+${message.from}`;
  const payload = message.button?.payload ?? message.interactive?.button_reply?.id;
  const body = message.text?.body ?? message.button?.text ?? message.interactive?.button_reply?.title ?? '';
  const reply = payload ? parseReplyPayload(payload) : undefined;
  const stored = await ctx.db.transaction((tx) =>
    insertInbound(tx, {
      phone,
      providerMessageId: message.id,
      kind: message.type,
      body: body.slice(0, 4096),
      reply: reply?.reply ?? null,
      contextProviderMessageId: message.context?.id ?? null,
      receivedAt: message.timestamp,
    }),
  );
  if (!stored) {
    result.duplicates += 1;
    return;
  }
  result.inbound += 1;

  if (reply) {
    // The button was tapped on a template this centre sent to this phone (checked by the reply service).
    const contextMessage = message.context?.id ? await findMessageByProviderId(ctx.db, message.context.id) : undefined;
    if (contextMessage === undefined || contextMessage === reply.messageId) {
      const outcome = await recordParentReply(ctx, {
        phone,
        messageId: reply.messageId,
        reply: reply.reply,
        via: 'whatsapp',
      });
      if (outcome === 'recorded') result.replies += 1;
    }
    return;
  }

  const word = keyword(body);
  if (STOP_WORDS.has(word)) {
    if (await changeConsent(ctx, phone, false)) result.optOuts += 1;
  } else if (START_WORDS.has(word)) {
    await changeConsent(ctx, phone, true);
  }
}

/**
 * The parent's own word: the family's consent changes at once, queued WhatsApp messages stop (on
 * STOP), and the parent is told once, inside the window their message just opened. Answers whether it
 * changed.
 */
async function changeConsent(ctx: AppContext, phone: string, optedIn: boolean): Promise<boolean> {
  const settings = await readMessagingSettings(ctx.db);
  // Told in the family's language; STOP and START stay the words the parent types, in any language.
  const language = await findFamilyLanguage(ctx.db, phone);
  const texts = familyTexts(language);
  const confirmation = optedIn ? texts.whatsappOn(settings.centre_name) : texts.whatsappOff(settings.centre_name);
  const changed = await ctx.db.transaction(async (tx) => {
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
  });
  if (changed) ctx.whatsappWorker?.wake();
  return changed;
}
