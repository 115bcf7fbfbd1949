import { Readable } from 'node:stream';
import {
  auditPageQuerySchema,
  auditPageSchema,
  auditQuerySchema,
  auditRetentionSchema,
  errorSchema,
  updateAuditRetentionSchema,
} from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { today } from '../../lib/time';
import { adminOnly } from '../../plugins/authentication';
import { registerSettingResource } from '../../plugins/setting-routes';
import type { ZodApp } from '../../plugins/zod-app';
import { auditCsv, getAuditRetention, listAudit, updateAuditRetention } from './service';

const tags = ['audit'];

export function registerAuditRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/audit',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'The audit log: who changed what, when, from where and how; newest first',
        description:
          "Filters: actor_id, entity (a table such as students, or sign_in, backup), record_id (with entity: one record's full history), action, way, from and to (days, both included).",
        querystring: auditPageQuerySchema,
        response: { 200: auditPageSchema, 422: errorSchema },
      },
    },
    async (request) => {
      const { limit, offset, ...filters } = request.query;
      return listAudit(ctx, filters, { limit, offset });
    },
  );

  app.get(
    '/audit/export',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'The audit log as CSV, with the same filters as GET /audit (streamed)',
        querystring: auditQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string().meta({ description: 'CSV, UTF-8 with a byte order mark' }), 422: errorSchema },
      },
    },
    async (request, reply) => {
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${today()}.csv"`);
      // A stream is sent as it is, never through the response schema (which documents the CSV).
      return reply.send(Readable.from(auditCsv(ctx.db, request.query)) as unknown as string);
    },
  );

  registerSettingResource(app, {
    path: '/settings/audit',
    answer: auditRetentionSchema,
    body: updateAuditRetentionSchema,
    read: {
      summary: 'How many months the audit log keeps its rows',
      config: adminOnly,
      run: () => getAuditRetention(ctx),
    },
    change: {
      summary: 'Change how many months the audit log keeps its rows (1 to 120)',
      description: 'A daily job removes older rows, and records that it did.',
      run: (user, body) => updateAuditRetention(ctx, user, body),
    },
  });
}
