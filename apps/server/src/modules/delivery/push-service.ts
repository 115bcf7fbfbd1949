import type { PushSubscriptionBody } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { ValidationError } from '../../lib/errors';
import { checkEndpointUrl } from './endpoint-policy';
import {
  deleteSubscription,
  enqueuePushes,
  type PushAudience,
  revokeSubscriptions,
  upsertSubscription,
} from './push-repository';

/**
 * The server POSTs to whatever endpoint a parent's (or staff member's) browser hands it, so only a public push service's
 * host, by name, over https on port 443 is kept (ADR 018). No DNS here: the worker resolves and
 * checks the addresses at every send.
 */
function checkEndpoint(ctx: AppContext, endpoint: string): void {
  const checked = checkEndpointUrl(endpoint, { allowLoopbackForTests: ctx.config.push.allowLoopbackEndpointsForTests });
  if (!checked.ok) throw new ValidationError('endpoint', 'validation.push_endpoint', { message: checked.problem });
}

/**
 * Keeps (or updates) the device's subscription for this parent (their phone) or staff account (its
 * id): the same endpoint rule for both.
 */
export async function subscribe(
  ctx: AppContext,
  audience: PushAudience,
  owner: string | number,
  subscription: PushSubscriptionBody,
  userAgent: string | undefined,
): Promise<void> {
  checkEndpoint(ctx, subscription.endpoint);
  await ctx.db.transaction((tx) =>
    upsertSubscription(tx, {
      audience,
      owner,
      endpoint: subscription.endpoint,
      p256dh: subscription.keys.p256dh,
      auth: subscription.keys.auth,
      userAgent: userAgent ? userAgent.slice(0, 300) : null,
    }),
  );
}

/**
 * Removes the owner's own subscription with that endpoint. Idempotent: an endpoint already gone
 * (a new access code, an expired device) or another owner's answers the same and changes nothing,
 * so a device can always turn its notifications off and learns nothing about other families or accounts.
 */
export async function unsubscribe(
  ctx: AppContext,
  audience: PushAudience,
  owner: string | number,
  endpoint: string,
): Promise<void> {
  await deleteSubscription(ctx.db, audience, owner, endpoint);
}

/**
 * Queues a notice (a message already stored for a family) to every device of the family that allowed
 * notifications, in the caller's transaction. Answers whether any device will get it; the caller wakes
 * the senders after the commit.
 */
export async function notifyFamilyDevices(tx: Queryable, noticeId: number): Promise<boolean> {
  return (await enqueuePushes(tx, [noticeId])).length > 0;
}

/**
 * Signs a family's devices out of the parent app's notifications (a replaced access code), each still
 * told once by the notice `noticeId`. Answers how many devices will be told (see revokeSubscriptions).
 */
export function signOutFamilyDevices(tx: Queryable, phone: string, noticeId: number): Promise<number> {
  return revokeSubscriptions(tx, phone, noticeId);
}
