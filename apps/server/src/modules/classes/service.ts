import {
  type CentreClass,
  type CentreSubject,
  type ClassOption,
  classDisplayLabel,
  compactClassText,
  type createClassSchema,
  type createSubjectSchema,
  matchClassName,
  type updateClassSchema,
  type updateSubjectSchema,
} from '@tuitiondesk/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import {
  deleteRow,
  insertRow,
  type ListKind,
  type ListRow,
  listRows,
  lockAll,
  lockRow,
  setArchived,
  setOrder,
  type Usage,
  updateLabel,
  usageOf,
} from './repository';

/**
 * The centre's classes and subjects (ADR 043): what an admin does to the lists, each change in one
 * transaction with its activity row (the audit log has the rows before and after, migration 0028).
 */

export type NewClass = z.output<typeof createClassSchema>;
export type ClassChanges = z.output<typeof updateClassSchema>;
export type NewSubject = z.output<typeof createSubjectSchema>;
export type SubjectChanges = z.output<typeof updateSubjectSchema>;

const NO_USE: Usage = { students: 0, teachers: 0, attendance_records: 0 };

function toClass(row: ListRow, usage: Usage = NO_USE): CentreClass {
  return {
    id: row.id,
    value: row.value,
    label: row.label,
    section: row.section,
    display_label: classDisplayLabel(row.label, row.section),
    sort_order: row.sort_order,
    archived: row.archived_at !== null,
    archived_at: row.archived_at,
    in_use: usage,
  };
}

function toSubject(row: ListRow, usage: Usage = NO_USE): CentreSubject {
  return {
    id: row.id,
    value: row.value,
    label: row.label,
    sort_order: row.sort_order,
    archived: row.archived_at !== null,
    archived_at: row.archived_at,
    in_use: { teachers: usage.teachers },
  };
}

export async function listClasses(db: Queryable): Promise<CentreClass[]> {
  const [rows, usage] = await Promise.all([listRows(db, 'class'), usageOf(db, 'class')]);
  return rows.map((row) => toClass(row, usage.get(row.value)));
}

export async function listSubjects(db: Queryable): Promise<CentreSubject[]> {
  const [rows, usage] = await Promise.all([listRows(db, 'subject'), usageOf(db, 'subject')]);
  return rows.map((row) => toSubject(row, usage.get(row.value)));
}

/** `GET /students/classes`: the active classes in the spec's shape, `[{"value": "7", "label": "Class 7"}, …]`. */
export async function classOptions(db: Queryable): Promise<ClassOption[]> {
  return (await listRows(db, 'class', true)).map((row) => ({
    value: row.value,
    label: classDisplayLabel(row.label, row.section),
  }));
}

const notFound = (kind: ListKind, id: number) =>
  new NotFoundError(kind === 'class' ? 'classes.class_not_found' : 'classes.subject_not_found', { id });
const taken = (kind: ListKind, name: string) =>
  new ConflictError(kind === 'class' ? 'classes.class_taken' : 'classes.subject_taken', { name });

async function lockOrFail(tx: Queryable, kind: ListKind, id: number): Promise<ListRow> {
  const row = await lockRow(tx, kind, id);
  if (!row) throw notFound(kind, id);
  return row;
}

/** A class "11" is labelled "Class 11" when no label is given; any other value is its own label. */
function defaultLabel(value: string): string {
  return /^\d+$/.test(value) ? `Class ${value}` : value;
}

/**
 * The existing row another would be confused with: the same value or label, or one that reads the same
 * (`Class 7`, `7th` and `VII` all name class 7), so that every way people write a class names one class.
 */
function clash(rows: readonly ListRow[], names: readonly string[], exceptId?: number): ListRow | undefined {
  const others = rows.filter((row) => row.id !== exceptId);
  const choices = others.map((row) => ({ value: row.value, label: classDisplayLabel(row.label, row.section) }));
  for (const name of names) {
    const value = matchClassName(name, choices);
    if (value !== undefined) return others.find((row) => row.value === value);
  }
  return undefined;
}

