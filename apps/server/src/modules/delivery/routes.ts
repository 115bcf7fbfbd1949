import { errorSchema, pushPublicKeySchema, pushSubscriptionSchema, pushUnsubscribeSchema } from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentParent, currentUser, parentOnly } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { subscribe, unsubscribe } from './push-service';

const okSchema = z.object({ ok: z.literal(true) });

export function registerPushRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/parent/push/public-key',
    {
      config: parentOnly,
      schema: {
        tags: ['parent'],
        summary: "The server's VAPID public key: the applicationServerKey of PushManager.subscribe()",
        response: { 200: pushPublicKeySchema },
      },
    },
    async () => ({ public_key: ctx.push.publicKey }),
  );

  app.post(
    '/parent/push/subscriptions',
    {
      config: parentOnly,
      schema: {
        tags: ['parent'],
        summary: "Register this device's push subscription (PushSubscription.toJSON()); again updates it",
        body: pushSubscriptionSchema,
        response: { 201: okSchema, 422: errorSchema },
      },
    },
    async (request, reply) => {
      await subscribe(ctx, 'parent', currentParent(request).phone, request.body, request.headers['user-agent']);
      return reply.status(201).send({ ok: true });
    },
  );

  app.delete(
    '/parent/push/subscriptions',
    {
      config: parentOnly,
      schema: {
        tags: ['parent'],
        summary: "Stop pushes to this device (only the parent's own subscription; an unknown endpoint is fine)",
        body: pushUnsubscribeSchema,
        response: { 200: okSchema, 422: errorSchema },
      },
    },
    async (request) => {
      await unsubscribe(ctx, 'parent', currentParent(request).phone, request.body.endpoint);
      return { ok: true as const };
    },
  );

  // Staff devices: a signed-in admin or teacher allows notifications from the console (marking reminders).
  app.get(
    '/staff/push/public-key',
    {
      schema: {
        tags: ['push'],
        summary: "The server's VAPID public key, for the console's PushManager.subscribe()",
        response: { 200: pushPublicKeySchema },
      },
    },
    async () => ({ public_key: ctx.push.publicKey }),
  );

  app.post(
    '/staff/push/subscriptions',
    {
      schema: {
        tags: ['push'],
        summary: "Register this device's push subscription for the signed-in staff account; again updates it",
        description:
          "The same endpoint rule as the parent app's: a public push service's host, by name, over https. A device signed in as another account moves to it. Ended with the account's sessions (a password change, signing out everywhere).",
        body: pushSubscriptionSchema,
        response: { 201: okSchema, 422: errorSchema },
      },
    },
    async (request, reply) => {
      await subscribe(ctx, 'staff', currentUser(request).id, request.body, request.headers['user-agent']);
      return reply.status(201).send({ ok: true });
    },
  );

  app.delete(
    '/staff/push/subscriptions',
    {
      schema: {
        tags: ['push'],
        summary: "Stop pushes to this device (only the account's own subscription; an unknown endpoint is fine)",
        body: pushUnsubscribeSchema,
        response: { 200: okSchema, 422: errorSchema },
      },
    },
    async (request) => {
      await unsubscribe(ctx, 'staff', currentUser(request).id, request.body.endpoint);
      return { ok: true as const };
    },
  );
}
