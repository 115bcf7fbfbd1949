import {
  connectWhatsappSchema,
  errorSchema,
  whatsappSetupSchema,
  whatsappTestResultSchema,
  whatsappTestSchema,
} from '@tuitiondesk/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { noteWhatsappCallback } from './whatsapp-live';
import {
  connectWhatsapp,
  disconnectWhatsapp,
  getWhatsappSetup,
  sendWhatsappTest,
  webhookUrlOf,
} from './whatsapp-setup';

const tags = ['settings'];

/** The address the admin reached the console on (behind a trusted proxy, the one the proxy was asked for). */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** `/settings/whatsapp`: connect WhatsApp from the console (ADR 045). */
export function registerWhatsappSetupRoutes(app: ZodApp, ctx: AppContext): void {
  // The screen's "last callback": each signed callback the webhook accepted.
  const webhook = webhookUrlOf('');
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'POST' && reply.statusCode === 200 && request.routeOptions.url === webhook) {
      noteWhatsappCallback(ctx);
    }
  });

  app.get(
    '/settings/whatsapp',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "Where WhatsApp stands: connected or not, the webhook's address and verify token, Meta's live status",
        response: { 200: whatsappSetupSchema },
      },
    },
    async (request) => getWhatsappSetup(ctx, originOf(request)),
  );

  app.put(
    '/settings/whatsapp',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Connect WhatsApp: the Meta values are checked against the Cloud API, then kept and used at once',
        body: connectWhatsappSchema,
        response: { 200: whatsappSetupSchema, 409: errorSchema, 422: errorSchema, 502: errorSchema, 503: errorSchema },
      },
    },
    async (request) => connectWhatsapp(ctx, currentUser(request), request.body, originOf(request)),
  );

  app.delete(
    '/settings/whatsapp',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "Disconnect WhatsApp (the console's connection; the server's WHATSAPP_* variables cannot be)",
        response: { 200: whatsappSetupSchema, 409: errorSchema },
      },
    },
    async (request) => disconnectWhatsapp(ctx, currentUser(request), originOf(request)),
  );

  app.post(
    '/settings/whatsapp/test',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Send an approved template to your own phone through the WhatsApp connection in use',
        body: whatsappTestSchema,
        response: { 200: whatsappTestResultSchema, 422: errorSchema, 502: errorSchema, 503: errorSchema },
      },
    },
    async (request) => sendWhatsappTest(ctx, currentUser(request), request.body),
  );
}
