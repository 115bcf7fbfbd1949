import {
  type AlreadyImported,
  errorDetail,
  type ImportRowError,
  type StudentImportResult,
  type TeacherImportResult,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type Actor, plural, recordActivity } from '../../lib/activity-log';
import { ConflictError, isUniqueViolation } from '../../lib/errors';
import { readableDate } from '../../lib/time';
import { type Choices, readClassChoices, readSubjectChoices, requireClasses, requireSubjects } from '../classes';
import { lockAllFamilies, type ParentSource, parentOptOuts, parentOptOutWords, setFamilyChoices } from '../families';
import { DEFAULT_COUNTRY_CODE_SETTING } from '../settings';
import { findByNameAndPhone, insertStudents } from '../students';
import { findEmailsInUse, insertTeachersWithAccounts, prepareAccounts } from '../teachers';
import { collapse } from './cell-values';
import { type ImportLists, parseStudentRows, parseTeacherRows, studentKey } from './parse-rows';
import { lockImports } from './repository';
import { readSheet, type Sheet } from './spreadsheet';

export interface Upload {
  filename: string;
  buffer: Buffer;
}

/**
 * Everything is read and checked before the transaction opens (parse-rows.ts); inside it, one lock
 * per kind of import, the duplicate check against the database, one set-based insert and one
 * activity row. A dry run does all of it but the insert and the activity.
 */

type Noun = 'student' | 'teacher';

/** Keeps only what a person can read in the activity feed: no folders, no control characters, not too long. */
function displayName(filename: string): string {
  const base = collapse((filename.split(/[\\/]/).pop() ?? '').normalize('NFC').replace(/[\p{Cc}\p{Cf}]/gu, ''));
  return base.length > 80 ? `${base.slice(0, 77)}…` : base || 'a spreadsheet';
}

/** `2 row(s) were already imported`: rows whose record is on record already, left as they are. */
function alreadyText(already: number, dryRun: boolean): string {
  return `${already} row(s) ${dryRun ? 'are' : 'were'} already imported`;
}

function resultMessage(noun: Noun, counts: { imported: number; already: number; errors: number }, dryRun: boolean) {
  const { imported, already, errors } = counts;
  if (imported === 0) {
    const reasons = [
      already > 0 ? alreadyText(already, dryRun) : '',
      errors > 0 ? `${errors} row(s) ${dryRun ? 'have' : 'had'} errors` : '',
    ].filter(Boolean);
    const why = reasons.length > 0 ? `: ${reasons.join(' and ')}` : '';
    return dryRun
      ? `Check complete: no ${noun}s can be imported${why}. Nothing was saved.`
      : `No ${noun}s were imported${why}.`;
  }
  const kept =
    already > 0 ? ` ${alreadyText(already, dryRun)} and ${dryRun ? 'would be' : 'were'} left as they are.` : '';
  if (dryRun) {
    const problems = errors > 0 ? ` ${errors} row(s) have errors and would be skipped.` : '';
    return `Check complete: ${plural(imported, noun)} can be imported.${kept}${problems} Nothing was saved.`;
  }
  const skipped = errors > 0 ? ` ${errors} row(s) had errors and were skipped.` : '';
  return `Imported ${plural(imported, noun)}.${kept}${skipped}`;
}

/**
 * What every import answers: the message, the counts, the records imported (or, on a dry run, those
 * that would be) under the name the import gives them, the rows already imported (a file run again),
 * and the row errors, each in sheet order.
 */
function importResult<Listed extends Record<string, unknown[]>>(
  noun: Noun,
  parsed: { total: number; errors: ImportRowError[] },
  already: AlreadyImported[],
  dryRun: boolean,
  listed: Listed,
) {
  const imported = Object.values(listed).reduce((sum, records) => sum + records.length, 0);
  return {
    message: resultMessage(noun, { imported, already: already.length, errors: parsed.errors.length }, dryRun),
    dry_run: dryRun,
    total_rows: parsed.total,
    imported_count: imported,
    ...listed,
    already_imported: byRow(already),
    errors: byRow(parsed.errors),
  };
}

