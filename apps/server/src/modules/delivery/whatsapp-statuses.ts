import type { AppContext } from '../../context';
import { setAttemptStatus } from './attempts';
import { applyEarlyStatuses, keepEarlyStatus } from './whatsapp-repository';

/** A delivery status as the Cloud API's callback reports it for a message this centre sent. */
export interface WhatsappStatus {
  /** The wamid of the message. */
  id: string;
  status: string;
  timestamp: Date;
  errors?: { code?: number; title?: string; message?: string }[];
}

/** What became of a status: moved its attempt on, kept until its wamid is stored, or not one that is tracked. */
export type StatusOutcome = 'applied' | 'kept' | 'untracked';

const TRACKED_STATUSES = new Set(['sent', 'delivered', 'read', 'failed']);

/**
 * Moves the WhatsApp attempt with this wamid forward (late, duplicate and out-of-order statuses change
 * nothing they should not, as setAttemptStatus rules); a status for a wamid not stored yet is kept and
 * applied once the sender stores it.
 */
export async function applyWhatsappStatus(ctx: AppContext, status: WhatsappStatus): Promise<StatusOutcome> {
  if (!TRACKED_STATUSES.has(status.status)) return 'untracked';
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
  if (applied) return 'applied';
  // Not stored yet (the callback overtook the send's answer), or not ours: kept, then looked for again,
  // in case the sender stored the wamid meanwhile (it applies what it finds kept after storing).
  await keepEarlyStatus(ctx.db, { providerMessageId: status.id, status: value, ...details });
  await ctx.db.transaction((tx) => applyEarlyStatuses(tx, status.id));
  return 'kept';
}
