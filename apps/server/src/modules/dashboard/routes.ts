import { dashboardSummarySchema, myClassesSchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { sendVersioned } from '../../lib/versioned-answer';
import { currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { getDashboard, getMyClasses } from './service';

export function registerDashboardRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/dashboard/summary',
    {
      schema: {
        tags: ['dashboard'],
        summary: "The dashboard's figures in one call, and the classes with no attendance marked today",
        response: { 200: dashboardSummarySchema },
      },
    },
    // Families become "not reached" as minutes pass, with no write: the answer is named by the minute too.
    async (request, reply) =>
      sendVersioned(
        ctx,
        request,
        reply,
        { kinds: ['students', 'teachers', 'attendance', 'messages', 'settings'], perMinute: true },
        async () => JSON.stringify(await getDashboard(ctx)),
      ),
  );

  app.get(
    '/dashboard/my-classes',
    {
      schema: {
        tags: ['dashboard'],
        summary:
          "The caller's assigned classes with their state today (not marked, marked, approved), and today's reminders",
        response: { 200: myClassesSchema },
      },
    },
    // Per caller, kept under the versions of what it reads: a mark, an approval, a reminder or a class
    // assignment anywhere makes the next read build anew; otherwise it costs the versions' query.
    async (request, reply) =>
      sendVersioned(ctx, request, reply, { kinds: ['students', 'teachers', 'attendance'], perUser: true }, async () =>
        JSON.stringify(await getMyClasses(ctx, currentUser(request).id)),
      ),
  );
}
