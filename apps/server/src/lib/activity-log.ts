import {
  ACTIVITY_TEXTS,
  type ActivityParams,
  type ActivityParamValue,
  type ActivityTextCode,
  type ActivityWords,
  classDisplayLabel,
  classLabelFallback,
  classListParamsOf,
  classListValues,
  classParamsOf,
  formatActivityText,
  isActivityTextCode,
  withClassNames,
} from '@tuitiondesk/contract';
import type { Queryable } from '../db/database';
import { readableDate } from './time';

/** A staff account that did something. */
export interface Actor {
  id: number;
  full_name: string;
}

/** Who did it: a staff account, or (id null) someone without one, e.g. a parent replying on WhatsApp. */
export interface ActivityActor {
  id: number | null;
  full_name: string;
  /** How an activity text names them, where not as `full_name` (a parent: `Asha`, not `Asha (parent)`). */
  text_name?: string;
}

/**
 * Every change staff make leaves one row in the activity feed. Call it with the same transaction as
 * the change, so the feed never shows a change that was rolled back, nor misses one that was not.
 *
 * The text is a code of the contract's activity catalogue with its params (ADR 038): the row stores the
 * English description written from them (`{actor}` is the actor's name), and the code and params, so a
 * client can show it in its own language. A plain string is stored as the description alone.
 */
export async function recordActivity<C extends ActivityTextCode>(
  tx: Queryable,
  actor: ActivityActor,
  action: string,
  code: C,
  params: ActivityParams<C>,
): Promise<void>;
export async function recordActivity(
  tx: Queryable,
  actor: ActivityActor,
  action: string,
  text: ActivityWords | string,
): Promise<void>;
export async function recordActivity(
  tx: Queryable,
  actor: ActivityActor,
  action: string,
  text: ActivityWords | string,
  params?: Readonly<Record<string, ActivityParamValue>>,
): Promise<void> {
  const words =
    typeof text !== 'string'
      ? text
      : params && isActivityTextCode(text)
        ? ({ code: text, params } as ActivityWords)
        : undefined;
  const codeOrDescription = typeof text === 'string' ? text : text.code;
  await tx.query(
    'INSERT INTO activities (user_id, actor, action, description, text_code, params) VALUES ($1, $2, $3, $4, $5, $6)',
    [
      actor.id,
      actor.full_name,
      action,
      words
        ? activityDescription(words, actor, await classLabelsOf(tx, classValuesIn(words.code, words.params)))
        : codeOrDescription,
      words?.code ?? null,
      words ? JSON.stringify({ actor: actor.text_name ?? actor.full_name, ...words.params }) : null,
    ],
  );
}

/**
 * The English text of an activity: the catalogue's text filled with its params, days as "23 Nov 2026",
 * a class by its label ("Class 7", "Morning batch"; ADR 054).
 */
export function activityDescription(
  words: ActivityWords,
  actor: ActivityActor,
  labelOf: (value: string) => string = classLabelFallback,
): string {
  return formatActivityText(
    ACTIVITY_TEXTS[words.code],
    withClassNames(words.code, { actor: actor.text_name ?? actor.full_name, ...words.params }, labelOf),
    { day: readableDate },
  );
}

/**
 * The classes a text's params name, by value: `['7']` for a leave request's `class_name`, `['8', '9']`
 * for a mark's `classes` ("8, 9").
 */
export function classValuesIn(code: string, params: Readonly<Record<string, ActivityParamValue>>): string[] {
  const one = classParamsOf(code).flatMap((key) => (params[key] === undefined ? [] : [String(params[key])]));
  const lists = classListParamsOf(code).flatMap((key) =>
    params[key] === undefined ? [] : classListValues(String(params[key])),
  );
  return [...one, ...lists];
}

/**
 * The labels of `values` (none read for no values): "Class 7", "Class 11 – A", "Morning batch"; a
 * value the centre's list does not hold as `classLabelFallback` names it.
 */
export async function classLabelsOf(db: Queryable, values: readonly string[]): Promise<(value: string) => string> {
  if (values.length === 0) return (value) => value;
  const rows = await db.query<{ value: string; label: string; section: string | null }>(
    'SELECT value, label, section FROM classes WHERE value = ANY($1::text[])',
    [[...new Set(values)]],
  );
  const labels = new Map(rows.map((row) => [row.value, classDisplayLabel(row.label, row.section)]));
  return (value) => labels.get(value) ?? classLabelFallback(value);
}

/** The names and the count a text about classes needs: `{ classes: '8, 9', class_count: 2 }`. */
export function classesParams(classNames: readonly string[]): { classes: string; class_count: number } {
  const sorted = [...new Set(classNames)].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  return { classes: sorted.join(', '), class_count: sorted.length };
}

/** `1 student`, `3 students`. */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
