import {
  CLASS_NAME_HINT,
  createStudentSchema,
  createTeacherSchema,
  emailSchema,
  type ImportRowError,
  normaliseClassName,
  optionalText,
  type StudentImportResult,
  SUBJECTS,
  type Subject,
  type TeacherImportResult,
} from '@tuitiondesk/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { type Actor, plural, recordActivity } from '../../lib/activity-log';
import { BadRequestError, ConflictError, isUniqueViolation } from '../../lib/errors';
import { findByNameAndPhone, insertStudents, type StudentFields } from '../students/repository';
import { findEmailsInUse } from '../teachers/repository';
import { insertTeachersWithAccounts, type NewTeacher, prepareAccounts } from '../teachers/service';
import {
  type ColumnMap,
  type ColumnSpec,
  FULL_NAME,
  mapColumns,
  STUDENT_COLUMNS,
  type StudentField,
  TEACHER_COLUMNS,
  type TeacherField,
} from './columns';
import { lockImports } from './repository';
import { readSheet, type Sheet, type SheetRow } from './spreadsheet';

export interface Upload {
  filename: string;
  buffer: Buffer;
}

/**
 * The rows are checked with the same schemas as the Add Student and Add Teacher dialogs; the import
 * only relaxes parent_name (may be empty) and requires a teacher's email. Everything is read and
 * checked before the transaction opens; inside it, one lock per kind of import, the duplicate check
 * against the database, one set-based insert and one activity row.
 */

const studentRowSchema = createStudentSchema.extend({
  parent_name: optionalText(200).transform((value) => value ?? ''),
});

const teacherRowSchema = createTeacherSchema.extend({ email: emailSchema });

const SUBJECT_BY_KEY = new Map<string, Subject>([
  ...SUBJECTS.map((subject) => [subjectKey(subject), subject] as [string, Subject]),
  ['maths', 'Mathematics'],
  ['math', 'Mathematics'],
  ['computers', 'Computer Science'],
  ['computer', 'Computer Science'],
  ['cs', 'Computer Science'],
  ['pe', 'Physical Education'],
  ['socialscience', 'Social Studies'],
  ['sst', 'Social Studies'],
]);

function subjectKey(text: string): string {
  return text.toLowerCase().replace(/[^a-z]/g, '');
}

