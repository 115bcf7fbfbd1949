import {
  ALL_PARENTS,
  type ClassChoice,
  classDisplayLabel,
  classLabelFallback,
  listInWords,
  matchClassName,
} from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { ValidationError } from '../../lib/errors';
import { holdRows, type ListRow, listRows } from './repository';

/**
 * What other modules ask of the lists (ADR 043): is this written class or subject one of the centre's?
 * The contract's schemas check only a field's shape; these answer with the stored value, or a 422
 * naming the field and listing what is allowed. Archived ones name existing records (filters, a
 * student who keeps their class) but are refused for anything new.
 */

export interface Choices {
  /** Every class or subject, archived ones too, in the centre's order. */
  rows: ListRow[];
  /** What a written text is matched against: the value and the label people see. */
  choices: ClassChoice[];
  /** The values that may be chosen now, as a 422 lists them ("7, 8, 9 or 10"). */
  allowed: string[];
}

function choicesOf(rows: ListRow[]): Choices {
  return {
    rows,
    choices: rows.map((row) => ({ value: row.value, label: classDisplayLabel(row.label, row.section) })),
    allowed: rows.filter((row) => row.archived_at === null).map((row) => row.value),
  };
}

export async function readClassChoices(db: Queryable): Promise<Choices> {
  return choicesOf(await listRows(db, 'class'));
}

export async function readSubjectChoices(db: Queryable): Promise<Choices> {
  return choicesOf(await listRows(db, 'subject'));
}

/** Every class's value (archived ones too) in the centre's order: the classes a marking scope draws from. */
export async function classValues(db: Queryable): Promise<string[]> {
  return (await listRows(db, 'class')).map((row) => row.value);
}

export const classesInWords = (choices: Choices) => listInWords(choices.allowed);

/**
 * A class's label as people read it, by its stored value: "Class 7", "Class 11 – A", "Morning batch"
 * (archived ones too); a value the list does not hold as `classLabelFallback` names it ("Class 12"). What a text names a class by,
 * never "Class " put before the value.
 */
export async function readClassLabels(db: Queryable): Promise<(value: string) => string> {
  const labels = new Map(
    (await listRows(db, 'class')).map((row) => [row.value, classDisplayLabel(row.label, row.section)]),
  );
  return (value) => labels.get(value) ?? classLabelFallback(value);
}

/** A subject as written: its value or label in any case. */
export function matchSubject(written: string, choices: Choices): string | undefined {
  const lower = written.trim().toLowerCase();
  if (!lower) return undefined;
  return choices.choices.find((c) => c.value.toLowerCase() === lower || c.label.toLowerCase() === lower)?.value;
}

export interface ClassRule {
  /** Archived classes are accepted (a filter, a message to a class's families). */
  archivedToo?: boolean;
  /** An archived class that is accepted anyway: the one the record already has. */
  keep?: readonly string[];
}

/** Why `written` cannot be one of the choices now, or its stored value. */
function pick(field: string, written: string, choices: Choices, kind: 'class' | 'subject', rule: ClassRule): string {
  const value = kind === 'class' ? matchClassName(written, choices.choices) : matchSubject(written, choices);
  const row = choices.rows.find((r) => r.value === value);
  if (value === undefined || !row) {
    throw kind === 'class'
      ? new ValidationError(field, 'validation.not_a_class', { classes: classesInWords(choices) })
      : new ValidationError(field, 'validation.not_a_subject', { subjects: choices.allowed.join(', ') });
  }
  if (row.archived_at !== null && !rule.archivedToo && !rule.keep?.includes(value)) {
    throw new ValidationError(field, kind === 'class' ? 'validation.class_archived' : 'validation.subject_archived', {
      name: classDisplayLabel(row.label, row.section),
    });
  }
  return value;
}

/**
 * The values named, held (FOR SHARE) to the end of the transaction so that they cannot be deleted or
 * archived under the change; one deleted since it was read is refused as unknown.
 */
async function hold(
  db: Queryable,
  kind: 'class' | 'subject',
  field: (index: number) => string,
  values: string[],
  choices: Choices,
): Promise<void> {
  if (values.length === 0) return;
  const held = new Set((await holdRows(db, kind, values)).map((row) => row.value));
  const lost = values.findIndex((value) => !held.has(value));
  if (lost >= 0) {
    const still = {
      ...choices,
      allowed: choices.allowed.filter((value) => held.has(value) || !values.includes(value)),
    };
    throw kind === 'class'
      ? new ValidationError(field(lost), 'validation.not_a_class', { classes: classesInWords(still) })
      : new ValidationError(field(lost), 'validation.not_a_subject', { subjects: still.allowed.join(', ') });
  }
}

/** One class as written (a student's, a filter's): its stored value, held for the transaction. */
export async function requireClass(
  db: Queryable,
  field: string,
  written: string,
  rule: ClassRule = {},
): Promise<string> {
  const choices = await readClassChoices(db);
  const value = pick(field, written, choices, 'class', rule);
  await hold(db, 'class', () => field, [value], choices);
  return value;
}

/** A list of classes (a teacher's `classes_assigned`), each named `field[i]` when wrong; repeats dropped. */
export async function requireClasses(
  db: Queryable,
  field: string,
  written: readonly string[],
  rule: ClassRule = {},
): Promise<string[]> {
  const choices = await readClassChoices(db);
  const values = written.map((item, i) => pick(`${field}[${i}]`, item, choices, 'class', rule));
  const unique = [...new Set(values)];
  await hold(db, 'class', (i) => `${field}[${values.indexOf(unique[i] as string)}]`, unique, choices);
  return unique;
}

/** A list of subjects (a teacher's), each named `field[i]` when wrong; repeats dropped. */
export async function requireSubjects(
  db: Queryable,
  field: string,
  written: readonly string[],
  rule: ClassRule = {},
): Promise<string[]> {
  const choices = await readSubjectChoices(db);
  const values = written.map((item, i) => pick(`${field}[${i}]`, item, choices, 'subject', rule));
  const unique = [...new Set(values)];
  await hold(db, 'subject', (i) => `${field}[${values.indexOf(unique[i] as string)}]`, unique, choices);
  return unique;
}

/** `all_parents` or a class (archived too: its families can still be written to). */
export async function requireRecipients(db: Queryable, field: string, written: string): Promise<string> {
  if (written.toLowerCase() === ALL_PARENTS) return ALL_PARENTS;
  const choices = await readClassChoices(db);
  const value = matchClassName(written, choices.choices);
  if (value === undefined) {
    throw new ValidationError(field, 'validation.not_a_recipient', { classes: classesInWords(choices) });
  }
  return value;
}
