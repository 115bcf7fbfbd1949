import {
  errorSchema,
  importQuerySchema,
  studentImportResultSchema,
  teacherImportResultSchema,
} from '@tuitiondesk/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { AppError, BadRequestError, PayloadTooLargeError } from '../../lib/errors';
import { currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import type { ImportKind } from './columns';
import { importStudents, importTeachers, type Upload } from './service';
import { assertExcelName, fileTooLarge } from './spreadsheet';
import { buildTemplate, templateLists, XLSX_CONTENT_TYPE } from './templates';

const tags = ['import'];
const config = { roles: ['admin'] as const };
const KINDS: ImportKind[] = ['students', 'teachers'];

/**
 * The one file part, read into memory (at most the configured size: the multipart limit stops the
 * stream there). Every way a multipart body can be wrong ends as a 400 or 413 that says so.
 */
async function readFilePart(request: FastifyRequest, maxBytes: number): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new BadRequestError('imports.not_multipart');
  }
  try {
    const part = await request.file();
    if (!part) throw new BadRequestError('imports.no_file');
    if (part.fieldname !== 'file') {
      part.file.resume();
      throw new BadRequestError('imports.wrong_field', { field: part.fieldname.slice(0, 40) });
    }
    try {
      assertExcelName(part.filename);
    } catch (error) {
      part.file.resume();
      throw error;
    }
    const buffer = await part.toBuffer();
    if (part.file.truncated) throw fileTooLarge(maxBytes);
    return { filename: part.filename, buffer };
  } catch (error) {
    if (error instanceof AppError) throw error;
    switch ((error as { code?: string }).code) {
      case 'FST_REQ_FILE_TOO_LARGE':
        throw fileTooLarge(maxBytes);
      case 'FST_FILES_LIMIT':
      case 'FST_PARTS_LIMIT':
      case 'FST_FIELDS_LIMIT':
        throw new PayloadTooLargeError('imports.too_many_parts');
      default:
        // Busboy's own complaints (no boundary, a part cut short) and a client that went away.
        throw new BadRequestError('imports.invalid_multipart');
    }
  }
}

export function registerImportRoutes(app: ZodApp, ctx: AppContext): void {
  const limits = { maxRows: ctx.config.importMaxRows, maxBytes: ctx.config.importMaxBytes };

  for (const kind of KINDS) {
    app.get(
      `/import/${kind}/template`,
      {
        config,
        schema: {
          tags,
          summary: `Download the ${kind} import template (.xlsx with an Instructions sheet)`,
          produces: [XLSX_CONTENT_TYPE],
          response: { 200: z.any().meta({ type: 'string', format: 'binary' }) },
        },
      },
      async (_request, reply) => {
        // Built for each download: its instructions list the centre's classes and subjects as they are now.
        const template = buildTemplate(kind, limits, await templateLists(ctx));
        return reply
          .header('content-type', XLSX_CONTENT_TYPE)
          .header('content-disposition', `attachment; filename="${template.filename}"`)
          .send(template.content);
      },
    );
  }

  const importSchema = (
    summary: string,
    result: typeof studentImportResultSchema | typeof teacherImportResultSchema,
  ) => ({
    tags,
    summary,
    description:
      'multipart/form-data with the workbook in the field `file` (.xlsx or .xls). Valid rows are imported in one transaction; ' +
      'invalid and duplicate rows are listed in `errors` with their row number in the sheet (a student row saying yes to WhatsApp for a family whose parent turned it off is one, ADR 023). `?dry_run=true` checks the file and writes nothing.',
    consumes: ['multipart/form-data'],
    querystring: importQuerySchema,
    response: { 200: result, 400: errorSchema, 409: errorSchema, 413: errorSchema, 422: errorSchema },
  });

  app.post(
    '/import/students/import',
    { config, schema: importSchema('Import students from an Excel file', studentImportResultSchema) },
    async (request) =>
      importStudents(
        ctx,
        currentUser(request),
        await readFilePart(request, ctx.config.importMaxBytes),
        request.query.dry_run,
      ),
  );

  app.post(
    '/import/teachers/import',
    {
      config,
      schema: importSchema(
        'Import teachers from an Excel file; each gets a sign-in account, its initial password answered once',
        teacherImportResultSchema,
      ),
    },
    async (request) =>
      importTeachers(
        ctx,
        currentUser(request),
        await readFilePart(request, ctx.config.importMaxBytes),
        request.query.dry_run,
      ),
  );
}
