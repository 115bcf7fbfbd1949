import type { Queryable } from '../../db/database';
import { hastenFallback, setAttemptStatus, setAttemptsStatus } from './attempts';

// ---- Subscriptions: one store for both audiences ----

/**
 * Who a device's pushes are for: a parent's phone (migration 0003; the parent app's messages) or a staff
 * account (migration 0017; marking reminders). Same rules for both, each in its own tables; only a
 * parent's device can be revoked (signed out by a new access code, still owed its notice).
 */
export type PushAudience = 'parent' | 'staff';

const AUDIENCES = {
  parent: { subscriptions: 'push_subscriptions', outbox: 'push_outbox', owner: 'phone', revocable: true },
  staff: { subscriptions: 'staff_push_subscriptions', outbox: 'staff_push_outbox', owner: 'user_id', revocable: false },
} as const;

/** Devices kept per parent phone; subscribing one more forgets the one subscribed longest ago. */
export const MAX_DEVICES_PER_PHONE = 10;
/** Devices kept per staff account, likewise. */
export const MAX_DEVICES_PER_ACCOUNT = 10;

const MAX_DEVICES: Record<PushAudience, number> = { parent: MAX_DEVICES_PER_PHONE, staff: MAX_DEVICES_PER_ACCOUNT };

export interface SubscriptionInput {
  audience: PushAudience;
  /** The parent's phone, or the staff account's id. */
  owner: string | number;
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
}

/**
 * Stores a device's subscription, keyed by endpoint: a device that subscribes again (new keys) or
 * is now signed in as another parent (or account) updates its row. When the row moves to another owner,
 * the pushes still queued for the previous one are dropped: that device is no longer theirs. A parent's
 * device whose subscription was revoked (a replaced code) and that signs in with the new code is
 * subscribed again: the access-change notice still queued for it stays.
 */
export async function upsertSubscription(tx: Queryable, input: SubscriptionInput): Promise<void> {
  const { subscriptions, outbox, owner, revocable } = AUDIENCES[input.audience];
  const previous = await tx.query<{ id: number; owner: string | number }>(
    `SELECT id, ${owner} AS owner FROM ${subscriptions} WHERE endpoint = $1 FOR UPDATE`,
    [input.endpoint],
  );
  const existing = previous[0];
  if (existing && existing.owner !== input.owner) {
    await tx.query(`DELETE FROM ${outbox} WHERE subscription_id = $1`, [existing.id]);
  }
  await tx.query(
    `INSERT INTO ${subscriptions} AS s (${owner}, endpoint, p256dh, auth, user_agent)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (endpoint) DO UPDATE SET
       ${owner} = EXCLUDED.${owner},
       p256dh = EXCLUDED.p256dh,
       auth = EXCLUDED.auth,
       user_agent = EXCLUDED.user_agent,
       created_at = CASE WHEN s.${owner} = EXCLUDED.${owner} THEN s.created_at ELSE now() END,
       last_success_at = CASE WHEN s.${owner} = EXCLUDED.${owner} THEN s.last_success_at ELSE NULL END${
         revocable ? ',\n       revoked_at = NULL' : ''
       }`,
    [input.owner, input.endpoint, input.p256dh, input.auth, input.userAgent],
  );
  // A family (or an account) has a few devices; keeping the newest few means one send cannot fan out
  // without end. Revoked devices are left alone: each waits only for its access-change notice.
  const active = revocable ? ' AND revoked_at IS NULL' : '';
  await tx.query(
    `DELETE FROM ${subscriptions}
      WHERE ${owner} = $1${active}
        AND id NOT IN (SELECT id FROM ${subscriptions} WHERE ${owner} = $1${active}
                        ORDER BY created_at DESC, id DESC LIMIT $2)`,
    [input.owner, MAX_DEVICES[input.audience]],
  );
}

/** Removes the owner's own subscription with that endpoint (its queued pushes go with it). */
export async function deleteSubscription(
  db: Queryable,
  audience: PushAudience,
  owner: string | number,
  endpoint: string,
): Promise<boolean> {
  const { subscriptions, owner: column } = AUDIENCES[audience];
  const rows = await db.query(`DELETE FROM ${subscriptions} WHERE ${column} = $1 AND endpoint = $2 RETURNING id`, [
    owner,
    endpoint,
  ]);
  return rows.length > 0;
}

/** The push service says this subscription no longer exists (or its endpoint is not allowed): forget the device and its queued pushes. */
export async function deleteSubscriptionById(
  db: Queryable,
  audience: PushAudience,
  subscriptionId: number,
): Promise<void> {
  await db.query(`DELETE FROM ${AUDIENCES[audience].subscriptions} WHERE id = $1`, [subscriptionId]);
}

/** A push that must not be sent, or is not worth sending any more, or was given up. */
export async function dropPush(db: Queryable, audience: PushAudience, outboxId: number): Promise<void> {
  await db.query(`DELETE FROM ${AUDIENCES[audience].outbox} WHERE id = $1`, [outboxId]);
}