function byRow<Entry extends { row: number }>(entries: Entry[]): Entry[] {
  return entries.sort((a, b) => a.row - b.row);
}

/** What a row says about the record already there: the same one (already imported) or a clash (an error). */
type OnRecord = { already: AlreadyImported } | { error: string } | undefined;

/**
 * The rows whose record is not on record yet. A row whose record is there already (the same file
 * imported again) goes to `already`; one that clashes with another record becomes an error.
 */
function keepNew<Entry extends { row: number }>(
  entries: Entry[],
  found: { errors: ImportRowError[]; already: AlreadyImported[] },
  onRecord: (entry: Entry) => OnRecord,
): Entry[] {
  return entries.filter((entry) => {
    const match = onRecord(entry);
    if (match && 'already' in match) found.already.push(match.already);
    if (match && 'error' in match) found.errors.push({ row: entry.row, error: match.error });
    return match === undefined;
  });
}

/** Names compared as people read them: case and runs of spaces aside. */
function sameName(a: string, b: string): boolean {
  return collapse(a).toLowerCase() === collapse(b).toLowerCase();
}

/**
 * A row that would turn WhatsApp on for a family whose parent turned it off (STOP, or the parent app):
 * refused as a row error, the rest of the file imported (ADR 023). The words are the student dialog's
 * refusal, on the column as the file names it, and say how to import the row.
 */
function parentOptOutRowError(row: number, column: string, how: ParentSource): ImportRowError {
  return {
    row,
    error: `${errorDetail(parentOptOutWords(column, how))}; leave the cell empty or write no to import this row`,
  };
}

async function recordImport(tx: Queryable, actor: Actor, noun: Noun, count: number, upload: Upload): Promise<void> {
  if (count === 0) return;
  await recordActivity(tx, actor, `${noun}.imported`, `${noun}.imported`, {
    count,
    file: displayName(upload.filename),
  });
}

/** The centre's active classes and subjects, which a file's cells must name (ADR 043). */
async function importLists(ctx: AppContext): Promise<ImportLists> {
  const [classes, subjects] = await Promise.all([readClassChoices(ctx.db), readSubjectChoices(ctx.db)]);
  const active = (choices: Choices) => choices.choices.filter((choice) => choices.allowed.includes(choice.value));
  return { classes: active(classes), subjects: active(subjects) };
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
  const parsed = parseStudentRows(
    await readUpload(ctx, upload),
    await DEFAULT_COUNTRY_CODE_SETTING.read(ctx.db),
    await importLists(ctx),
  );
  return ctx.db.transaction(async (tx) => {
    await lockImports(tx, 'students');
    // The classes the rows name, held so that none is deleted or archived under the insert.
    await requireClasses(tx, 'class_name', [...new Set(parsed.valid.map(({ record }) => record.class_name))]);
    // Children join families and families' consent changes: no single change may slip in between.
    if (!dryRun) await lockAllFamilies(tx);
    const students = parsed.valid.map(({ record }) => record);
    const existing = new Map((await findByNameAndPhone(tx, students)).map((match) => [match.key, match]));
    const already: AlreadyImported[] = [];
    const fresh = keepNew(parsed.valid, { errors: parsed.errors, already }, ({ record, row }) => {
      const match = existing.get(studentKey(record));
      if (!match) return undefined;
      // Never brought back silently: restoring is a decision staff take on the Students screen.
      if (match.left_on) {
        return {
          error: `${record.full_name} is on record as ${match.unique_id}, who left on ${readableDate(match.left_on)} (same parent phone): restore them on the Students screen instead`,
        };
      }
      // The same name and parent phone: this row was imported before (or the student added by hand).
      return { already: { row, name: record.full_name, unique_id: match.unique_id } };
    });
    // Only the parent turns WhatsApp on again after their own STOP: such a row is an error, like any other.
    const stopped = await parentOptOuts(
      tx,
      fresh.filter(({ record }) => record.parent_whatsapp_opt_in === true).map(({ record }) => record.parent_phone),
    );
    const allowed = fresh.filter(({ record, row }) => {
      const how = record.parent_whatsapp_opt_in === true ? stopped.get(record.parent_phone) : undefined;
      if (how) parsed.errors.push(parentOptOutRowError(row, parsed.label('parent_whatsapp_opt_in'), how));
      return how === undefined;
    });
    const inserted = dryRun
      ? []
      : await insertStudents(
          tx,
          allowed.map(({ record }) => record),
        );
    if (!dryRun) {
      // What the imported rows say about each family's WhatsApp consent and language, for every child with
      // that phone; a later row wins. Rows not imported (already on record) change nothing.
      await setFamilyChoices(
        tx,
        allowed.map(({ record }) => ({
          phone: record.parent_phone,
          optedIn: record.parent_whatsapp_opt_in,
          language: record.parent_language,
        })),
        { source: 'import', changedBy: actor.full_name, userId: actor.id },
      );
    }
    await recordImport(tx, actor, 'student', inserted.length, upload);
    const imported = dryRun ? allowed.map(({ record }) => ({ ...record, unique_id: null })) : inserted;
    const listed = imported.map((student) => ({
      name: student.full_name,
      phone: student.parent_phone,
      class_name: student.class_name,
      unique_id: student.unique_id,
    }));
    return importResult('student', parsed, already, dryRun, { imported_students: listed });
  });
}

