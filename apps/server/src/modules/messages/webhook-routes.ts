import { errorWords } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { UnauthorizedError } from '../../lib/errors';
import { problemBody } from '../../plugins/errors';
import type { ZodApp } from '../../plugins/zod-app';
import { handshakeChallenge, isSignedByMeta, processCallback } from './webhook';

/** Meta's callbacks are small; a batch of statuses stays far below this. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * The Cloud API's webhook. GET answers Meta's verification handshake; POST takes signed callbacks,
 * read as the raw bytes the signature covers. Both are public (Meta has no token of ours), so each
 * proves itself: the verify token, or the app secret's signature. Without WhatsApp configured there is
 * nothing to verify against: 403 and 401.
 */
export function registerWhatsappWebhookRoutes(app: ZodApp, ctx: AppContext): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );

    scope.get(
      '/whatsapp/webhook',
      {
        config: { isPublic: true },
        schema: { tags: ['whatsapp'], summary: "Meta's webhook verification handshake", hide: false },
      },
      async (request, reply) => {
        const verifyToken = ctx.config.whatsapp?.verifyToken;
        const challenge = verifyToken
          ? handshakeChallenge(request.query as Record<string, unknown>, verifyToken)
          : undefined;
        if (challenge === undefined) {
          return reply.code(403).send(problemBody(errorWords('whatsapp.verify_token_mismatch')));
        }
        return reply.type('text/plain; charset=utf-8').send(challenge);
      },
    );

    scope.post(
      '/whatsapp/webhook',
      { config: { isPublic: true }, schema: { tags: ['whatsapp'], summary: 'WhatsApp Cloud API callbacks (signed)' } },
      async (request, reply) => {
        const appSecret = ctx.config.whatsapp?.appSecret;
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (
          !appSecret ||
          !isSignedByMeta(raw, request.headers['x-hub-signature-256'] as string | undefined, appSecret)
        ) {
          throw new UnauthorizedError('whatsapp.signature_mismatch');
        }
        let payload: unknown;
        try {
          payload = JSON.parse(raw.toString('utf8'));
        } catch {
          // Signed but not JSON: nothing to do, and Meta must not send it again.
          return reply.code(200).send({ received: true });
        }
        // What is not for the centre, and an item that fails, is logged and skipped inside; the answer
        // stays 200 so Meta does not send the callback again (docs/whatsapp.md, "What the webhook applies").
        const result = await processCallback(ctx, payload, request.log);
        request.log.info({ whatsapp: result }, 'WhatsApp callback processed');
        return reply.code(200).send({ received: true });
      },
    );
  });
}
