import type { Queryable } from '../../db/database';
import { cancelWaitingFallback, refreshMessageStatuses, setAttemptStatus } from './attempts';
import { dropPushesOfMessage } from './push-repository';

/**
 * How a family showed a message reached them: a device's push receipt, the parent app's inbox showing
 * it, opening it in the parent app, or answering it (one-tap reply) in the app or on WhatsApp.
 */
export type ReachedBy = 'push_receipt' | 'shown_in_app' | 'opened_in_app' | 'answered_in_app' | 'answered_on_whatsapp';

/**
 * The family got (or saw) message `messageId`, in the caller's transaction, which holds the message:
 * the attempt of the channel that proved it moves on (delivered by a receipt, which puts a push attempt
 * on record when there was none; read when opened or answered on WhatsApp), the message's status with it, and a WhatsApp fallback still waiting is not
 * needed. Once seen (opened or answered), no device needs its pushes any more.
 */
export async function messageReached(tx: Queryable, messageId: number, by: ReachedBy): Promise<void> {
  switch (by) {
    case 'push_receipt':
    case 'shown_in_app':
      // A valid receipt proves a push reached a device, even for a message whose push attempt is not on
      // record; the parent app's inbox showing the message proves the same of the app, whatever the push
      // did (ADR 044): the app's attempt is delivered.
      await tx.query(
        `INSERT INTO message_attempts (message_id, channel, status, sent_at) VALUES ($1, 'push', 'sent', now())
         ON CONFLICT (message_id, channel) DO NOTHING`,
        [messageId],
      );
      await setAttemptStatus(tx, { messageId, channel: 'push' }, 'delivered');
      await cancelWaitingFallback(tx, messageId);
      return;
    case 'opened_in_app':
      await setAttemptStatus(tx, { messageId, channel: 'push' }, 'read');
      await refreshMessageStatuses(tx, [messageId]);
      await cancelWaitingFallback(tx, messageId);
      await dropPushesOfMessage(tx, messageId);
      return;
    case 'answered_in_app':
      await refreshMessageStatuses(tx, [messageId]);
      await cancelWaitingFallback(tx, messageId);
      await dropPushesOfMessage(tx, messageId);
      return;
    case 'answered_on_whatsapp':
      await setAttemptStatus(tx, { messageId, channel: 'whatsapp' }, 'read');
      await cancelWaitingFallback(tx, messageId);
      await dropPushesOfMessage(tx, messageId);
      return;
  }
}