/** Try again later. */
export async function reschedulePush(
  db: Queryable,
  audience: PushAudience,
  outboxId: number,
  delayMs: number,
  error: string,
): Promise<void> {
  await db.query(
    `UPDATE ${AUDIENCES[audience].outbox} SET next_attempt_at = now() + $2::int * interval '1 millisecond', last_error = $3
      WHERE id = $1`,
    [outboxId, delayMs, error],
  );
}

// ---- Outbox ----

/**
 * One outbox row per (message, device of the message's recipient), in one statement, and the push
 * attempt of each message that got at least one. One-off WhatsApp messages went to WhatsApp, not to the
 * parent app, so they get no push; revoked devices (signed out by a new code) get only their
 * access-change notice, queued by revokeSubscriptions. Answers the ids of the messages queued.
 */
export async function enqueuePushes(tx: Queryable, messageIds: readonly number[]): Promise<number[]> {
  if (messageIds.length === 0) return [];
  const rows = await tx.query<{ message_id: number }>(
    `INSERT INTO push_outbox (message_id, subscription_id)
     SELECT m.id, s.id
       FROM messages m
       JOIN push_subscriptions s ON s.phone = m.recipient AND s.revoked_at IS NULL
      WHERE m.id = ANY($1::int[]) AND m.kind <> 'whatsapp'
      ORDER BY m.id, s.id
     ON CONFLICT (message_id, subscription_id) DO NOTHING
     RETURNING message_id`,
    [[...messageIds]],
  );
  const queued = [...new Set(rows.map((row) => row.message_id))].sort((a, b) => a - b);
  await insertPushAttempts(tx, queued);
  return queued;
}

async function insertPushAttempts(tx: Queryable, messageIds: readonly number[]): Promise<void> {
  if (messageIds.length === 0) return;
  await tx.query(
    `INSERT INTO message_attempts (message_id, channel)
     SELECT id, 'push' FROM unnest($1::int[]) AS m(id) ORDER BY id
     ON CONFLICT (message_id, channel) DO NOTHING`,
    [[...messageIds]],
  );
}

/** A claimed outbox row with everything needed to send it, read in the claiming statement. */
export interface ClaimedPush {
  id: number;
  attempts: number;
  message_id: number;
  subject: string;
  message: string;
  sent_at: string;
  kind: string;
  subscription_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** The device was signed out by a new code: it may receive only the access-change notice. */
  revoked: boolean;
}

/** An outbox (the parents' or the staff's) and what a claim reads beside each of its rows. */
export interface OutboxClaim {
  outbox: 'push_outbox' | 'staff_push_outbox';
  /** Tables joined to the outbox row `o`, and the conditions that join them. */
  from: string;
  joins: string;
  /** Columns returned for each claimed row (`o.id` among them). */
  returning: string;
}

/**
 * Claims up to `limit` due rows of an outbox for this worker: their next_attempt_at moves `leaseMs`
 * ahead, so no other worker (here or on another instance) takes them meanwhile, and attempts counts
 * this try. SKIP LOCKED lets concurrent claimers pass over each other's rows instead of waiting. The
 * statement commits at once: no transaction stays open while the pushes are sent. A worker that dies
 * holding a lease only delays those rows until it runs out. Rows come back in id order.
 */
export async function claimDueOutboxRows<T extends { id: number }>(
  db: Queryable,
  claim: OutboxClaim,
  limit: number,
  leaseMs: number,
): Promise<T[]> {
  // A plain UPDATE (no WITH): when nothing is due it changes no row, and the embedded database keeps
  // its read cache across the worker's polls.
  const rows = await db.query<T>(
    `UPDATE ${claim.outbox} o
        SET attempts = o.attempts + 1,
            next_attempt_at = now() + $2::int * interval '1 millisecond'
       FROM ${claim.from}
      WHERE o.id IN (
              SELECT id FROM ${claim.outbox}
               WHERE next_attempt_at <= now()
               ORDER BY next_attempt_at, id
               LIMIT $1
               FOR UPDATE SKIP LOCKED
            )
        AND ${claim.joins}
     RETURNING ${claim.returning}`,
    [limit, leaseMs],
  );
  return rows.sort((a, b) => a.id - b.id);
}

/** Claims due pushes to parents' devices (see claimDueOutboxRows). */
export function claimDuePushes(db: Queryable, limit: number, leaseMs: number): Promise<ClaimedPush[]> {
  return claimDueOutboxRows<ClaimedPush>(
    db,
    {
      outbox: 'push_outbox',
      from: 'messages m, push_subscriptions s',
      joins: 'm.id = o.message_id AND s.id = o.subscription_id',
      returning: `o.id, o.attempts, o.message_id, m.subject, m.message, m.sent_at, m.kind,
               o.subscription_id, s.endpoint, s.p256dh, s.auth, s.revoked_at IS NOT NULL AS revoked`,
    },
    limit,
    leaseMs,
  );
}

/**
 * The push service took these: each message reached a device, the device works, and the row is done.
 * A statement per step for the whole group.
 *
 * Lock order, everywhere rows of these tables are written in one transaction: messages, then
 * subscriptions, then outbox rows, each kind in id order (reading a message marks it delivered and
 * drops its outbox rows; deleting a subscription cascades to its outbox rows; giving up locks the
 * message first). Taking them in another order here would let two such transactions deadlock.
 */
