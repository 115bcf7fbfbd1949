import {
  communicationHistorySchema,
  errorSchema,
  familyCountQuerySchema,
  familyCountSchema,
  historyPageQuerySchema,
  sendToParentsResultSchema,
  sendToParentsSchema,
  sendWhatsappResultSchema,
  sendWhatsappSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { sendVersioned } from '../../lib/versioned-answer';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { communicationHistory, countRecipientFamilies, requireWhatsapp, sendToParents, sendWhatsapp } from './service';

export function registerMessageRoutes(app: ZodApp, ctx: AppContext): void {
  app.post(
    '/messages/send-to-parents',
    {
      schema: {
        tags: ['messages'],
        summary: 'Send an in-app message to every parent of a class, or of all classes (one per parent phone)',
        body: sendToParentsSchema,
        response: { 200: sendToParentsResultSchema, 422: errorSchema },
      },
    },
    async (request) => sendToParents(ctx, currentUser(request), request.body),
  );

  app.get(
    '/messages/family-count',
    {
      schema: {
        tags: ['messages'],
        summary: 'How many families a message to these recipients would go to now (one per parent phone)',
        description:
          'The families /messages/send-to-parents writes to for the same recipients: distinct parent phones of the students of the class (or of all classes) who have not left.',
        querystring: familyCountQuerySchema,
        response: { 200: familyCountSchema, 422: errorSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, { kinds: ['students'] }, async () =>
        JSON.stringify(await countRecipientFamilies(ctx, request.query.recipients)),
      ),
  );

  app.get(
    '/communications/history',
    {
      schema: {
        tags: ['messages'],
        summary: 'Messages sent, one per recipient, newest first',
        querystring: historyPageQuerySchema,
        response: { 200: communicationHistorySchema, 422: errorSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, { kinds: ['messages'] }, async () =>
        JSON.stringify(await communicationHistory(ctx, request.query.limit, request.query.offset)),
      ),
  );

  app.post(
    '/communications/send-whatsapp',
    {
      config: adminOnly,
      // Unconfigured says so before the body is judged: no body could make it work.
      preValidation: async () => {
        requireWhatsapp(ctx);
      },
      schema: {
        tags: ['messages'],
        summary: 'Send a WhatsApp text to a phone, or to the parent of a student (by id or unique id)',
        body: sendWhatsappSchema,
        response: {
          200: sendWhatsappResultSchema,
          404: errorSchema,
          422: errorSchema,
          502: errorSchema,
          503: errorSchema,
        },
      },
    },
    async (request) => sendWhatsapp(ctx, currentUser(request), request.body),
  );
}
