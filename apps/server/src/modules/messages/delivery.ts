import type { Queryable } from '../../db/database';

/**
 * How stored messages reach parents. Sending stores one row per parent (that row is the in-app
 * message, status `sent`) and hands the new ids to `enqueue` in the same transaction, so a message
 * is never lost between being stored and being queued for delivery. After the transaction commits,
 * the sender calls `notify` so the delivery can start at once instead of at its next poll.
 */
export interface MessageDelivery {
  enqueue(tx: Queryable, messageIds: readonly number[]): Promise<void>;
  notify(): void;
}

/** In-app only: the stored row is what the parent's inbox shows, so there is nothing further to send. */
export const inAppOnlyDelivery: MessageDelivery = {
  async enqueue() {},
  notify() {},
};
