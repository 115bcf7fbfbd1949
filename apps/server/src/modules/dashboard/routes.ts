import { dashboardSummarySchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { sendVersioned } from '../../lib/versioned-answer';
import type { ZodApp } from '../../plugins/zod-app';
import { getDashboard } from './service';

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
}
