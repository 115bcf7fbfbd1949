import { analyticsQuerySchema, errorSchema, messageAnalyticsSchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { ZodApp } from '../../plugins/zod-app';
import { getAnalytics } from './service';

export function registerAnalyticsRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/communications/analytics',
    {
      schema: {
        tags: ['messages'],
        summary:
          'How messages to families fared: per send and per day, by channel, with the WhatsApp cost of the month',
        querystring: analyticsQuerySchema,
        response: { 200: messageAnalyticsSchema, 422: errorSchema },
      },
    },
    async (request) => getAnalytics(ctx, request.query),
  );
}
