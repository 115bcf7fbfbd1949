import {
  activityWords,
  type createStudentSchema,
  type DeletedCount,
  errorWords,
  namingClasses,
  type ParentLanguage,
  type Student,
  type StudentStatus,
  type updateStudentSchema,
} from '@tuitiondesk/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type Actor, plural, recordActivity } from '../../lib/activity-log';
import { type DeletableRecords, deleteAllOrNothing, deleteRecord } from '../../lib/bulk-delete';
import { ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors';
import { loadScope, type Scope } from '../attendance';
import { clearAfterBackup } from '../backups';
import { requireClass } from '../classes';
import {
  changeFamilyPhone,
  keepParentOptOut,
  lockFamily,
  type StaffActor,
  setFamilyLanguage,
  setFamilyWhatsappConsent,
} from '../families';
import { readWrittenPhone } from '../settings';
import {
  deleteAllStudents,
  deleteStudents,
  findExistingIds,
  findStudent,
  findStudentForUpdate,
  insertStudents,
  studentsJson,
  updateStudent,
} from './repository';

export type NewStudent = z.output<typeof createStudentSchema>;
export type StudentChanges = z.output<typeof updateStudentSchema>;

/**
 * The students attending (or who left, or both), of every class or one, as the JSON text of a Student
 * array. The class is one of the centre's, archived ones too (ADR 043).
 */
export async function listStudentsJson(
  ctx: AppContext,
  className?: string,
  status: StudentStatus = 'current',
): Promise<string> {
  const value =
    className === undefined ? undefined : await requireClass(ctx.db, 'class_name', className, { archivedToo: true });
  return studentsJson(ctx.db, value, status);
}

export async function getStudent(ctx: AppContext, id: number): Promise<Student> {
  const student = await findStudent(ctx.db, id);
  if (!student) throw notFound(id);
  return student;
}

export async function createStudent(ctx: AppContext, actor: Actor, written: NewStudent): Promise<Student> {
  const input = { ...written, parent_phone: await readWrittenPhone(ctx.db, 'parent_phone', written.parent_phone) };
  return ctx.db.transaction(async (tx) => {
    // One of the centre's active classes, held so it cannot be deleted or archived under this insert.
    const className = await requireClass(tx, 'class_name', input.class_name);
    await lockFamily(tx, input.parent_phone);
    const [created] = (await insertStudents(tx, [{ ...input, class_name: className }])) as [Student];
    await recordActivity(tx, actor, 'student.created', 'student.created', {
      name: created.full_name,
      unique_id: created.unique_id,
      class_name: created.class_name,
    });
    await applyFamilyChoices(tx, actor, created, input);
    return (await findStudent(tx, created.id)) as Student;
  });
}

/**
 * What the form says about the family's WhatsApp consent and language, for every child with this parent
 * phone; a change of consent leaves an activity row saying who gave or withdrew it. Fields left out
 * leave the family as it is.
 */
async function applyFamilyChoices(
  tx: Queryable,
  actor: Actor,
  student: Student,
  choices: { parent_whatsapp_opt_in?: boolean; parent_language?: ParentLanguage },
): Promise<void> {
  if (choices.parent_language !== undefined) await setFamilyLanguage(tx, student.parent_phone, choices.parent_language);
  if (choices.parent_whatsapp_opt_in === undefined) return;
  const changed = await setFamilyWhatsappConsent(tx, student.parent_phone, choices.parent_whatsapp_opt_in, {
    source: 'staff',
    changedBy: actor.full_name,
    userId: actor.id,
  });
  if (!changed) return;
  await recordActivity(tx, actor, 'student.whatsapp_consent', 'student.whatsapp_consent', {
    consent: choices.parent_whatsapp_opt_in ? 'given' : 'withdrawn',
    name: student.full_name,
    phone: student.parent_phone,
  });
}

/**
 * The student, locked, once its family and the family it moves to are held (in phone order, as every
 * writer of a family takes them: the family first, then its rows). Should the phone change between the
 * first look and the locks, it looks again.
 */
async function lockStudentAndFamilies(tx: Queryable, id: number, newPhone: string | undefined): Promise<Student> {
  for (;;) {
    const seen = await findStudent(tx, id);
    if (!seen) throw notFound(id);
    for (const phone of [...new Set([seen.parent_phone, newPhone ?? seen.parent_phone])].sort()) {
      await lockFamily(tx, phone);
    }
    const current = await findStudentForUpdate(tx, id);
    if (!current) throw notFound(id);
    if (current.parent_phone === seen.parent_phone) return current;
  }
}

/**
 * A teacher moves a student only between classes they may mark (ADR 019): both the class the student
 * leaves and the one they join, else 403, as a teacher's phone change of a family with the app is
 * (otherwise a teacher could move another class's student into theirs, mark them, and move them back).
 */
function classChangeRefusal(scope: Scope, from: string, to: string): ForbiddenError | undefined {
  if (scope.refusal) {
    return new ForbiddenError(namingClasses(errorWords('student.class_change_no_class', { from, to }), scope.labelOf));
  }
  if ([from, to].every((name) => (scope.classes as readonly string[]).includes(name))) return undefined;
  const words = errorWords('student.class_change_not_yours', {
    from,
    to,
    count: scope.classes.length,
    classes: scope.classes.join(', '),
  });
  return new ForbiddenError(namingClasses(words, scope.labelOf));
}

/**
 * A phone change of a family with an access code is an admin's, and tells the family (ADR 018); a
 * class change of a teacher's only between their own classes (ADR 019).
 */
export async function editStudent(
  ctx: AppContext,
  actor: StaffActor,
  id: number,
  written: StudentChanges,
): Promise<Student> {
  const changes =
    written.parent_phone === undefined
      ? written
      : { ...written, parent_phone: await readWrittenPhone(ctx.db, 'parent_phone', written.parent_phone) };
  const { student, phoneChange } = await ctx.db.transaction(async (tx) => {
    // Read first and held (as marking holds it), so an admin taking a class away waits for this edit.
    const scope =
      actor.role !== 'admin' && changes.class_name !== undefined ? await loadScope(tx, actor, true) : undefined;
    const current = await lockStudentAndFamilies(tx, id, changes.parent_phone);
    if (current.scrubbed_at !== null) {
      throw new ConflictError('student.scrubbed_no_edit', { name: current.full_name });
    }
    // A student keeps an archived class; a move is only into one of the centre's active classes.
    const className =
      changes.class_name === undefined
        ? current.class_name
        : await requireClass(tx, 'class_name', changes.class_name, { keep: [current.class_name] });
    if (scope && className !== current.class_name) {
      const refusal = classChangeRefusal(scope, current.class_name, className);
      if (refusal) throw refusal;
    }
    const parentPhone = changes.parent_phone ?? current.parent_phone;
    const phoneChange =
      parentPhone === current.parent_phone ? undefined : await changeFamilyPhone(tx, actor, current, parentPhone);
    const updated = await updateStudent(tx, id, {
      full_name: changes.full_name ?? current.full_name,
      class_name: className,
      parent_name: changes.parent_name ?? current.parent_name,
      parent_phone: parentPhone,
    });
    // A phone whose parent said STOP stays opted out, whatever consent the moved record had before.
    if (parentPhone !== current.parent_phone) await keepParentOptOut(tx, parentPhone);
    await recordActivity(
      tx,
      actor,
      'student.updated',
      phoneChange
        ? activityWords('student.updated_phone', {
            name: updated.full_name,
            unique_id: updated.unique_id,
            old_phone: phoneChange.oldPhone,
            new_phone: phoneChange.newPhone,
          })
        : activityWords('student.updated', { name: updated.full_name, unique_id: updated.unique_id }),
    );
    await applyFamilyChoices(tx, actor, updated, changes);
    return { student: (await findStudent(tx, id)) as Student, phoneChange };
  });
  if (phoneChange?.queued) ctx.push.wake();
  return student;
}

const STUDENTS: DeletableRecords = {
  noun: 'student',
  action: 'student.deleted',
  lockExisting: findExistingIds,
  deleteRows: deleteStudents,
  notFound,
};

/** A student and their attendance. */
export function removeStudent(ctx: AppContext, actor: Actor, id: number): Promise<{ message: string }> {
  return deleteRecord(ctx.db, actor, STUDENTS, id);
}

/** The listed students and their attendance, all or none. */
export function removeStudents(ctx: AppContext, actor: Actor, ids: number[]): Promise<DeletedCount> {
  return deleteAllOrNothing(ctx.db, actor, STUDENTS, ids);
}

/**
 * Every student and their attendance, after a backup of all data (taken in the same transaction, so
 * it holds exactly what is deleted). No backup, no deletion.
 */
export async function clearAllStudents(
  ctx: AppContext,
  actor: Actor,
): Promise<{ deleted_count: number; message: string; backup_file: string }> {
  return clearAfterBackup(ctx, 'before-clear-students', ['students'], async (tx, backup) => {
    const count = await deleteAllStudents(tx);
    await recordActivity(tx, actor, 'student.cleared', 'student.cleared', { count, file: backup.file });
    return { deleted_count: count, message: `Deleted ${plural(count, 'student')}` };
  });
}

function notFound(id: number): NotFoundError {
  return new NotFoundError('student.not_found_by_id', { id });
}
