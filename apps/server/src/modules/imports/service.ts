import {
  classNameSchema,
  emailSchema,
  experienceYearsSchema,
  type ImportRowError,
  optionalText,
  phoneSchema,
  requiredText,
  type StudentImportResult,
  SUBJECTS,
  type TeacherImportResult,
} from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Actor, plural, recordActivity } from '../../lib/activity-log';
import { ConflictError, isUniqueViolation } from '../../lib/errors';
import { findByNameAndPhone, insertStudents, type StudentFields } from '../students/repository';
import { findEmailsInUse } from '../teachers/repository';
import { insertTeachersWithAccounts, type NewTeacher, prepareAccounts } from '../teachers/service';
import { type ColumnSpec, mapColumns, STUDENT_COLUMNS, TEACHER_COLUMNS } from './columns';
import { readSheet, type SheetRow } from './spreadsheet';

export interface Upload {
  filename: string;
  buffer: Buffer;
}

/** `class_name: must be one of 7, 8, 9 or 10; parent_phone: must include…` */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || 'row'}: ${issue.message}`).join('; ');
}

function splitList(text: string): string[] {
  return text
    .split(/[,;/\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const SUBJECT_BY_KEY = new Map<string, string>([
  ...SUBJECTS.map((subject) => [subject.toLowerCase(), subject] as [string, string]),
  ['maths', 'Mathematics'],
  ['math', 'Mathematics'],
  ['computer', 'Computer Science'],
  ['computers', 'Computer Science'],
  ['pe', 'Physical Education'],
  ['social science', 'Social Studies'],
]);

const studentRowSchema = z.object({
  full_name: requiredText(200),
  class_name: classNameSchema,
  parent_name: optionalText(200).transform((value) => value ?? ''),
  parent_phone: phoneSchema,
});

const teacherRowSchema = z.object({
  first_name: requiredText(100),
  last_name: requiredText(100),
  email: emailSchema,
  phone_number: phoneSchema,
  subjects: z.array(
    z.string().transform((value, ctx) => {
      const subject = SUBJECT_BY_KEY.get(value.toLowerCase());
      if (!subject) {
        ctx.addIssue({ code: 'custom', message: `"${value}" is not one of ${SUBJECTS.join(', ')}` });
        return z.NEVER;
      }
      return subject;
    }),
  ),
  classes_assigned: z.array(classNameSchema),
  qualification: optionalText(200),
  experience_years: z.preprocess((value) => (value === '' ? 0 : value), experienceYearsSchema),
  address: optionalText(1000),
  emergency_contact: optionalText(200),
});

/** The row's cells by field name; a lone Name column becomes first and last name. */
function cellsOf<Field extends string>(row: SheetRow, columns: Map<Field | 'full_name', number>) {
  const cell = (field: Field | 'full_name') => {
    const index = columns.get(field);
    return index === undefined ? '' : (row.cells[index] ?? '');
  };
  let first = cell('first_name' as Field);
  let last = cell('last_name' as Field);
  if (!columns.has('first_name' as Field) && !columns.has('last_name' as Field)) {
    const full = cell('full_name').replace(/\s+/g, ' ').trim();
    const space = full.indexOf(' ');
    first = space < 0 ? full : full.slice(0, space);
    last = space < 0 ? '' : full.slice(space + 1);
  }
  return { cell, first, last };
}

function resultMessage(noun: string, imported: number, errors: number, dryRun: boolean): string {
  const skipped = errors > 0 ? ` ${errors} row(s) had errors and were skipped.` : '';
  if (dryRun) {
    const problems = errors > 0 ? ` ${errors} row(s) have errors and would be skipped.` : '';
    return `Check complete: ${plural(imported, noun)} can be imported.${problems} Nothing was written.`;
  }
  if (imported === 0) return `No ${noun}s were imported.${skipped}`;
  return `Successfully imported ${plural(imported, noun)}.${skipped}`;
}

function sortErrors(errors: ImportRowError[]): ImportRowError[] {
  return errors.sort((a, b) => a.row - b.row);
}

export async function importStudents(
  ctx: AppContext,
  actor: Actor,
  upload: Upload,
  dryRun: boolean,
): Promise<StudentImportResult> {
  const sheet = readSheet(upload.buffer, { maxBytes: ctx.config.importMaxBytes, maxRows: ctx.config.importMaxRows });
  const columns = mapColumns(sheet.headers, STUDENT_COLUMNS as ColumnSpec<string>[]);
  const errors: ImportRowError[] = [];
  const valid: { row: number; student: StudentFields }[] = [];
  const seen = new Map<string, number>();

  for (const row of sheet.rows) {
    const { cell, first, last } = cellsOf(row, columns);
    const parsed = studentRowSchema.safeParse({
      full_name: [first, last].filter(Boolean).join(' '),
      class_name: cell('class_name'),
      parent_name: cell('parent_name'),
      parent_phone: cell('parent_phone'),
    });
    if (!parsed.success) {
      errors.push({ row: row.row, error: describeIssues(parsed.error) });
      continue;
    }
    const key = `${parsed.data.full_name.toLowerCase()}|${parsed.data.parent_phone}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      errors.push({ row: row.row, error: `duplicate of row ${earlier} (same name and parent phone)` });
      continue;
    }
    seen.set(key, row.row);
    valid.push({ row: row.row, student: parsed.data });
  }

  return ctx.db.transaction(async (tx) => {
    const existing = new Map(
      (
        await findByNameAndPhone(
          tx,
          valid.map((v) => v.student),
        )
      ).map((match) => [match.key, match.unique_id]),
    );
    const fresh = valid.filter(({ row, student }) => {
      const match = existing.get(`${student.full_name.toLowerCase()}|${student.parent_phone}`);
      if (match)
        errors.push({ row, error: `${student.full_name} is already on record as ${match} (same parent phone)` });
      return !match;
    });
    const inserted = dryRun
      ? []
      : await insertStudents(
          tx,
          fresh.map((v) => v.student),
        );
    if (inserted.length > 0) {
      await recordActivity(
        tx,
        actor,
        'student.imported',
        `${actor.full_name} imported ${plural(inserted.length, 'student')} from ${upload.filename}`,
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
      total_rows: sheet.rows.length,
      imported_count: imported.length,
      imported_students: imported,
      errors: sortErrors(errors),
    };
  });
}

