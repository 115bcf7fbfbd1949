import { z } from 'zod';
import { queryFlagSchema } from './common';

export const IMPORT_EXTENSIONS = ['.xlsx', '.xls'] as const;

export const importQuerySchema = z.object({ dry_run: queryFlagSchema });

export const importRowErrorSchema = z.object({
  row: z.number().int().describe("the row's number in the sheet (the header is row 1)"),
  error: z.string().describe('what is wrong, naming the column as the file names it'),
});
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

export const importedStudentSchema = z.object({
  name: z.string(),
  phone: z.string(),
  class_name: z.string(),
  unique_id: z.string().nullable().describe('null in a dry run'),
});

export const importedTeacherSchema = z.object({
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  unique_id: z.string().nullable().describe('null in a dry run'),
  username: z.string().nullable(),
  initial_password: z.string().nullable().describe('shown once; null in a dry run'),
});

export const alreadyImportedSchema = z.object({
  row: z.number().int().describe("the row's number in the sheet (the header is row 1)"),
  name: z.string().describe('the name the row gives'),
  unique_id: z.string().describe('the record already there, left as it is'),
});
export type AlreadyImported = z.infer<typeof alreadyImportedSchema>;

/** What every import answers, around its own list of the rows it imported. */
const importSummary = {
  message: z.string(),
  dry_run: z.boolean(),
  total_rows: z.number().int().describe('rows under the header that hold anything; blank rows are not counted'),
  imported_count: z.number().int(),
};
const rowErrorsSchema = z.array(importRowErrorSchema);
const alreadyImportedListSchema = z
  .array(alreadyImportedSchema)
  .describe('rows whose record is on record already (a file imported again): not errors, and not imported twice');

export const studentImportResultSchema = z.object({
  ...importSummary,
  imported_students: z.array(importedStudentSchema),
  already_imported: alreadyImportedListSchema,
  errors: rowErrorsSchema,
});
export type StudentImportResult = z.infer<typeof studentImportResultSchema>;

export const teacherImportResultSchema = z.object({
  ...importSummary,
  imported_teachers: z.array(importedTeacherSchema),
  already_imported: alreadyImportedListSchema,
  errors: rowErrorsSchema,
});
export type TeacherImportResult = z.infer<typeof teacherImportResultSchema>;
