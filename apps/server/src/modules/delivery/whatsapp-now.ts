import { DEFAULT_WHATSAPP_DAILY_LIMIT } from '../../config';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { ConflictError } from '../../lib/errors';
import { setAttemptStatus } from './attempts';
import { WhatsappError, type WhatsappRequest, type WhatsappSender } from './whatsapp';
import { admitConversation, storeProviderMessageId, windowOpenUntil } from './whatsapp-repository';

/** How long a one-off being sent is kept from the worker: well past the adapter's 10 s time limit. */
const ONE_OFF_LEASE_MS = 120_000;

/** How a one-off message's attempt is stored: being sent now (claimed for a lease), or waiting for the daily limit. */
export type OneOffState =
  | { kind: 'sending'; counted: boolean; leaseMs: number }
  | { kind: 'waiting'; until: Date; reason: string };

/** One WhatsApp message to one phone, sent now, and what the caller stores and records on the way. */
export interface WhatsappNow {
  phone: string;
  /** The family agreed to WhatsApp: a template needs it, free text in an open conversation does not. */
  optedIn: boolean;
  /** Sent as free text while the parent's last message is less than 24 hours old. */
  text: string;
  /** Sent otherwise: an approved template and its parameters. */
  template: { template: string; language: string; parameters: string[] };
  /** Stores the message and its attempt, in the transaction that admitted it under the daily limit. */
  store(tx: Queryable, request: WhatsappRequest, state: OneOffState): Promise<{ messageId: number; attemptId: number }>;
  /** Records the outcome (an activity row), in the transaction that fails the attempt when it failed. */
  record(tx: Queryable, failure: { reason: string } | undefined): Promise<void>;
}

export type WhatsappNowOutcome =
  | { outcome: 'waiting'; messageId: number; reason: string }
  | { outcome: 'sent'; messageId: number; sentAs: WhatsappRequest['kind'] }
  | { outcome: 'failed'; messageId: number; reason: string; unreachable: boolean };

/**
 * Sends one WhatsApp message now, by the rules every WhatsApp message follows: free text while the
 * parent's last message is less than 24 hours old, else the template, which needs the family's opt-in
 * (ConflictError `whatsapp.no_consent` without it) and room under the daily limit (over it, the message
 * waits, queued, for the worker). The provider is called outside any transaction; the attempt is stored
 * before (claimed, so no worker takes it meanwhile) and failed after with the reason when WhatsApp did
 * not take it.
 */
export async function sendWhatsappNow(
  ctx: AppContext,
  whatsapp: WhatsappSender,
  message: WhatsappNow,
): Promise<WhatsappNowOutcome> {
  const windowOpen = (await windowOpenUntil(ctx.db, message.phone)) !== null;
  if (!windowOpen && !message.optedIn) {
    throw new ConflictError('whatsapp.no_consent');
  }
  const request: WhatsappRequest = windowOpen
    ? { kind: 'text', to: message.phone, body: message.text }
    : { kind: 'template', to: message.phone, ...message.template };

  // A template to a family not written to in 24 hours counts against the daily limit: admitted first,
  // and the message stored as being sent, so the count includes it before anyone else counts.
  const dailyLimit = ctx.config.whatsapp?.dailyLimit ?? DEFAULT_WHATSAPP_DAILY_LIMIT;
  const stored = await ctx.db.transaction(async (tx) => {
    const admitted =
      request.kind === 'template'
        ? await admitConversation(tx, message.phone, dailyLimit)
        : { ok: true as const, counted: false };
    const ids = await message.store(
      tx,
      request,
      admitted.ok
        ? { kind: 'sending', counted: admitted.counted, leaseMs: ONE_OFF_LEASE_MS }
        : { kind: 'waiting', until: admitted.until, reason: admitted.reason },
    );
    return { ...ids, waiting: admitted.ok ? undefined : admitted.reason };
  });
  if (stored.waiting) return { outcome: 'waiting', messageId: stored.messageId, reason: stored.waiting };

  let failure: WhatsappError | undefined;
  let providerMessageId: string | undefined;
  try {
    providerMessageId = (await whatsapp.send(request)).providerMessageId;
  } catch (error) {
    failure = error instanceof WhatsappError ? error : new WhatsappError('WhatsApp could not be reached', true);
  }

  const attempt = { attemptId: stored.attemptId };
  if (providerMessageId) await storeProviderMessageId(ctx.db, attempt, providerMessageId);
  await ctx.db.transaction(async (tx) => {
    if (!providerMessageId) {
      await setAttemptStatus(tx, attempt, 'failed', {
        failureReason: failure?.message ?? 'WhatsApp could not be reached',
        errorCode: failure?.code ?? null,
      });
    }
    await message.record(tx, failure ? { reason: failure.message } : undefined);
  });

  if (failure) {
    return {
      outcome: 'failed',
      messageId: stored.messageId,
      reason: failure.message,
      unreachable: failure.isUnreachable,
    };
  }
  return { outcome: 'sent', messageId: stored.messageId, sentAs: request.kind };
}
