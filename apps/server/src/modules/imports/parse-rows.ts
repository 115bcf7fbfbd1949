import {
  CLASS_NAMES,
  type ClassChoice,
  createStudentSchema,
  createTeacherSchema,
  emailSchema,
  type ImportRowError,
  listInWords,
  matchClassName,
  optionalText,
  phoneSchema,
  SUBJECTS,
} from '@tuitiondesk/contract';
import type { z } from 'zod';
import { BadRequestError } from '../../lib/errors';
import {
  collapse,
  experienceText,
  readConsent,
  readLanguage,
  SUBJECT_BY_KEY,
  splitList,
  subjectKey,
} from './cell-values';
import {
  type ColumnMap,
  type ColumnSpec,
  FULL_NAME,
  type ImportKind,
  mapColumns,
  STUDENT_COLUMNS,
  type StudentField,
  TEACHER_COLUMNS,
  type TeacherField,
} from './columns';
import type { Sheet, SheetRow } from './spreadsheet';

/**
 * A sheet's rows read into records, with no database: the rows are checked with the same schemas as
 * the Add Student and Add Teacher dialogs; the import only relaxes parent_name (may be empty) and
 * requires a teacher's email. A row that cannot be imported becomes an error naming the sheet's row
 * and the columns as the file writes them. Whether a record is already on record is the service's
 * question, asked inside its transaction.
 */

/**
 * The centre's active classes and subjects a file's cells are matched against (ADR 043), read by the
 * service before the file is; the spec's defaults when none are given.
 */
export interface ImportLists {
  classes: readonly ClassChoice[];
  subjects: readonly ClassChoice[];
}

export const DEFAULT_LISTS: ImportLists = {
  classes: CLASS_NAMES.map((value) => ({ value, label: `Class ${value}` })),
  subjects: SUBJECTS.map((value) => ({ value, label: value })),
};

const classesHint = (lists: ImportLists) => `must be one of ${listInWords(lists.classes.map((c) => c.value))}`;

/** A subject as a file writes it: its value or label in any case or spacing, or a usual short form ("Maths"). */
function matchSubject(item: string, lists: ImportLists): string | undefined {
  const key = subjectKey(item);
  const lower = collapse(item).toLowerCase();
  const found = lists.subjects.find(
    (s) =>
      s.value.toLowerCase() === lower ||
      s.label.toLowerCase() === lower ||
      (key !== '' && (subjectKey(s.value) === key || subjectKey(s.label) === key)),
  );
  if (found) return found.value;
  const alias = SUBJECT_BY_KEY.get(key);
  return lists.subjects.find((s) => s.value === alias)?.value;
}

/** A file's phones are read as the dialogs' are, with the centre's default country code. */
function studentRowSchema(defaultCountryCode: string, lists: ImportLists) {
  return createStudentSchema.extend({
    class_name: createStudentSchema.shape.class_name.transform((written, ctx) => {
      const value = matchClassName(written, lists.classes);
      if (value === undefined) ctx.addIssue({ code: 'custom', message: classesHint(lists) });
      return value ?? written;
    }),
    parent_name: optionalText(200).transform((value) => value ?? ''),
    parent_phone: phoneSchema(defaultCountryCode),
  });
}

function teacherRowSchema(defaultCountryCode: string) {
  return createTeacherSchema.extend({ email: emailSchema, phone_number: phoneSchema(defaultCountryCode) });
}

export type ImportedStudent = z.output<ReturnType<typeof studentRowSchema>>;
export type ImportedTeacher = z.output<ReturnType<typeof teacherRowSchema>>;

export interface ParsedRows<Record, Field extends string> {
  /** The rows that hold something in a column the import reads; blank rows are skipped unreported. */
  total: number;
  valid: { row: number; record: Record }[];
  errors: ImportRowError[];
  /** The header to name in an error about this field, as the file writes it. */
  label: (field: Field | typeof FULL_NAME) => string;
}

interface RowReader<Field extends string> {
  cell: (field: Field) => string;
  first: string;
  last: string;
  /** The header to name in an error about this field, as the file writes it. */
  label: (field: Field | typeof FULL_NAME) => string;
}

function labeller<Field extends string>(columns: ColumnMap<Field>): RowReader<Field>['label'] {
  const nameLabel = columns.label.get(FULL_NAME) ?? 'name';
  return (field) => {
    if (columns.splitsName && (field === FULL_NAME || field === 'first_name' || field === 'last_name')) {
      return nameLabel;
    }
    // full_name is first and last name joined: an error about it (too long) is about the name.
    return field === FULL_NAME ? 'name' : (columns.label.get(field) ?? field);
  };
}

