import { type DeletedCount, deletedCountSchema, errorSchema, idListSchema } from '@tuitiondesk/contract';
import type { z } from 'zod';
import type { AppContext } from '../context';
import { adminOnly, currentUser } from '../plugins/authentication';
import type { ZodApp } from '../plugins/zod-app';
import type { Actor } from './activity-log';

/** What every clear-all answers, whatever else it adds: the count, and the backup taken first. */
type ClearAllResult = DeletedCount & { backup_file: string };

/** A list's two bulk deletes: the texts the API document shows, and the service calls behind them. */
export interface BulkDeleteRoutes {
  /** The list's path: `/students`. */
  path: string;
  tags: string[];
  deleteListedSummary: string;
  clearAllSummary: string;
  /** The schema of what clear-all answers. */
  clearAllResponse: z.ZodType<ClearAllResult, ClearAllResult>;
  deleteListed: (ctx: AppContext, actor: Actor, ids: number[]) => Promise<DeletedCount>;
  clearAll: (ctx: AppContext, actor: Actor) => Promise<ClearAllResult>;
}

/**
 * `POST <path>/delete-multiple` (a bare JSON array of ids: all of them or none) and `DELETE
 * <path>/clear-all` (every record, after a backup: none written, nothing deleted), for admins only.
 */
export function registerBulkDeleteRoutes(app: ZodApp, ctx: AppContext, routes: BulkDeleteRoutes): void {
  const { path, tags } = routes;
  app.post(
    `${path}/delete-multiple`,
    {
      config: adminOnly,
      schema: {
        tags,
        summary: routes.deleteListedSummary,
        body: idListSchema,
        response: { 200: deletedCountSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => routes.deleteListed(ctx, currentUser(request), request.body),
  );

  app.delete(
    `${path}/clear-all`,
    {
      config: adminOnly,
      schema: { tags, summary: routes.clearAllSummary, response: { 200: routes.clearAllResponse, 503: errorSchema } },
    },
    async (request) => routes.clearAll(ctx, currentUser(request)),
  );
}