export async function importTeachers(
  ctx: AppContext,
  actor: Actor,
  upload: Upload,
  dryRun: boolean,
): Promise<TeacherImportResult> {
  const parsed = parseTeacherRows(
    await readUpload(ctx, upload),
    await DEFAULT_COUNTRY_CODE_SETTING.read(ctx.db),
    await importLists(ctx),
  );
  // Hashing is the slow part: done before the transaction opens, for every row that may be imported.
  const accounts = dryRun ? [] : await prepareAccounts(parsed.valid.length);
  const entries = parsed.valid.map((entry, index) => ({ ...entry, account: accounts[index] }));
  try {
    return await ctx.db.transaction(async (tx) => {
      await lockImports(tx, 'teachers');
      const named = (list: (record: (typeof parsed.valid)[number]['record']) => string[]) => [
        ...new Set(parsed.valid.flatMap(({ record }) => list(record))),
      ];
      // The subjects and classes the rows name, held so that none is deleted or archived under the insert.
      await requireSubjects(
        tx,
        'subjects',
        named((record) => record.subjects),
      );
      await requireClasses(
        tx,
        'classes_assigned',
        named((record) => record.classes_assigned),
      );
      const emails = parsed.valid.map(({ record }) => record.email);
      const taken = new Map((await findEmailsInUse(tx, emails)).map((match) => [match.email, match]));
      const already: AlreadyImported[] = [];
      const fresh = keepNew(entries, { errors: parsed.errors, already }, ({ record, row }) => {
        const owner = taken.get(record.email);
        if (!owner) return undefined;
        const name = `${record.first_name} ${record.last_name}`;
        // The email and the name both match: this teacher was imported before. The email with another
        // name is someone else's address, which a second teacher may not share.
        if (sameName(owner.full_name, name)) return { already: { row, name, unique_id: owner.unique_id } };
        return {
          error: `${parsed.label('email')}: ${record.email} is already used by teacher ${owner.unique_id}; each teacher needs their own email`,
        };
      });
      const created = dryRun
        ? []
        : await insertTeachersWithAccounts(
            tx,
            fresh.map(({ record }) => record),
            fresh.flatMap(({ account }) => (account ? [account] : [])),
          );
      await recordImport(tx, actor, 'teacher', created.length, upload);
      const imported = dryRun
        ? fresh.map(({ record }) => ({
            name: `${record.first_name} ${record.last_name}`,
            phone: record.phone_number,
            email: record.email,
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
      return importResult('teacher', parsed, already, dryRun, { imported_teachers: imported });
    });
  } catch (error) {
    // The lock orders imports; an Add Teacher dialog saving the same email at the same moment is what is left.
    if (isUniqueViolation(error, 'teachers_email_key')) {
      throw new ConflictError('imports.email_race');
    }
    throw error;
  }
}
