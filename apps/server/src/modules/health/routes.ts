import { errorSchema, healthSchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { DATABASE_UNAVAILABLE } from '../../lib/errors';
import type { ZodApp } from '../../plugins/zod-app';

const VERSION = process.env.npm_package_version ?? '0.1.0';

export function registerHealthRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/health',
    {
      config: { isPublic: true },
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability, for load balancers',
        response: { 200: healthSchema, 503: healthSchema.or(errorSchema) },
      },
    },
    async (_request, reply) => {
      try {
        await ctx.db.query('SELECT 1');
        return { status: 'ok' as const, database: 'ok' as const, version: VERSION };
      } catch {
        return reply
          .status(503)
          .header('retry-after', '5')
          .send({ status: 'unavailable', database: 'unavailable', version: VERSION, detail: DATABASE_UNAVAILABLE });
      }
    },
  );
}
