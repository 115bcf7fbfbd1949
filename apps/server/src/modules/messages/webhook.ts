import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { applyWhatsappStatus } from '../delivery';
import { receiveWhatsapp } from './inbound';

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
      // The number the change is for; checked, not trusted to be a string.
      metadata: z.object({ phone_number_id: z.unknown().optional() }).optional().catch(undefined),
      statuses: z.array(z.unknown()).optional(),
      messages: z.array(z.unknown()).optional(),
    })
    .optional(),
});

const callbackSchema = z.object({
  object: z.string(),
  // `id` is the WhatsApp Business Account the entry is for.
  entry: z.array(z.object({ id: z.unknown().optional(), changes: z.array(changeSchema).optional() })).max(1000),
});

/**
 * The parsed callback with U+0000 taken out of every string, keys included, before anything reads it:
 * the database refuses NUL in text, and a wamid, a name, a text, a button payload or an error title
 * carrying one would fail its item. Walked with a list, not recursion, so no nesting that fits in the
 * webhook's 1 MB overflows the stack (JSON.parse itself takes any depth).
 */
export function withoutNul(value: unknown): unknown {
  const clean = (text: string) => (text.includes('\u0000') ? text.replaceAll('\u0000', '') : text);
  const copy = (item: unknown): unknown => {
    if (typeof item === 'string') return clean(item);
    if (Array.isArray(item)) return new Array<unknown>(item.length);
    if (item !== null && typeof item === 'object') return {};
    return item;
  };
  const root = copy(value);
  const pending: [unknown, unknown][] = [[value, root]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [from, to] = next as [Record<string, unknown>, Record<string, unknown>];
    if (typeof from !== 'object' || from === null) continue;
    for (const [key, item] of Object.entries(from)) {
      const made = copy(item);
      // defineProperty: a key "__proto__" stays a plain key, as JSON.parse made it.
      Object.defineProperty(to, Array.isArray(from) ? key : clean(key), {
        value: made,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (made !== null && typeof made === 'object') pending.push([item, made]);
    }
  }
  return root;
}

export interface CallbackResult {
  statuses: number;
  unknownStatuses: number;
  inbound: number;
  duplicates: number;
  replies: number;
  optOuts: number;
  /** Statuses and messages of entries or changes for another business account or number: skipped. */
  notOurs: number;
  /** Statuses and messages not in the shape the Cloud API documents: skipped. */
  notUnderstood: number;
  /** Statuses and messages whose applying failed: logged, skipped, the others applied. */
  failed: number;
}

/** How a callback's lines read in the server log: `event: whatsapp-callback` and an outcome. */
const LOG_EVENT = 'whatsapp-callback';

/**
 * Applies one signed callback: statuses move attempts forward (late, duplicate and out-of-order ones
 * change nothing they should not; one for a wamid not stored yet waits for it), inbound messages are
 * stored once each, button replies become the parent's reason, STOP and START change the family's
 * consent. Only what is for the centre is applied: an entry whose id is not WHATSAPP_BUSINESS_ACCOUNT_ID,
 * or a change whose `metadata.phone_number_id` is not WHATSAPP_PHONE_NUMBER_ID (or that names none), is
 * skipped with a warning in the log. Every string is read without U+0000. Each status and each message
 * is applied on its own, in its own short transaction: one that fails is logged (its wamid and the
 * error, never a text) and skipped, and the others are applied all the same, so the callback can be
 * answered 200 and Meta does not send it again for days. An item that is not understood is skipped.
 */
export async function processCallback(
  ctx: AppContext,
  payload: unknown,
  log: FastifyBaseLogger,
): Promise<CallbackResult> {
  const result: CallbackResult = {
    statuses: 0,
    unknownStatuses: 0,
    inbound: 0,
    duplicates: 0,
    replies: 0,
    optOuts: 0,
    notOurs: 0,
    notUnderstood: 0,
    failed: 0,
  };
  const whatsapp = ctx.config.whatsapp;
  if (!whatsapp) return result;
  const callback = callbackSchema.safeParse(withoutNul(payload));
  if (!callback.success || callback.data.object !== 'whatsapp_business_account') {
    log.warn(
      { event: LOG_EVENT, outcome: 'not-understood', object: callback.success ? idText(callback.data.object) : null },
      'WhatsApp callback not in the shape of a WhatsApp Business Account callback: nothing applied',
    );
    return result;
  }
  for (const entry of callback.data.entry) {
    const changes = (entry.changes ?? []).filter((change) => change.field === 'messages' && change.value);
    const items = (list: typeof changes) => ({
      statuses: list.reduce((sum, change) => sum + (change.value?.statuses?.length ?? 0), 0),
      messages: list.reduce((sum, change) => sum + (change.value?.messages?.length ?? 0), 0),
    });
    if (entry.id !== whatsapp.businessAccountId) {
      const skipped = items(changes);
      result.notOurs += skipped.statuses + skipped.messages;
      log.warn(
        { event: LOG_EVENT, outcome: 'not-ours', entry_id: idText(entry.id), ...skipped },
        `WhatsApp callback entry for another business account skipped (WHATSAPP_BUSINESS_ACCOUNT_ID is ${whatsapp.businessAccountId})`,
      );
      continue;
    }
    for (const change of changes) {
      const value = change.value ?? {};
      const phoneNumberId = value.metadata?.phone_number_id;
      if (phoneNumberId !== whatsapp.phoneNumberId) {
        const skipped = items([change]);
        result.notOurs += skipped.statuses + skipped.messages;
        log.warn(
          {
            event: LOG_EVENT,
            outcome: 'not-ours',
            entry_id: entry.id,
            phone_number_id: idText(phoneNumberId),
            ...skipped,
          },
          `WhatsApp callback change for another phone number skipped (WHATSAPP_PHONE_NUMBER_ID is ${whatsapp.phoneNumberId})`,
        );
        continue;
      }
      for (const raw of value.statuses ?? []) {
        const status = statusSchema.safeParse(raw);
        if (!status.success) notUnderstood(log, result, 'status', raw, status.error);
        else
          await alone(log, result, 'status', status.data.id, async () => {
            const outcome = await applyWhatsappStatus(ctx, status.data);
            if (outcome === 'applied') result.statuses += 1;
            if (outcome === 'kept') result.unknownStatuses += 1;
          });
      }
      for (const raw of value.messages ?? []) {
        const message = inboundSchema.safeParse(raw);
        if (!message.success) notUnderstood(log, result, 'message', raw, message.error);
        else
          await alone(log, result, 'message', message.data.id, async () => {
            const outcome = await receiveWhatsapp(ctx, message.data);
            if (outcome === 'duplicate') {
              result.duplicates += 1;
              return;
            }
            result.inbound += 1;
            if (outcome === 'reply') result.replies += 1;
            if (outcome === 'opt-out') result.optOuts += 1;
          });
      }
    }
  }
  return result;
}

/** An id as the log shows it: the text given, or null for none (or not a text). */
function idText(id: unknown): string | null {
  return typeof id === 'string' ? id.slice(0, 256) : null;
}

function notUnderstood(
  log: FastifyBaseLogger,
  result: CallbackResult,
  item: 'status' | 'message',
  raw: unknown,
  error: z.ZodError,
): void {
  result.notUnderstood += 1;
  const wamid = raw !== null && typeof raw === 'object' ? idText((raw as { id?: unknown }).id) : null;
  // Where the item is not as documented, never its values (a text could be in them).
  const problems = error.issues.slice(0, 5).map((issue) => `${issue.path.join('.')}: ${issue.code}`);
  log.warn({ event: LOG_EVENT, outcome: 'not-understood', item, wamid, problems }, 'WhatsApp callback item skipped');
}

/** Applies one item; a failure is logged (wamid and error, no text) and counted, and the callback goes on. */
async function alone(
  log: FastifyBaseLogger,
  result: CallbackResult,
  item: 'status' | 'message',
  wamid: string,
  apply: () => Promise<void>,
): Promise<void> {
  try {
    await apply();
  } catch (error) {
    result.failed += 1;
    // The error's message and code only: a database error's detail can quote the row (the text).
    const code = (error as { code?: unknown } | null)?.code;
    log.error(
      {
        event: LOG_EVENT,
        outcome: 'item-failed',
        item,
        wamid,
        error: error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300),
        ...(typeof code === 'string' ? { code } : {}),
      },
      'WhatsApp callback item could not be applied: skipped, the rest of the callback applied',
    );
  }
}
