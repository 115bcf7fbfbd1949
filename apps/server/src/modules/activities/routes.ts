import {
  errorSchema,
  markViewedResultSchema,
  recentActivitiesQuerySchema,
  recentActivitiesSchema,
} from '@tuitiondesk/contract';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { sendVersioned } from '../../lib/versioned-answer';
import { currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { markViewed, recentActivities } from './service';

export function registerActivityRoutes(app: ZodApp, ctx: AppContext): void {
  // Own scope: mark-viewed is a POST without a body, and clients send it both with no
  // content type and with `application/json` and nothing after it. The stock JSON parser refuses the
  // latter; here an empty JSON body is read as no body, anything else is parsed as usual.
  app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>();
    const parseJson = scope.getDefaultJsonParser('error', 'error');
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      parseJson(request, text, done);
    });

    scope.get(
      '/activities/recent',
      {
        schema: {
          tags: ['activities'],
          summary: 'The latest activities, newest first; with unread_only, only those since you last viewed them',
          querystring: recentActivitiesQuerySchema,
          response: { 200: recentActivitiesSchema, 422: errorSchema },
        },
      },
      // "5 minutes ago" and the caller's own unread mark: named by the minute and the caller.
      async (request, reply) =>
        sendVersioned(
          ctx,
          request,
          reply,
          { kinds: ['activities', 'accounts'], perUser: true, perMinute: true },
          async () =>
            JSON.stringify(
              await recentActivities(ctx, currentUser(request), {
                limit: request.query.limit,
                unreadOnly: request.query.unread_only,
              }),
            ),
        ),
    );

    scope.post(
      '/activities/mark-viewed',
      {
        schema: {
          tags: ['activities'],
          summary: 'Mark every activity so far as viewed, for you only (no body)',
          response: { 200: markViewedResultSchema },
        },
      },
      async (request) => markViewed(ctx, currentUser(request).id),
    );
  });
}
