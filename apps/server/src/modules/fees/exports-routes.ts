import { collectionsQuerySchema, errorSchema, familyIdParamsSchema, feeExportQuerySchema } from '@tuitiondesk/contract';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { adminOnly } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { collectionsExport, duesExport, type ExportFile, statementExport } from './exports';

const tags = ['fees'];

const fileResponse = {
  200: z.string().meta({
    description:
      'The file, as an attachment, its column names, sheet name and the words the product writes (modes, kinds, totals) in `lang`: CSV (money in rupees with two decimals, "1250.00"; dates yyyy-MM-dd) or an Excel workbook of one sheet (money as numbers shown with two decimals, dates as dates). Text a spreadsheet would run as a formula (= + - @ tab, CR, or full-width ＝＋－＠ first) is written behind a single quote in CSV and as a string cell in Excel.',
  }),
  422: errorSchema,
};

function sendFile(reply: FastifyReply, file: ExportFile) {
  reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.filename}"`);
  // The file is sent as it is, never through the response schema (which documents it).
  return reply.send(file.body as unknown as string);
}

/** The accountant's exports of the fees reports, CSV or Excel (admins only). */
export function registerFeeExportRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/fees/dues/export',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'The dues list (GET /fees/dues) as CSV or Excel, with its total',
        querystring: feeExportQuerySchema,
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: fileResponse,
      },
    },
    async (request, reply) => sendFile(reply, await duesExport(ctx.db, request.query)),
  );

  app.get(
    '/fees/collections/export',
    {
      config: adminOnly,
      schema: {
        tags,
        summary:
          'Collections (GET /fees/collections, same period) as CSV or Excel: each payment and reversal in the period, and the total',
        querystring: collectionsQuerySchema.extend(feeExportQuerySchema.shape),
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: fileResponse,
      },
    },
    async (request, reply) => {
      const { format, lang, ...period } = request.query;
      return sendFile(reply, await collectionsExport(ctx.db, period, { format, lang }));
    },
  );

  app.get(
    '/fees/families/:family_id/statement/export',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "A family's statement (GET /fees/families/{family_id}/statement) as CSV or Excel, with its totals",
        params: familyIdParamsSchema,
        querystring: feeExportQuerySchema,
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { ...fileResponse, 404: errorSchema },
      },
    },
    async (request, reply) => sendFile(reply, await statementExport(ctx.db, request.params.family_id, request.query)),
  );
}
