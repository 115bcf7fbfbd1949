import type {
  CreatedTeacher,
  createTeacherSchema,
  DeletedCount,
  Teacher,
  updateTeacherSchema,
} from '@tuitiondesk/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type Actor, plural, recordActivity } from '../../lib/activity-log';
import { type DeletableRecords, deleteAllOrNothing, deleteRecord } from '../../lib/bulk-delete';
import { ConflictError, isUniqueViolation, NotFoundError } from '../../lib/errors';
import { GENERATED_PASSWORD_COST, generatePassword, hashPassword } from '../../lib/passwords';
import { clearAfterBackup } from '../backups';
import { requireClasses, requireSubjects } from '../classes';
import { readWrittenPhone } from '../settings';
import {
  deleteTeachers,
  findEmailsInUse,
  findExistingTeacherIds,
  findTeacher,
  findTeachersByIds,
  insertTeacherAccounts,
  insertTeachers,
  type TeacherFields,
  teachersJson,
  updateTeacher,
} from './repository';

export type NewTeacher = z.output<typeof createTeacherSchema>;
export type TeacherChanges = z.output<typeof updateTeacherSchema>;

/** Every teacher, as the JSON text of a Teacher array. */
export function listTeachersJson(ctx: AppContext): Promise<string> {
  return teachersJson(ctx.db);
}

export async function getTeacher(ctx: AppContext, id: number): Promise<Teacher> {
  const teacher = await findTeacher(ctx.db, id);
  if (!teacher) throw notFound(id);
  return teacher;
}

function toFields(input: NewTeacher): TeacherFields {
  return {
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email ?? null,
    phone_number: input.phone_number,
    subjects: [...new Set(input.subjects)],
    classes_assigned: [...new Set(input.classes_assigned)],
    qualification: input.qualification ?? '',
    experience_years: input.experience_years,
    address: input.address ?? '',
    emergency_contact: input.emergency_contact ?? '',
  };
}

export interface PreparedAccount {
  password: string;
  hash: string;
}

/** Hashing is the slow part: do it before the transaction opens, so no lock waits on it. */
export async function prepareAccounts(count: number): Promise<PreparedAccount[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const password = generatePassword();
      return { password, hash: await hashPassword(password, GENERATED_PASSWORD_COST) };
    }),
  );
}

/**
 * Inserts teachers and a sign-in account for each, inside the caller's transaction. Used by the
 * Add Teacher dialog and by the import. Answers each teacher with the initial password, once.
 */
export async function insertTeachersWithAccounts(
  tx: Queryable,
  inputs: NewTeacher[],
  accounts: PreparedAccount[],
): Promise<(Teacher & { initial_password: string })[]> {
  const fields = inputs.map(toFields);
  const inserted = await insertTeachers(tx, fields);
  await insertTeacherAccounts(
    tx,
    inserted.map((teacher, i) => ({
      teacher_id: teacher.id,
      username: teacher.unique_id,
      full_name: teacher.full_name,
      password_hash: (accounts[i] as PreparedAccount).hash,
    })),
  );
  const byId = new Map(
    (
      await findTeachersByIds(
        tx,
        inserted.map((t) => t.id),
      )
    ).map((t) => [t.id, t]),
  );
  return inserted.map((teacher, i) => ({
    ...(byId.get(teacher.id) as Teacher),
    initial_password: (accounts[i] as PreparedAccount).password,
  }));
}

export async function createTeacher(ctx: AppContext, actor: Actor, written: NewTeacher): Promise<CreatedTeacher> {
  const input = { ...written, phone_number: await readWrittenPhone(ctx.db, 'phone_number', written.phone_number) };
  const accounts = await prepareAccounts(1);
  return withEmailConflict(input.email, () =>
    ctx.db.transaction(async (tx) => {
      await assertEmailFree(tx, input.email);
      // The centre's active subjects and classes (ADR 043), held so they cannot go under this insert.
      const subjects = await requireSubjects(tx, 'subjects', input.subjects);
      const classes = await requireClasses(tx, 'classes_assigned', input.classes_assigned);
      const checked = { ...input, subjects, classes_assigned: classes };
      const [teacher] = (await insertTeachersWithAccounts(tx, [checked], accounts)) as [
        Teacher & { initial_password: string },
      ];
      await recordActivity(tx, actor, 'teacher.created', 'teacher.created', {
        name: teacher.full_name,
        unique_id: teacher.unique_id,
      });
      return {
        ...teacher,
        message: `Teacher added. They sign in as ${teacher.username} with the initial password shown here; it cannot be shown again.`,
      };
    }),
  );
}