function rowReader<Field extends string>(row: SheetRow, columns: ColumnMap<Field>): RowReader<Field> {
  const text = (field: Field | typeof FULL_NAME) => {
    const index = columns.index.get(field);
    return index === undefined ? '' : (row.cells[index] ?? '');
  };
  let first = collapse(text('first_name' as Field));
  let last = collapse(text('last_name' as Field));
  if (columns.splitsName) {
    const full = collapse(text(FULL_NAME));
    const space = full.indexOf(' ');
    first = space < 0 ? full : full.slice(0, space);
    last = space < 0 ? '' : full.slice(space + 1);
  }
  return { cell: text, first, last, label: labeller(columns) };
}

function fieldValue<Field extends string>(reader: RowReader<Field>, field: Field): string {
  if (field === 'first_name') return reader.first;
  if (field === 'last_name') return reader.last;
  return reader.cell(field);
}

/**
 * The template's example row, left in by mistake: without this check it would become a real
 * student, or a teacher account for priya.nair@example.com.
 */
function isExampleRow<Field extends string>(reader: RowReader<Field>, columns: ColumnSpec<Field>[]): boolean {
  return columns
    .filter((column) => column.required)
    .every((column) => fieldValue(reader, column.field).toLowerCase() === column.example.toLowerCase());
}

const EXAMPLE_ROW = "This is the template's example row; delete it, or replace it with a real record";

/**
 * Empty required cells, named the way the sheet names them. A student may have one name, as the Add
 * Student dialog allows (its last name cell, or the rest of a single Name cell, may be empty); a
 * teacher needs both, as the Add Teacher dialog does.
 */
function missingValues<Field extends string>(
  reader: RowReader<Field>,
  columns: ColumnSpec<Field>[],
  splitsName: boolean,
  oneName: boolean,
): string[] {
  const problems: string[] = [];
  if (splitsName && (reader.first === '' || (reader.last === '' && !oneName))) {
    problems.push(`${reader.label(FULL_NAME)}: must hold a first and a last name, separated by a space`);
  }
  for (const { field, required } of columns) {
    if (!required || (splitsName && (field === 'first_name' || field === 'last_name'))) continue;
    if (oneName && field === 'last_name') continue;
    if (fieldValue(reader, field) === '') problems.push(`${reader.label(field)}: is required`);
  }
  return problems;
}

/** A schema's verdict on a row: the record, or each problem named by the sheet's header. */
function checked<Record, Field extends string>(
  result: z.ZodSafeParseResult<Record>,
  reader: RowReader<Field>,
): RowVerdict<Record> {
  if (result.success) return { record: result.data };
  return {
    problems: result.error.issues.map(
      (issue) => `${reader.label(String(issue.path[0] ?? 'row') as Field)}: ${issue.message}`,
    ),
  };
}

/** The rows that hold something in a column the import reads; the rest are blank and skipped unreported. */
function filledRows<Field extends string>(sheet: Sheet, columns: ColumnMap<Field>): SheetRow[] {
  const used = [...columns.index.values()];
  const rows = sheet.rows.filter((row) => used.some((index) => (row.cells[index] ?? '') !== ''));
  if (rows.length === 0) {
    throw new BadRequestError('imports.no_data_rows', { row: sheet.headerRow });
  }
  return rows;
}

type RowVerdict<Record> = { record: Record } | { problems: string[] };

interface RowRules<Record, Field extends string> {
  kind: ImportKind;
  columns: ColumnSpec<Field>[];
  /** The record a row holds, or what is wrong with it; `missing` names its empty required cells. */
  read: (reader: RowReader<Field>, missing: string[]) => RowVerdict<Record>;
  /** Two rows with the same key are the same record: the later one is refused with `repeats`' words. */
  key: (record: Record) => string;
  repeats: (record: Record, earlierRow: number, reader: RowReader<Field>) => string;
}

/**
 * Finds the columns (a missing required one refuses the whole file), then reads each filled row:
 * the template's example row, a row with problems and a repeat of an earlier row become errors.
 */
