import {
  errorSchema,
  importQuerySchema,
  SUBJECTS,
  studentImportResultSchema,
  teacherImportResultSchema,
} from '@tuitiondesk/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { BadRequestError } from '../../lib/errors';
import { currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { STUDENT_COLUMNS, TEACHER_COLUMNS, templateTable } from './columns';
import { importStudents, importTeachers, type Upload } from './service';
import { assertExcelName, fileTooLarge, writeWorkbook } from './spreadsheet';

const tags = ['import'];
const config = { roles: ['admin'] as const };
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const COMMON_INSTRUCTIONS = [
  'Fill in one row per record under the column names of the first sheet; keep the first row as it is.',
  'Required columns come first. Optional columns may be left empty or removed.',
  'Phone numbers include the country code, e.g. +919876543210 (spaces and dashes are fine).',
  'Delete the example row before you import. Rows with errors are skipped and listed with their row number; the rest are imported.',
  'Use "Check file" first to see what would be imported without writing anything.',
];

const TEMPLATES = {
  students: {
    filename: 'student_import_template.xlsx',
    sheet: 'Students',
    table: templateTable(STUDENT_COLUMNS),
    instructions: [
      'Student import',
      'Required: first_name, last_name, class_name, parent_phone. Optional: parent_name.',
      'Class names are 7, 8, 9 or 10, without sections ("Class 7" and "7th" are read as 7).',
      'A student with the same name and parent phone as one already on record is reported, not imported twice.',
      ...COMMON_INSTRUCTIONS,
    ],
  },
  teachers: {
    filename: 'teacher_import_template.xlsx',
    sheet: 'Teachers',
    table: templateTable(TEACHER_COLUMNS),
    instructions: [
      'Teacher import',
      'Required: first_name, last_name, email, phone_number. Optional: subjects, classes_assigned, qualification, experience_years, address, emergency_contact.',
      'Teacher emails must be valid and unique; a teacher whose email is already on record is reported, not imported twice.',
      `subjects: a comma-separated list from ${SUBJECTS.join(', ')}.`,
      'classes_assigned: a comma-separated list of 7, 8, 9 or 10. experience_years: a whole number.',
      'Each imported teacher gets a sign-in account; the result shows each initial password once.',
      ...COMMON_INSTRUCTIONS,
    ],
  },
};

async function readUpload(request: FastifyRequest, maxBytes: number): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new BadRequestError('Send the spreadsheet as multipart/form-data in a field named "file"');
  }
  const part = await request.file();
  if (!part) throw new BadRequestError('No file was sent: choose a spreadsheet in the field named "file"');
  if (part.fieldname !== 'file') {
    part.file.resume();
    throw new BadRequestError(`The file must be sent in the field named "file", not "${part.fieldname}"`);
  }
  assertExcelName(part.filename);
  let buffer: Buffer;
  try {
    buffer = await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(maxBytes);
    throw error;
  }
  if (part.file.truncated) throw fileTooLarge(maxBytes);
  return { filename: part.filename, buffer };
}

export function registerImportRoutes(app: ZodApp, ctx: AppContext): void {
  for (const [kind, template] of Object.entries(TEMPLATES)) {
    const workbook = writeWorkbook(template.sheet, template.table, template.instructions);
    app.get(
      `/import/${kind}/template`,
      {
        config,
        schema: {
          tags,
          summary: `Download the ${kind} import template (.xlsx with an Instructions sheet)`,
          produces: [XLSX_TYPE],
          response: { 200: z.any().meta({ type: 'string', format: 'binary' }) },
        },
      },
      async (_request, reply) =>
        reply
          .header('content-type', XLSX_TYPE)
          .header('content-disposition', `attachment; filename="${template.filename}"`)
          .send(workbook),
    );
  }

  app.post(
    '/import/students/import',
    {
      config,
      schema: {
        tags,
        summary: 'Import students from an .xlsx or .xls file (multipart field "file"); ?dry_run=true writes nothing',
        consumes: ['multipart/form-data'],
        querystring: importQuerySchema,
        response: { 200: studentImportResultSchema, 400: errorSchema, 413: errorSchema, 422: errorSchema },
      },
    },
    async (request) =>
      importStudents(
        ctx,
        currentUser(request),
        await readUpload(request, ctx.config.importMaxBytes),
        request.query.dry_run,
      ),
  );

  app.post(
    '/import/teachers/import',
    {
      config,
      schema: {
        tags,
        summary:
          'Import teachers (each with a sign-in account) from an .xlsx or .xls file; ?dry_run=true writes nothing',
        consumes: ['multipart/form-data'],
        querystring: importQuerySchema,
        response: {
          200: teacherImportResultSchema,
          400: errorSchema,
          409: errorSchema,
          413: errorSchema,
          422: errorSchema,
        },
      },
    },
    async (request) =>
      importTeachers(
        ctx,
        currentUser(request),
        await readUpload(request, ctx.config.importMaxBytes),
        request.query.dry_run,
      ),
  );
}