export async function editTeacher(
  ctx: AppContext,
  actor: Actor,
  id: number,
  written: TeacherChanges,
): Promise<Teacher> {
  const changes =
    written.phone_number === undefined
      ? written
      : { ...written, phone_number: await readWrittenPhone(ctx.db, 'phone_number', written.phone_number) };
  return withEmailConflict(changes.email, () =>
    ctx.db.transaction(async (tx) => {
      const current = await findTeacher(tx, id, true);
      if (!current) throw notFound(id);
      const [splitFirst, splitLast] = splitFullName(changes.full_name);
      const email = changes.email === undefined ? current.email : changes.email;
      if (email !== null && email.toLowerCase() !== current.email?.toLowerCase()) await assertEmailFree(tx, email, id);
      // A teacher keeps an archived subject or class already on their record; nothing archived is added.
      const subjects = changes.subjects
        ? await requireSubjects(tx, 'subjects', changes.subjects, { keep: current.subjects })
        : current.subjects;
      const classes = changes.classes_assigned
        ? await requireClasses(tx, 'classes_assigned', changes.classes_assigned, { keep: current.classes_assigned })
        : current.classes_assigned;
      await updateTeacher(tx, id, {
        first_name: changes.first_name ?? splitFirst ?? current.first_name,
        last_name: changes.last_name ?? splitLast ?? current.last_name,
        email,
        phone_number: changes.phone_number ?? current.phone_number,
        subjects,
        classes_assigned: classes,
        qualification: changes.qualification ?? current.qualification,
        experience_years: changes.experience_years ?? current.experience_years,
        address: changes.address ?? current.address,
        emergency_contact: changes.emergency_contact ?? current.emergency_contact,
      });
      const teacher = (await findTeacher(tx, id)) as Teacher;
      await recordActivity(tx, actor, 'teacher.updated', 'teacher.updated', {
        name: teacher.full_name,
        unique_id: teacher.unique_id,
      });
      return teacher;
    }),
  );
}

/** The console splits a full name on its first space; a name without one has no last name to take. */
function splitFullName(fullName: string | undefined): [string | undefined, string | undefined] {
  const trimmed = fullName?.trim();
  if (!trimmed) return [undefined, undefined];
  const space = trimmed.indexOf(' ');
  if (space < 0) return [trimmed, undefined];
  return [trimmed.slice(0, space), trimmed.slice(space + 1).trim()];
}

const TEACHERS: DeletableRecords = {
  noun: 'teacher',
  action: 'teacher.deleted',
  lockExisting: findExistingTeacherIds,
  deleteRows: async (tx, ids) => (await deleteTeachers(tx, ids)).teachers,
  notFound,
};

/** A teacher with their attendance and sign-in account. */
export function removeTeacher(ctx: AppContext, actor: Actor, id: number): Promise<{ message: string }> {
  return deleteRecord(ctx.db, actor, TEACHERS, id);
}

/** The listed teachers with their attendance and sign-in accounts, all or none. */
export function removeTeachers(ctx: AppContext, actor: Actor, ids: number[]): Promise<DeletedCount> {
  return deleteAllOrNothing(ctx.db, actor, TEACHERS, ids);
}

/**
 * Every teacher with their attendance and sign-in accounts, after a backup of all data (taken in the
 * same transaction, so it holds exactly what is deleted). No backup, no deletion.
 */
export async function clearAllTeachers(
  ctx: AppContext,
  actor: Actor,
): Promise<{
  deleted_count: number;
  deleted_teachers: number;
  deleted_users: number;
  message: string;
  backup_file: string;
}> {
  return clearAfterBackup(ctx, 'before-clear-teachers', ['teachers', 'users'], async (tx, backup) => {
    const { teachers, users } = await deleteTeachers(tx);
    await recordActivity(tx, actor, 'teacher.cleared', 'teacher.cleared', {
      count: teachers.length,
      accounts: users,
      file: backup.file,
    });
    return {
      deleted_count: teachers.length,
      deleted_teachers: teachers.length,
      deleted_users: users,
      message: `Deleted ${plural(teachers.length, 'teacher')} and ${plural(users, 'teacher user account')}`,
    };
  });
}

async function assertEmailFree(tx: Queryable, email: string | null | undefined, exceptId?: number): Promise<void> {
  if (!email) return;
  const [taken] = await findEmailsInUse(tx, [email], exceptId);
  if (taken) throw emailTaken(email, taken.unique_id);
}

/** Two requests racing for one email both pass the check; the unique index stops the second. */
async function withEmailConflict<T>(email: string | null | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, 'teachers_email_key') && email) throw emailTaken(email);
    throw error;
  }
}

function emailTaken(email: string, uniqueId?: string): ConflictError {
  return uniqueId
    ? new ConflictError('teacher.email_taken', { email, unique_id: uniqueId })
    : new ConflictError('teacher.email_taken_by_another', { email });
}

function notFound(id: number): NotFoundError {
  return new NotFoundError('teacher.not_found_by_id', { id });
}