export async function recordPushed(tx: Queryable, pushes: readonly ClaimedPush[]): Promise<void> {
  if (pushes.length === 0) return;
  const messageIds = [...new Set(pushes.map((push) => push.message_id))].sort((a, b) => a - b);
  await tx.query('SELECT id FROM messages WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE', [messageIds]);
  await tx.query('UPDATE messages SET pushed_at = COALESCE(pushed_at, now()) WHERE id = ANY($1::int[])', [messageIds]);
  const attempts = await tx.query<{ id: number; message_id: number }>(
    `SELECT id, message_id FROM message_attempts WHERE message_id = ANY($1::int[]) AND channel = 'push'`,
    [messageIds],
  );
  await setAttemptsStatus(tx, attempts, 'sent');
  await tx.query(
    `UPDATE push_subscriptions SET last_success_at = now()
      WHERE id IN (SELECT id FROM push_subscriptions WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE)`,
    [[...new Set(pushes.map((push) => push.subscription_id))]],
  );
  await tx.query('DELETE FROM push_outbox WHERE id = ANY($1::int[])', [pushes.map((push) => push.id)]);
}

/** A revoked device with nothing left to send it (its notice went, or was given up) is forgotten. */
export async function forgetRevokedSubscription(db: Queryable, subscriptionId: number): Promise<void> {
  await db.query(
    `DELETE FROM push_subscriptions s
      WHERE s.id = $1 AND s.revoked_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM push_outbox o WHERE o.subscription_id = s.id)`,
    [subscriptionId],
  );
}

/** The message was opened or answered: no device needs its pushes any more. */
export async function dropPushesOfMessage(tx: Queryable, messageId: number): Promise<void> {
  await tx.query('DELETE FROM push_outbox WHERE message_id = $1', [messageId]);
}

/**
 * Signs a phone's devices out of pushes (a replaced access code): each active subscription is marked
 * revoked and loses its queued ordinary pushes, and gets one outbox row for `noticeId`, the
 * access-change notice. The rows stay until the worker has sent (or given up) the notice, then go.
 * Devices revoked earlier are not told twice. Answers how many devices will be told.
 */
export async function revokeSubscriptions(tx: Queryable, phone: string, noticeId: number): Promise<number> {
  const revoked = await tx.query<{ id: number }>(
    `UPDATE push_subscriptions SET revoked_at = now()
      WHERE phone = $1 AND revoked_at IS NULL
      RETURNING id`,
    [phone],
  );
  if (revoked.length === 0) return 0;
  const ids = revoked.map((row) => row.id);
  await tx.query('DELETE FROM push_outbox WHERE subscription_id = ANY($1::int[])', [ids]);
  await tx.query(
    `INSERT INTO push_outbox (message_id, subscription_id)
     SELECT $1, id FROM unnest($2::int[]) AS s(id) ORDER BY id`,
    [noticeId, ids],
  );
  await insertPushAttempts(tx, [noticeId]);
  return ids.length;
}

/**
 * Gives the push up. When it was the message's last pending push and no device ever got the message,
 * the message's push attempt fails with the reason (and the message with it, unless another channel is
 * still trying), and a WhatsApp fallback waiting for the push goes at once. The message row is locked
 * first, so two workers giving up the message's last two rows at once cannot both see the other's row
 * still pending (the second one reads after the first one's commit). Answers whether the attempt failed.
 */
export async function giveUpPush(tx: Queryable, push: ClaimedPush, reason: string): Promise<boolean> {
  await tx.query('SELECT id FROM messages WHERE id = $1 FOR UPDATE', [push.message_id]);
  await tx.query('DELETE FROM push_outbox WHERE id = $1', [push.id]);
  const lastPending = await tx.query(
    `SELECT m.id FROM messages m
      WHERE m.id = $1 AND m.pushed_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM push_outbox o WHERE o.message_id = m.id)`,
    [push.message_id],
  );
  if (lastPending.length === 0) return false;
  const attempt = await setAttemptStatus(tx, { messageId: push.message_id, channel: 'push' }, 'failed', {
    failureReason: reason,
  });
  await hastenFallback(tx, push.message_id);
  return attempt?.changed === true && attempt.status === 'failed';
}

// ---- The staff outbox: marking reminders ----

/** A claimed staff push with what it says: the reminder's class and day, and whether it is marked by now. */
export interface ClaimedStaffPush {
  id: number;
  attempts: number;
  reminder_id: number;
  class_name: string;
  /** The class as the centre labels it ("Class 7", "Class 11 – A", "Morning batch"), as classDisplayLabel writes it. */
  class_label: string;
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
      returning: `o.id, o.attempts, o.reminder_id, r.class_name,
               COALESCE((SELECT c.label || COALESCE(' – ' || c.section, '') FROM classes c WHERE c.value = r.class_name),
                        r.class_name) AS class_label,
               to_char(r.date, 'YYYY-MM-DD') AS date,
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