export async function addClass(ctx: AppContext, actor: Actor, input: NewClass): Promise<CentreClass> {
  if (input.value.toLowerCase() === 'all_parents') {
    throw new ValidationError('value', 'validation.value_reserved', { value: input.value });
  }
  // "Class 11" typed as the value is stored as "11", as a student's class written that way is.
  const compact = compactClassText(input.value) ?? '';
  const value = /^\d+$/.test(compact) ? compact : input.value;
  // An empty label or section (a form's empty field) is none.
  const label = input.label || defaultLabel(value);
  const section = input.section || null;
  return ctx.db.transaction(async (tx) => {
    const existing = clash(await listRows(tx, 'class'), [value, classDisplayLabel(label, section)]);
    if (existing) throw taken('class', classDisplayLabel(existing.label, existing.section));
    const id = await insertRow(tx, 'class', { value, label, section });
    if (id === undefined) throw taken('class', classDisplayLabel(label, section));
    await recordActivity(tx, actor, 'classes.added', 'classes.added', {
      kind: 'class',
      name: classDisplayLabel(label, section),
    });
    return toClass((await lockRow(tx, 'class', id)) as ListRow);
  });
}

export async function addSubject(ctx: AppContext, actor: Actor, input: NewSubject): Promise<CentreSubject> {
  const label = input.label || input.value;
  return ctx.db.transaction(async (tx) => {
    const rows = await listRows(tx, 'subject');
    const existing = rows.find((row) =>
      [row.value, row.label].some((name) => [input.value, label].some((n) => n.toLowerCase() === name.toLowerCase())),
    );
    if (existing) throw taken('subject', existing.label);
    const id = await insertRow(tx, 'subject', { value: input.value, label, section: null });
    if (id === undefined) throw taken('subject', label);
    await recordActivity(tx, actor, 'classes.added', 'classes.added', { kind: 'subject', name: label });
    return toSubject((await lockRow(tx, 'subject', id)) as ListRow);
  });
}

export async function editClass(
  ctx: AppContext,
  actor: Actor,
  id: number,
  changes: ClassChanges,
): Promise<CentreClass> {
  return ctx.db.transaction(async (tx) => {
    const current = await lockOrFail(tx, 'class', id);
    const label = changes.label ?? current.label;
    const section = changes.section === undefined ? current.section : changes.section;
    const shown = classDisplayLabel(label, section);
    const existing = clash(await listRows(tx, 'class'), [shown], id);
    if (existing) throw taken('class', classDisplayLabel(existing.label, existing.section));
    await updateLabel(tx, 'class', id, { label, section });
    await recordActivity(tx, actor, 'classes.changed', 'classes.changed', {
      kind: 'class',
      value: current.value,
      name: shown,
    });
    const usage = await usageOf(tx, 'class', [current.value]);
    return toClass((await lockRow(tx, 'class', id)) as ListRow, usage.get(current.value));
  });
}

export async function editSubject(
  ctx: AppContext,
  actor: Actor,
  id: number,
  changes: SubjectChanges,
): Promise<CentreSubject> {
  return ctx.db.transaction(async (tx) => {
    const current = await lockOrFail(tx, 'subject', id);
    const existing = (await listRows(tx, 'subject')).find(
      (row) =>
        row.id !== id && [row.value, row.label].some((name) => name.toLowerCase() === changes.label.toLowerCase()),
    );
    if (existing) throw taken('subject', existing.label);
    await updateLabel(tx, 'subject', id, { label: changes.label, section: null });
    await recordActivity(tx, actor, 'classes.changed', 'classes.changed', {
      kind: 'subject',
      value: current.value,
      name: changes.label,
    });
    const usage = await usageOf(tx, 'subject', [current.value]);
    return toSubject((await lockRow(tx, 'subject', id)) as ListRow, usage.get(current.value));
  });
}

const shownName = (row: ListRow) => classDisplayLabel(row.label, row.section);

/**
 * Archived: existing records keep it, nothing new is put in it, and no select offers it. The last
 * active class stays: a centre with no class could add no student.
 */
