import type { AttendanceRecord } from '@tuitiondesk/contract';

export type GroupCheckState = 'checked' | 'indeterminate' | 'unchecked';

/** Class names are '7' … '10': by number, so 10 comes after 9. */
function compareClasses(a: string, b: string): number {
  return Number(a) - Number(b) || a.localeCompare(b);
}

/** Pending records grouped by class_name, classes in order, records in their order. */
export function groupByClass<T extends Pick<AttendanceRecord, 'class_name'>>(records: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const name of [...new Set(records.map((record) => record.class_name))].sort(compareClasses)) {
    groups.set(name, []);
  }
  for (const record of records) groups.get(record.class_name)?.push(record);
  return groups;
}

/** A class panel's checkbox: checked when all its records are selected, indeterminate when some are. */
export function groupCheckState(
  records: readonly Pick<AttendanceRecord, 'id'>[],
  selected: ReadonlySet<number>,
): GroupCheckState {
  const count = records.filter((record) => selected.has(record.id)).length;
  if (count === 0) return 'unchecked';
  return count === records.length ? 'checked' : 'indeterminate';
}

/** Ticking a panel selects all of its records; unticking a full one deselects them. */
export function toggleGroup(
  records: readonly Pick<AttendanceRecord, 'id'>[],
  selected: ReadonlySet<number>,
): Set<number> {
  const next = new Set(selected);
  if (groupCheckState(records, selected) === 'checked') for (const record of records) next.delete(record.id);
  else for (const record of records) next.add(record.id);
  return next;
}

/** The selection less any record no longer pending (approved here, by someone else, or re-dated). */
export function keepPending(
  selected: ReadonlySet<number>,
  records: readonly Pick<AttendanceRecord, 'id'>[],
): Set<number> {
  const pending = new Set(records.map((record) => record.id));
  return new Set([...selected].filter((id) => pending.has(id)));
}