function parseRows<Record, Field extends string>(
  sheet: Sheet,
  rules: RowRules<Record, Field>,
): ParsedRows<Record, Field> {
  const columns = mapColumns<Field>(sheet.headers, rules.columns, rules.kind);
  const rows = filledRows(sheet, columns);
  const valid: { row: number; record: Record }[] = [];
  const errors: ImportRowError[] = [];
  const seen = new Map<string, number>();
  for (const { row, cells } of rows) {
    const reader = rowReader({ row, cells }, columns);
    if (isExampleRow(reader, rules.columns)) {
      errors.push({ row, error: EXAMPLE_ROW });
      continue;
    }
    const verdict = rules.read(
      reader,
      missingValues(reader, rules.columns, columns.splitsName, rules.kind === 'students'),
    );
    if ('problems' in verdict) {
      errors.push({ row, error: verdict.problems.join('; ') });
      continue;
    }
    const key = rules.key(verdict.record);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      errors.push({ row, error: rules.repeats(verdict.record, earlier, reader) });
      continue;
    }
    seen.set(key, row);
    valid.push({ row, record: verdict.record });
  }
  return { total: rows.length, valid, errors, label: labeller(columns) };
}

/** The one key of a student, in a file and on record: the name, without case, and the parent's phone. */
export function studentKey(student: { full_name: string; parent_phone: string }): string {
  return `${student.full_name.toLowerCase()}|${student.parent_phone}`;
}

export function parseStudentRows(
  sheet: Sheet,
  defaultCountryCode: string,
  lists: ImportLists = DEFAULT_LISTS,
): ParsedRows<ImportedStudent, StudentField> {
  const rowSchema = studentRowSchema(defaultCountryCode, lists);
  return parseRows(sheet, {
    kind: 'students',
    columns: STUDENT_COLUMNS,
    read: (reader, missing) => {
      const consent = readConsent(reader.cell('parent_whatsapp_opt_in'));
      const language = readLanguage(reader.cell('parent_language'));
      const problems = [
        ...missing,
        ...(consent.problem ? [`${reader.label('parent_whatsapp_opt_in')}: ${consent.problem}`] : []),
        ...(language.problem ? [`${reader.label('parent_language')}: ${language.problem}`] : []),
      ];
      if (problems.length > 0) return { problems };
      const result = rowSchema.safeParse({
        full_name: [reader.first, reader.last].filter(Boolean).join(' '),
        class_name: reader.cell('class_name'),
        parent_name: collapse(reader.cell('parent_name')),
        parent_phone: reader.cell('parent_phone'),
        parent_whatsapp_opt_in: consent.value,
        parent_language: language.value,
      });
      return checked(result, reader);
    },
    key: studentKey,
    repeats: (_, earlier) => `Same student as row ${earlier} (same name and parent phone)`,
  });
}

/** A comma-separated cell as a list, each item matched forgivingly; unknown items are named. */
function parseList(
  text: string,
  match: (item: string) => string | undefined,
  label: string,
  hint: string,
): { items: string[]; problems: string[] } {
  const items: string[] = [];
  const problems: string[] = [];
  for (const item of splitList(text)) {
    const value = match(item);
    if (value === undefined) problems.push(`${label}: "${item}" ${hint}`);
    else if (!items.includes(value)) items.push(value);
  }
  return { items, problems };
}

export function parseTeacherRows(
  sheet: Sheet,
  defaultCountryCode: string,
  lists: ImportLists = DEFAULT_LISTS,
): ParsedRows<ImportedTeacher, TeacherField> {
  const rowSchema = teacherRowSchema(defaultCountryCode);
  return parseRows(sheet, {
    kind: 'teachers',
    columns: TEACHER_COLUMNS,
    read: (reader, missing) => {
      const subjects = parseList(
        reader.cell('subjects'),
        (item) => matchSubject(item, lists),
        reader.label('subjects'),
        `is not a subject; use ${lists.subjects.map((s) => s.value).join(', ')}`,
      );
      const classes = parseList(
        reader.cell('classes_assigned'),
        (item) => matchClassName(item, lists.classes),
        reader.label('classes_assigned'),
        `is not a class: each ${classesHint(lists)}`,
      );
      const problems = [...missing, ...subjects.problems, ...classes.problems];
      if (problems.length > 0) return { problems };
      const optional = (field: TeacherField) => collapse(reader.cell(field)) || undefined;
      const result = rowSchema.safeParse({
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
      return checked(result, reader);
    },
    key: (teacher) => teacher.email,
    repeats: (teacher, earlier, reader) =>
      `${reader.label('email')}: ${teacher.email} is already used in row ${earlier}; each teacher needs their own email`,
  });
}
