import type { PushSubscriptionBody } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { ValidationError } from '../../lib/errors';
import { deleteSubscription, upsertSubscription } from './repository';

/**
 * Push endpoints are https: the server POSTs to whatever address a parent's browser hands it, and
 * every real push service is https. Plain http is for a fake push service in tests only.
 */
function checkEndpoint(ctx: AppContext, endpoint: string): void {
  const protocol = new URL(endpoint).protocol;
  if (protocol === 'https:') return;
  if (protocol === 'http:' && ctx.config.push.allowHttpEndpoints) return;
  throw new ValidationError('endpoint', 'must be an https URL');
}

/** Keeps (or updates) the device's subscription for this parent. */
export async function subscribe(
  ctx: AppContext,
  phone: string,
  subscription: PushSubscriptionBody,
  userAgent: string | undefined,
): Promise<void> {
  checkEndpoint(ctx, subscription.endpoint);
  await ctx.db.transaction((tx) =>
    upsertSubscription(tx, {
      phone,
      endpoint: subscription.endpoint,
      p256dh: subscription.keys.p256dh,
      auth: subscription.keys.auth,
      userAgent: userAgent ? userAgent.slice(0, 300) : null,
    }),
  );
}

/**
 * Removes the parent's own subscription with that endpoint. Idempotent: an endpoint already gone
 * (a new access code, an expired device) or another parent's answers the same and changes nothing,
 * so a device can always turn its notifications off and learns nothing about other families.
 */
export async function unsubscribe(ctx: AppContext, phone: string, endpoint: string): Promise<void> {
  await deleteSubscription(ctx.db, phone, endpoint);
}
