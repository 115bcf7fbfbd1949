import type { Queryable } from '../../db/database';

/**
 * How stored messages reach parents. Sending stores one row per parent (that row is the in-app
 * message, status `sent`) and hands the new ids to the delivery in the same transaction, so a
 * message is never lost between being stored and being queued for delivery.
 */
export interface MessageDelivery {
  enqueue(tx: Queryable, messageIds: readonly number[]): Promise<void>;
}

/**
 * In-app only: the stored row is what the parent's inbox shows, so there is nothing further to
 * send. Web Push replaces this with an outbox (issue 4).
 */
export const inAppOnlyDelivery: MessageDelivery = {
  async enqueue() {},
};
