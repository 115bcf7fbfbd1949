import { dashboardSummarySchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
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
    async () => getDashboard(ctx),
  );
}
