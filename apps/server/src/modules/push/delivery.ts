import type { Queryable } from '../../db/database';
import type { MessageDelivery } from '../messages/delivery';
import { enqueuePushes } from './repository';

/**
 * Messages reach parents' devices by Web Push, through the durable outbox: `enqueue` writes one
 * outbox row per (message, device) in the sender's transaction, so a message is queued exactly when
 * it is stored; `notify` (after the commit) wakes this instance's worker instead of waiting for its
 * next poll. Other instances pick up the rows at their next poll.
 */
export class PushDelivery implements MessageDelivery {
  constructor(private readonly wake: () => void) {}

  async enqueue(tx: Queryable, messageIds: readonly number[]): Promise<void> {
    await enqueuePushes(tx, messageIds);
  }

  notify(): void {
    this.wake();
  }
}