function splitList(text: string): string[] {
  return text
    .split(/[,;\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `5`, `5 years`, `5 yrs`, `5.0` are five years; anything else goes to the schema as written. */
function experienceText(text: string): string | undefined {
  if (text === '') return undefined;
  const match = /^(\d+)(?:\.0+)?\s*(?:years?|yrs?)?\.?$/i.exec(text);
  return match ? match[1] : text;
}

/** Keeps only what a person can read in the activity feed: no folders, no control characters, not too long. */
function displayName(filename: string): string {
  const base = collapse((filename.split(/[\\/]/).pop() ?? '').normalize('NFC').replace(/[\p{Cc}\p{Cf}]/gu, ''));
  return base.length > 80 ? `${base.slice(0, 77)}…` : base || 'a spreadsheet';
}

interface RowReader<Field extends string> {
  cell: (field: Field) => string;
  first: string;
  last: string;
  /** The header to name in an error about this field, as the file writes it. */
  label: (field: Field | 'full_name') => string;
}

function rowReader<Field extends string>(row: SheetRow, columns: ColumnMap<Field>): RowReader<Field> {
  const text = (field: Field | typeof FULL_NAME) => {
    const index = columns.index.get(field);
    return index === undefined ? '' : (row.cells[index] ?? '');
  };
  const nameLabel = columns.label.get(FULL_NAME) ?? 'name';
  let first = collapse(text('first_name' as Field));
  let last = collapse(text('last_name' as Field));
  if (columns.splitsName) {
    const full = collapse(text(FULL_NAME));
    const space = full.indexOf(' ');
    first = space < 0 ? full : full.slice(0, space);
    last = space < 0 ? '' : full.slice(space + 1);
  }
  return {
    cell: text,
    first,
    last,
    label: (field) => {
      if (columns.splitsName && (field === FULL_NAME || field === 'first_name' || field === 'last_name')) {
        return nameLabel;
      }
      // full_name is first and last name joined: an error about it (too long) is about the name.
      return field === FULL_NAME ? 'name' : (columns.label.get(field) ?? field);
    },
  };
}

/**
 * The template's example row, left in by mistake: without this check it would become a real
 * student, or a teacher account for priya.nair@example.com.
 */
function isExampleRow<Field extends string>(reader: RowReader<Field>, columns: ColumnSpec<Field>[]): boolean {
  return columns
    .filter((column) => column.required)
    .every((column) => {
      const value =
        column.field === 'first_name'
          ? reader.first
          : column.field === 'last_name'
            ? reader.last
            : reader.cell(column.field);
      return value.toLowerCase() === column.example.toLowerCase();
    });
}

const EXAMPLE_ROW = "This is the template's example row; delete it, or replace it with a real record";

/** Empty required cells, named the way the sheet names them. */
function missingValues<Field extends string>(
  reader: RowReader<Field>,
  required: Field[],
  splitsName: boolean,
): string[] {
  const problems: string[] = [];
  if (splitsName && (reader.first === '' || reader.last === '')) {
    problems.push(`${reader.label(FULL_NAME)}: must hold a first and a last name, separated by a space`);
  }
  for (const field of required) {
    if (splitsName && (field === 'first_name' || field === 'last_name')) continue;
    const value = field === 'first_name' ? reader.first : field === 'last_name' ? reader.last : reader.cell(field);
    if (value === '') problems.push(`${reader.label(field)}: is required`);
  }
  return problems;
}

function describeIssues<Field extends string>(error: z.ZodError, reader: RowReader<Field>): string[] {
  return error.issues.map((issue) => `${reader.label(String(issue.path[0] ?? 'row') as Field)}: ${issue.message}`);
}

function resultMessage(noun: string, imported: number, errors: number, dryRun: boolean): string {
  if (dryRun) {
    if (imported === 0)
      return `Check complete: no ${noun}s can be imported: ${errors} row(s) have errors. Nothing was saved.`;
    const problems = errors > 0 ? ` ${errors} row(s) have errors and would be skipped.` : '';
    return `Check complete: ${plural(imported, noun)} can be imported.${problems} Nothing was saved.`;
  }
  if (imported === 0) return `No ${noun}s were imported: ${errors} row(s) had errors.`;
  const skipped = errors > 0 ? ` ${errors} row(s) had errors and were skipped.` : '';
  return `Imported ${plural(imported, noun)}.${skipped}`;
}

function byRow(errors: ImportRowError[]): ImportRowError[] {
  return errors.sort((a, b) => a.row - b.row);
}

/** The rows that hold something in a column the import reads; the rest are blank and skipped unreported. */
function filledRows<Field extends string>(sheet: Sheet, columns: ColumnMap<Field>): SheetRow[] {
  const used = [...columns.index.values()];
  const rows = sheet.rows.filter((row) => used.some((index) => (row.cells[index] ?? '') !== ''));
  if (rows.length === 0) {
    throw new BadRequestError(
      `The file has no data rows under the header (row ${sheet.headerRow}); add one row per record under the column names and try again`,
    );
  }
  return rows;
}

async function readUpload(ctx: AppContext, upload: Upload): Promise<Sheet> {
  return readSheet(upload.buffer, { maxBytes: ctx.config.importMaxBytes, maxRows: ctx.config.importMaxRows });
}

export async function importStudents(
  ctx: AppContext,
  actor: Actor,
  upload: Upload,
  dryRun: boolean,
): Promise<StudentImportResult> {
  const sheet = await readUpload(ctx, upload);
  const columns = mapColumns<StudentField>(sheet.headers, STUDENT_COLUMNS, 'students');
  const rows = filledRows(sheet, columns);
  const required = STUDENT_COLUMNS.filter((column) => column.required).map((column) => column.field);
  const errors: ImportRowError[] = [];
  const valid: { row: number; student: StudentFields }[] = [];
  const seen = new Map<string, number>();

  for (const row of rows) {
    const reader = rowReader(row, columns);
    if (isExampleRow(reader, STUDENT_COLUMNS)) {
      errors.push({ row: row.row, error: EXAMPLE_ROW });
      continue;
    }
    const missing = missingValues(reader, required, columns.splitsName);
    if (missing.length > 0) {
      errors.push({ row: row.row, error: missing.join('; ') });
      continue;
    }
    const parsed = studentRowSchema.safeParse({
      full_name: `${reader.first} ${reader.last}`,
      class_name: reader.cell('class_name'),
      parent_name: collapse(reader.cell('parent_name')),
      parent_phone: reader.cell('parent_phone'),
    });
    if (!parsed.success) {
      errors.push({ row: row.row, error: describeIssues(parsed.error, reader).join('; ') });
      continue;
    }
    const key = `${parsed.data.full_name.toLowerCase()}|${parsed.data.parent_phone}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      errors.push({ row: row.row, error: `Same student as row ${earlier} (same name and parent phone)` });
      continue;
    }
    seen.set(key, row.row);
    valid.push({ row: row.row, student: parsed.data });
  }

  return ctx.db.transaction(async (tx) => {
    await lockImports(tx, 'students');
    const existing = new Map(
      (
        await findByNameAndPhone(
          tx,
          valid.map(({ student }) => student),
        )
      ).map((match) => [match.key, match.unique_id]),
    );
    const fresh = valid.filter(({ row, student }) => {
      const match = existing.get(`${student.full_name.toLowerCase()}|${student.parent_phone}`);
      if (match) {
        errors.push({ row, error: `${student.full_name} is already on record as ${match} (same parent phone)` });
      }
      return !match;
    });
    const inserted = dryRun
      ? []
      : await insertStudents(
          tx,
          fresh.map(({ student }) => student),
        );
    if (inserted.length > 0) {
      await recordActivity(
        tx,
        actor,
        'student.imported',
        `${actor.full_name} imported ${plural(inserted.length, 'student')} from ${displayName(upload.filename)}`,
      );
    }
    const imported = dryRun
      ? fresh.map(({ student }) => ({
          name: student.full_name,
          phone: student.parent_phone,
          class_name: student.class_name,
          unique_id: null,
        }))
      : inserted.map((student) => ({
          name: student.full_name,
          phone: student.parent_phone,
          class_name: student.class_name,
          unique_id: student.unique_id,
        }));
    return {
      message: resultMessage('student', imported.length, errors.length, dryRun),
      dry_run: dryRun,
      total_rows: rows.length,
      imported_count: imported.length,
      imported_students: imported,
      errors: byRow(errors),
    };
  });
}

/** A comma-separated cell as a list, each item matched forgivingly; unknown items are named. */
function parseList<T extends string>(
  text: string,
  match: (item: string) => T | undefined,
  label: string,
  hint: string,
): { items: T[]; problems: string[] } {
  const items: T[] = [];
  const problems: string[] = [];
  for (const item of splitList(text)) {
    const value = match(item);
    if (value === undefined) problems.push(`${label}: "${item}" ${hint}`);
    else if (!items.includes(value)) items.push(value);
  }
  return { items, problems };
}

export async function importTeachers(
  ctx: AppContext,
  actor: Actor,
  upload: Upload,
  dryRun: boolean,
): Promise<TeacherImportResult> {
  const sheet = await readUpload(ctx, upload);
  const columns = mapColumns<TeacherField>(sheet.headers, TEACHER_COLUMNS, 'teachers');
  const rows = filledRows(sheet, columns);
  const required = TEACHER_COLUMNS.filter((column) => column.required).map((column) => column.field);
  const errors: ImportRowError[] = [];
  const valid: { row: number; teacher: NewTeacher & { email: string } }[] = [];
  const seen = new Map<string, number>();

  for (const row of rows) {
    const reader = rowReader(row, columns);
    if (isExampleRow(reader, TEACHER_COLUMNS)) {
      errors.push({ row: row.row, error: EXAMPLE_ROW });
      continue;
    }
    const problems = missingValues(reader, required, columns.splitsName);
    const subjects = parseList(
      reader.cell('subjects'),
      (item) => SUBJECT_BY_KEY.get(subjectKey(item)),
      reader.label('subjects'),
      `is not a subject; use ${SUBJECTS.join(', ')}`,
    );
    const classes = parseList(
      reader.cell('classes_assigned'),
      normaliseClassName,
      reader.label('classes_assigned'),
      `is not a class: each ${CLASS_NAME_HINT}`,
    );
    problems.push(...subjects.problems, ...classes.problems);
    if (problems.length > 0) {
      errors.push({ row: row.row, error: problems.join('; ') });
      continue;
    }
    const optional = (field: TeacherField) => collapse(reader.cell(field)) || undefined;
    const parsed = teacherRowSchema.safeParse({
      first_name: reader.first,
      last_name: reader.last,
      email: reader.cell('email'),
      phone_number: reader.cell('phone_number'),
      subjects: subjects.items,
      classes_assigned: classes.items,
      qualification: optional('qualification'),
      experience_years: experienceText(reader.cell('experience_years')),
      // An address may run over several lines; keep them, trimmed.
      address: reader.cell('address').trim() || undefined,
      emergency_contact: optional('emergency_contact'),
    });
    if (!parsed.success) {
      errors.push({ row: row.row, error: describeIssues(parsed.error, reader).join('; ') });
      continue;
    }
    const earlier = seen.get(parsed.data.email);
    if (earlier !== undefined) {
      errors.push({
        row: row.row,
        error: `${reader.label('email')}: ${parsed.data.email} is already used in row ${earlier}; each teacher needs their own email`,
      });
      continue;
    }
    seen.set(parsed.data.email, row.row);
    valid.push({ row: row.row, teacher: parsed.data });
  }

  // Hashing is the slow part: done before the transaction opens, for every row that may be imported.
  const accounts = dryRun ? [] : await prepareAccounts(valid.length);
  const emailLabel = columns.label.get('email') ?? 'email';
  try {
    return await ctx.db.transaction(async (tx) => {
      await lockImports(tx, 'teachers');
      const taken = new Map(
        (
          await findEmailsInUse(
            tx,
            valid.map(({ teacher }) => teacher.email),
          )
        ).map((match) => [match.email, match.unique_id]),
      );
      const fresh: typeof valid = [];
      const freshAccounts: typeof accounts = [];
      valid.forEach((entry, index) => {
        const owner = taken.get(entry.teacher.email);
        if (owner) {
          errors.push({
            row: entry.row,
            error: `${emailLabel}: ${entry.teacher.email} is already used by teacher ${owner}; each teacher needs their own email`,
          });
          return;
        }
        fresh.push(entry);
        const account = accounts[index];
        if (account) freshAccounts.push(account);
      });
      const created = dryRun
        ? []
        : await insertTeachersWithAccounts(
            tx,
            fresh.map(({ teacher }) => teacher),
            freshAccounts,
          );
      if (created.length > 0) {
        await recordActivity(
          tx,
          actor,
          'teacher.imported',
          `${actor.full_name} imported ${plural(created.length, 'teacher')} from ${displayName(upload.filename)}`,
        );
      }
      const imported = dryRun
        ? fresh.map(({ teacher }) => ({
            name: `${teacher.first_name} ${teacher.last_name}`,
            phone: teacher.phone_number,
            email: teacher.email,
            unique_id: null,
            username: null,
            initial_password: null,
          }))
        : created.map((teacher) => ({
            name: teacher.full_name,
            phone: teacher.phone_number,
            email: teacher.email ?? '',
            unique_id: teacher.unique_id,
            username: teacher.username,
            initial_password: teacher.initial_password,
          }));
      return {
        message: resultMessage('teacher', imported.length, errors.length, dryRun),
        dry_run: dryRun,
        total_rows: rows.length,
        imported_count: imported.length,
        imported_teachers: imported,
        errors: byRow(errors),
      };
    });
  } catch (error) {
    // The lock orders imports; an Add Teacher dialog saving the same email at the same moment is what is left.
    if (isUniqueViolation(error, 'teachers_email_key')) {
      throw new ConflictError(
        'Another teacher was saved with one of these emails while the file was being imported; nothing was imported. Upload the file again',
      );
    }
    throw error;
  }
}