export async function archive(
  ctx: AppContext,
  actor: Actor,
  kind: ListKind,
  id: number,
  archived: boolean,
): Promise<CentreClass | CentreSubject> {
  return ctx.db.transaction(async (tx) => {
    const current = await lockOrFail(tx, kind, id);
    if (archived && kind === 'class' && current.archived_at === null) {
      const active = await listRows(tx, 'class', true);
      if (active.length <= 1) throw new ConflictError('classes.last_class', { name: shownName(current) });
    }
    if ((current.archived_at !== null) !== archived) {
      await setArchived(tx, kind, id, archived);
      const code = archived ? 'classes.archived' : 'classes.unarchived';
      await recordActivity(tx, actor, code, code, { kind, name: shownName(current) });
    }
    const row = (await lockRow(tx, kind, id)) as ListRow;
    const usage = (await usageOf(tx, kind, [row.value])).get(row.value);
    return kind === 'class' ? toClass(row, usage) : toSubject(row, usage);
  });
}

/**
 * Another module's use of a class that keeps it from being deleted: the names of what uses it. Fees'
 * plans register theirs (ADR 052) when their routes are registered; the classes module imports no
 * module that uses classes (the layering test), so it asks whoever registered. Called in the delete's
 * transaction after the class row is locked: a plan being written holds the class (FOR SHARE) first.
 */
export type ClassUse = (tx: Queryable, value: string) => Promise<string[]>;
const classUses = new Map<'fee_plans', ClassUse>();

/** Registers (again, harmlessly) what uses a class; the same kind registered twice keeps the last. */
export function registerClassUse(kind: 'fee_plans', use: ClassUse): void {
  classUses.set(kind, use);
}

/** Deleted only when nothing refers to it; otherwise 409 saying what uses it and that it can be archived. */
export async function remove(ctx: AppContext, actor: Actor, kind: ListKind, id: number): Promise<{ message: string }> {
  return ctx.db.transaction(async (tx) => {
    const current = await lockOrFail(tx, kind, id);
    const usage = (await usageOf(tx, kind, [current.value])).get(current.value) ?? NO_USE;
    const name = shownName(current);
    if (kind === 'class' && usage.students + usage.teachers + usage.attendance_records > 0) {
      throw new ConflictError('classes.class_in_use', {
        name,
        students: usage.students,
        teachers: usage.teachers,
        records: usage.attendance_records,
      });
    }
    if (kind === 'class') {
      const plans = (await classUses.get('fee_plans')?.(tx, current.value)) ?? [];
      if (plans.length > 0) {
        throw new ConflictError('classes.class_in_fee_plans', { name, plans: plans.length, names: plans.join(', ') });
      }
    }
    if (kind === 'subject' && usage.teachers > 0) {
      throw new ConflictError('classes.subject_in_use', { name, teachers: usage.teachers });
    }
    if (kind === 'class' && current.archived_at === null && (await listRows(tx, 'class', true)).length <= 1) {
      throw new ConflictError('classes.last_class', { name });
    }
    await deleteRow(tx, kind, id);
    await recordActivity(tx, actor, 'classes.deleted', 'classes.deleted', { kind, name });
    return { message: `${kind === 'class' ? 'Class' : 'Subject'} "${name}" deleted` };
  });
}

/** The new order: every id of the list once, archived ones included. */
export async function reorder(
  ctx: AppContext,
  actor: Actor,
  kind: ListKind,
  ids: readonly number[],
): Promise<CentreClass[] | CentreSubject[]> {
  await ctx.db.transaction(async (tx) => {
    const all = (await lockAll(tx, kind)).map((row) => row.id);
    const given = new Set(ids);
    if (given.size !== ids.length || all.length !== ids.length || all.some((id) => !given.has(id))) {
      throw new ValidationError('ids', 'validation.order_incomplete', { kind, count: all.length });
    }
    await setOrder(tx, kind, ids);
    await recordActivity(tx, actor, 'classes.reordered', 'classes.reordered', { kind });
  });
  return kind === 'class' ? listClasses(ctx.db) : listSubjects(ctx.db);
}
