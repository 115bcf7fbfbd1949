import {
  errorSchema,
  paymentLinkParamsSchema,
  paymentLinkRequestSchema,
  paymentLinkSchema,
  razorpayWebhookAnswerSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { BadRequestError, ConflictError } from '../../lib/errors';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { familyPaymentLink } from './links';
import { isSignedByRazorpay } from './razorpay';
import { insertEvent } from './repository';
import { applyEvent, eventIdOf, parseEvent } from './webhook';

/** Razorpay's events are a few KB; far below this. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/**
 * Online payment's routes (ADR 053): a family's Payment Link (admins), and Razorpay's webhook, public
 * and proven by its signature over the raw bytes. The webhook's scope reads every body as bytes; the
 * JSON parser of every other route is untouched.
 */
export function registerPaymentGatewayRoutes(app: ZodApp, ctx: AppContext): void {
  app.post(
    '/fees/families/:family_id/payment-link',
    {
      config: adminOnly,
      schema: {
        tags: ['fees'],
        summary: "A Razorpay Payment Link for the family (all its children): the amount given, or the family's balance",
        params: paymentLinkParamsSchema,
        body: paymentLinkRequestSchema,
        response: {
          200: paymentLinkSchema,
          404: errorSchema,
          409: errorSchema,
          422: errorSchema,
          502: errorSchema,
          503: errorSchema,
        },
      },
    },
    async (request) =>
      familyPaymentLink(ctx, currentUser(request), request.params.family_id, request.body?.amount_paise),
  );

  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      '/payments/razorpay/webhook',
      {
        config: { isPublic: true },
        schema: {
          tags: ['fees'],
          summary: "Razorpay's webhook events (signed: X-Razorpay-Signature over the raw body)",
          response: { 200: razorpayWebhookAnswerSchema, 400: errorSchema, 409: errorSchema },
        },
      },
      async (request) => {
        const razorpay = ctx.config.razorpay;
        if (!razorpay) throw new ConflictError('payments.online_off');
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['x-razorpay-signature'];
        if (!isSignedByRazorpay(raw, typeof signature === 'string' ? signature : undefined, razorpay.webhookSecret)) {
          throw new BadRequestError('payments.signature_mismatch');
        }
        const rawBody = raw.toString('utf8').replaceAll('\u0000', '');
        const eventId = eventIdOf(request.headers['x-razorpay-event-id'], raw);
        const kept = await insertEvent(ctx.db, { eventId, event: parseEvent(rawBody).event, rawBody });
        if (kept === undefined) return { received: true as const, duplicate: true };
        try {
          const outcome = await applyEvent(ctx.db, kept, rawBody);
          request.log.info({ event: 'razorpay-webhook', event_id: eventId, outcome }, 'Razorpay event applied');
        } catch (error) {
          // Kept: the reconciler's next round applies it again. Razorpay must not send it again.
          request.log.error({ event: 'razorpay-webhook', event_id: eventId, err: error }, 'Razorpay event not applied');
        }
        return { received: true as const, duplicate: false };
      },
    );
  });
}
