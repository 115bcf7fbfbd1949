import {
  conversationParamsSchema,
  conversationSchema,
  conversationSummarySchema,
  errorSchema,
} from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { ZodApp } from '../../plugins/zod-app';
import { getConversation, getConversations } from './service';

const tags = ['messages'];

/** What parents wrote to the centre on WhatsApp, and the centre's WhatsApp messages to them. */
export function registerConversationRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/communications/conversations',
    {
      schema: {
        tags,
        summary: 'Families who wrote on WhatsApp, latest first, with whether free text may still be sent',
        response: { 200: z.array(conversationSummarySchema) },
      },
    },
    async () => getConversations(ctx),
  );

  app.get(
    '/communications/conversations/:phone',
    {
      schema: {
        tags,
        summary: "One family's WhatsApp conversation, oldest first (the last 200 lines)",
        params: conversationParamsSchema,
        response: { 200: conversationSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => getConversation(ctx, request.params.phone),
  );
}
