import type { Queryable } from '../../db/database';
import { claimDueOutboxRows } from './push-repository';

/**
 * Staff devices and their pushes (migration 0017): a device belongs to a staff account, its pushes are
 * marking reminders. Same lease and retry rules as the parents' outbox (repository.ts).
 */

export interface StaffSubscriptionInput {
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
}

/** Devices kept per staff account; subscribing one more forgets the one subscribed longest ago. */
export const MAX_DEVICES_PER_ACCOUNT = 10;

/**
 * Stores a device's subscription for a staff account, keyed by endpoint. A device now signed in as
 * another account moves to it, and the pushes still queued for the previous account are dropped: the
 * device is no longer theirs.
 */
export async function upsertStaffSubscription(tx: Queryable, input: StaffSubscriptionInput): Promise<void> {
  const previous = await tx.query<{ id: number; user_id: number }>(
    'SELECT id, user_id FROM staff_push_subscriptions WHERE endpoint = $1 FOR UPDATE',
    [input.endpoint],
  );
  const existing = previous[0];
  if (existing && existing.user_id !== input.userId) {
    await tx.query('DELETE FROM staff_push_outbox WHERE subscription_id = $1', [existing.id]);
  }
  await tx.query(
    `INSERT INTO staff_push_subscriptions AS s (user_id, endpoint, p256dh, auth, user_agent)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (endpoint) DO UPDATE SET
       user_id = EXCLUDED.user_id,
       p256dh = EXCLUDED.p256dh,
       auth = EXCLUDED.auth,
       user_agent = EXCLUDED.user_agent,
       created_at = CASE WHEN s.user_id = EXCLUDED.user_id THEN s.created_at ELSE now() END,
       last_success_at = CASE WHEN s.user_id = EXCLUDED.user_id THEN s.last_success_at ELSE NULL END`,
    [input.userId, input.endpoint, input.p256dh, input.auth, input.userAgent],
  );
  await tx.query(
    `DELETE FROM staff_push_subscriptions
      WHERE user_id = $1
        AND id NOT IN (SELECT id FROM staff_push_subscriptions WHERE user_id = $1
                        ORDER BY created_at DESC, id DESC LIMIT $2)`,
    [input.userId, MAX_DEVICES_PER_ACCOUNT],
  );
}

/** Removes the account's own subscription with that endpoint (its queued pushes go with it). */
export async function deleteStaffSubscription(db: Queryable, userId: number, endpoint: string): Promise<boolean> {
  const rows = await db.query(
    'DELETE FROM staff_push_subscriptions WHERE user_id = $1 AND endpoint = $2 RETURNING id',
    [userId, endpoint],
  );
  return rows.length > 0;
}

/** A claimed staff push with what it says: the reminder's class and day, and whether it is marked by now. */
export interface ClaimedStaffPush {
  id: number;
  attempts: number;
  reminder_id: number;
  class_name: string;
  date: string;
  /** The class got marks since the reminder was made: the push is no longer worth a notification. */
  marked: boolean;
  subscription_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Claims due pushes to staff devices (see claimDueOutboxRows), with whether the class is marked by now. */
export function claimDueStaffPushes(db: Queryable, limit: number, leaseMs: number): Promise<ClaimedStaffPush[]> {
  return claimDueOutboxRows<ClaimedStaffPush>(
    db,
    {
      outbox: 'staff_push_outbox',
      from: 'marking_reminders r, staff_push_subscriptions s',
      joins: 'r.id = o.reminder_id AND s.id = o.subscription_id',
      returning: `o.id, o.attempts, o.reminder_id, r.class_name, to_char(r.date, 'YYYY-MM-DD') AS date,
               EXISTS (SELECT 1 FROM attendance_counts a WHERE a.class_name = r.class_name AND a.date = r.date) AS marked,
               o.subscription_id, s.endpoint, s.p256dh, s.auth`,
    },
    limit,
    leaseMs,
  );
}

/** The push service took it: the row is done and the device works. */
export async function recordStaffPushed(tx: Queryable, push: ClaimedStaffPush): Promise<void> {
  await tx.query('UPDATE staff_push_subscriptions SET last_success_at = now() WHERE id = $1', [push.subscription_id]);
  await tx.query('DELETE FROM staff_push_outbox WHERE id = $1', [push.id]);
}

/** Not sent and never will be (given up, or no longer worth sending). */
export async function dropStaffPush(db: Queryable, outboxId: number): Promise<void> {
  await db.query('DELETE FROM staff_push_outbox WHERE id = $1', [outboxId]);
}

/** The device no longer takes pushes, or its endpoint is not allowed: forgotten with its queued pushes. */
export async function deleteStaffSubscriptionById(db: Queryable, subscriptionId: number): Promise<void> {
  await db.query('DELETE FROM staff_push_subscriptions WHERE id = $1', [subscriptionId]);
}

export async function rescheduleStaffPush(
  db: Queryable,
  outboxId: number,
  delayMs: number,
  error: string,
): Promise<void> {
  await db.query(
    `UPDATE staff_push_outbox SET next_attempt_at = now() + $2::int * interval '1 millisecond', last_error = $3
      WHERE id = $1`,
    [outboxId, delayMs, error],
  );
}
