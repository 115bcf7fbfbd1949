import {
  communicationHistorySchema,
  errorSchema,
  familyCountQuerySchema,
  familyCountSchema,
  historyPageQuerySchema,
  idParamsSchema,
  messageGroupsQuerySchema,
  messageGroupsSchema,
  sendFamiliesSchema,
  sendToParentsResultSchema,
  sendToParentsSchema,
  sendWhatsappResultSchema,
  sendWhatsappSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { sendVersioned } from '../../lib/versioned-answer';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { messageGroups, sendFamilies } from './history';
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
        summary:
          'How many families a message to these recipients would go to now (one per parent phone), and which channel reaches each',
        description:
          'The families /messages/send-to-parents writes to for the same recipients: distinct parent phones of the students of the class (or of all classes) who have not left. Each family counts once, on the first channel the send would use: the parent app, else WhatsApp, else none (the send list).',
        querystring: familyCountQuerySchema,
        response: { 200: familyCountSchema, 422: errorSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, { kinds: ['students', 'families', 'settings'] }, async () =>
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

  // Grouped by message beside the spec's history, which stays one item per recipient (ADR 049). They
  // change with the clock too (a family unproven for not_reached_minutes is not reached): once a minute.
  const reachRead = { kinds: ['messages', 'settings'], perMinute: true } as const;
  app.get(
    '/communications/history/grouped',
    {
      schema: {
        tags: ['messages'],
        summary:
          'Messages sent, one per message (a send to many families counted by where it stands with each), newest first',
        description:
          "A send (a notice, one approval's alerts) is one item with its families counted once each as read, delivered, sent_by_hand, not_reached or waiting (the send list's definition, ADR 044); a message to one family without a send is an item of its own with that family in `family`.",
        querystring: messageGroupsQuerySchema,
        response: { 200: messageGroupsSchema, 422: errorSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, reachRead, async () =>
        JSON.stringify(await messageGroups(ctx, request.query)),
      ),
  );

  app.get(
    '/communications/history/sends/:id',
    {
      schema: {
        tags: ['messages'],
        summary:
          "The families of one send of the grouped history: each family's message, its status and where it stands",
        params: idParamsSchema,
        response: { 200: sendFamiliesSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, reachRead, async () =>
        JSON.stringify(await sendFamilies(ctx, request.params.id)),
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