export async function importTeachers(
  ctx: AppContext,
  actor: Actor,
  upload: Upload,
  dryRun: boolean,
): Promise<TeacherImportResult> {
  const sheet = readSheet(upload.buffer, { maxBytes: ctx.config.importMaxBytes, maxRows: ctx.config.importMaxRows });
  const columns = mapColumns(sheet.headers, TEACHER_COLUMNS as ColumnSpec<string>[]);
  const errors: ImportRowError[] = [];
  const valid: { row: number; teacher: NewTeacher }[] = [];
  const seen = new Map<string, number>();

  for (const row of sheet.rows) {
    const { cell, first, last } = cellsOf(row, columns);
    const parsed = teacherRowSchema.safeParse({
      first_name: first,
      last_name: last,
      email: cell('email'),
      phone_number: cell('phone_number'),
      subjects: splitList(cell('subjects')),
      classes_assigned: splitList(cell('classes_assigned')),
      qualification: cell('qualification'),
      experience_years: cell('experience_years'),
      address: cell('address'),
      emergency_contact: cell('emergency_contact'),
    });
    if (!parsed.success) {
      errors.push({ row: row.row, error: describeIssues(parsed.error) });
      continue;
    }
    const earlier = seen.get(parsed.data.email);
    if (earlier !== undefined) {
      errors.push({ row: row.row, error: `email: ${parsed.data.email} is already used in row ${earlier}` });
      continue;
    }
    seen.set(parsed.data.email, row.row);
    valid.push({
      row: row.row,
      teacher: {
        ...parsed.data,
        subjects: [...new Set(parsed.data.subjects)] as NewTeacher['subjects'],
        classes_assigned: [...new Set(parsed.data.classes_assigned)],
      },
    });
  }

  // Hash the initial passwords before the transaction opens; only for rows that may be imported.
  const accounts = dryRun ? [] : await prepareAccounts(valid.length);
  try {
    return await ctx.db.transaction(async (tx) => {
      const taken = new Map(
        (
          await findEmailsInUse(
            tx,
            valid.map((v) => v.teacher.email as string),
          )
        ).map((t) => [t.email, t.unique_id]),
      );
      const freshAccounts: typeof accounts = [];
      const fresh = valid.filter(({ row, teacher }, index) => {
        const owner = taken.get((teacher.email as string).toLowerCase());
        if (owner) errors.push({ row, error: `email: ${teacher.email} is already used by teacher ${owner}` });
        else if (!dryRun) freshAccounts.push(accounts[index] as (typeof accounts)[number]);
        return !owner;
      });
      const created = dryRun
        ? []
        : await insertTeachersWithAccounts(
            tx,
            fresh.map((v) => v.teacher),
            freshAccounts,
          );
      if (created.length > 0) {
        await recordActivity(
          tx,
          actor,
          'teacher.imported',
          `${actor.full_name} imported ${plural(created.length, 'teacher')} from ${upload.filename}`,
        );
      }
      const imported = dryRun
        ? fresh.map(({ teacher }) => ({
            name: `${teacher.first_name} ${teacher.last_name}`,
            phone: teacher.phone_number,
            email: teacher.email as string,
            unique_id: null,
            username: null,
            initial_password: null,
          }))
        : created.map((teacher) => ({
            name: teacher.full_name,
            phone: teacher.phone_number,
            email: teacher.email as string,
            unique_id: teacher.unique_id,
            username: teacher.username,
            initial_password: teacher.initial_password,
          }));
      return {
        message: resultMessage('teacher', imported.length, errors.length, dryRun),
        dry_run: dryRun,
        total_rows: sheet.rows.length,
        imported_count: imported.length,
        imported_teachers: imported,
        errors: sortErrors(errors),
      };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'teachers_email_key')) {
      throw new ConflictError(
        'Another import or edit took one of these emails at the same moment; nothing was imported. Try again',
      );
    }
    throw error;
  }
}
