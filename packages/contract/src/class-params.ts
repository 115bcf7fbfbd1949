import type { ActivityTextCode } from './activity-texts';
import { ENGLISH_PARAMS, type ErrorCode, type ErrorParamValue } from './error-codes';

/**
 * The params of an error or activity text that name one of the centre's classes (ADR 054). Such a
 * param holds the class's stored VALUE ("7", "Morning batch"), and the text has no word for "Class"
 * before it: whoever writes the text names the class through the centre's labels. The server's
 * English names it by its label ("Class 7", "Class 11 – A", "Morning batch"); a client in another
 * language names a class of the spec's kind with its own class word ("कक्षा 7") and any other by
 * its label as written, never "Class Morning batch".
 */
export const CLASS_PARAMS: Partial<Record<ErrorCode | ActivityTextCode, readonly string[]>> = {
  'attendance.class_not_yours': ['other'],
  'student.class_change_not_yours': ['from', 'to'],
  'student.class_change_no_class': ['from', 'to'],
  'validation.no_parents_in_class': ['class_name'],
  'parents.class_has_no_families': ['class'],
  'student.created': ['class_name'],
  'leave.requested': ['class_name'],
  'leave.requested_days': ['class_name'],
  'leave.approved': ['class_name'],
  'leave.approved_days': ['class_name'],
  'leave.declined': ['class_name'],
  'leave.declined_days': ['class_name'],
  'messages.sent_to_class': ['class_name'],
  'parents.access_bulk': ['class'],
};

/**
 * The params that name SEVERAL classes (ADR 054, amended): the stored values joined with ", " ("7, 8",
 * the order the server chose). Written as stored when every one of them is of the spec's kind (the
 * texts read as they always have: "your classes (7, 8)"); when one is the centre's own ("Morning
 * batch"), each is named as a single class param is ("Morning batch, Class 9"), so no class reads as a
 * bare value beside a label.
 */
export const CLASS_LIST_PARAMS: Partial<Record<ErrorCode | ActivityTextCode, readonly string[]>> = {
  'attendance.class_not_yours': ['classes'],
  'attendance.classes_not_yours': ['classes'],
  'leave.classes_only': ['classes'],
  'student.class_change_not_yours': ['classes'],
  'attendance.marked': ['classes'],
  'attendance.marked_from_queue': ['classes'],
};

/**
 * Texts whose plural writes the class word before their list ("you mark only {count, plural, =-1 {}
 * one {Class } other {Classes }}{classes}"): when the list is named class by class, its count is
 * filled as -1 (never a real count), whose branch has no word, so a batch never reads "Classes
 * Morning batch, Class 9". The params a client gets keep the real count.
 */
/** The count a text's class-word plural is filled with when its list names each class itself. */
export const NAMED_ONE_BY_ONE = -1;

export const CLASS_WORD_COUNTS: Partial<Record<ErrorCode | ActivityTextCode, string>> = {
  'student.class_change_not_yours': 'count',
  'attendance.marked': 'class_count',
  'attendance.marked_from_queue': 'class_count',
};

/** The values of a list param as stored ("7, 8" gives 7 and 8). */
export function classListValues(list: string): string[] {
  return list === '' ? [] : list.split(', ');
}

/**
 * The label of a class the centre's list does not hold (or before the list is read): the spec's
 * "Class 12" for a number, else the value as written.
 */
export function classLabelFallback(value: string): string {
  return /^\d+$/.test(value) ? `Class ${value}` : value;
}

/** The params of `code` that name a class (none for most codes). */
export function classParamsOf(code: string): readonly string[] {
  return Object.hasOwn(CLASS_PARAMS, code) ? (CLASS_PARAMS[code as ErrorCode] ?? []) : [];
}

/** The params of `code` that name several classes (none for most codes). */
export function classListParamsOf(code: string): readonly string[] {
  return Object.hasOwn(CLASS_LIST_PARAMS, code) ? (CLASS_LIST_PARAMS[code as ErrorCode] ?? []) : [];
}

/**
 * `params` with each class param of `code` named as `name` says ("Class 7" for "7"), and each list of
 * classes too unless all of it is `plain` (of the spec's kind: by default, a number named as
 * `classLabelFallback` names it); others unchanged.
 */
export function withClassNames<V extends ErrorParamValue>(
  code: string,
  params: Readonly<Record<string, V>>,
  name: (value: string) => string,
  plain: (value: string) => boolean = (value) => /^\d+$/.test(value) && name(value) === classLabelFallback(value),
): Record<string, V | string | number> {
  const named: Record<string, V | string | number> = { ...params };
  for (const key of classParamsOf(code)) {
    const value = params[key];
    if (value !== undefined) named[key] = name(String(value));
  }
  for (const key of classListParamsOf(code)) {
    const value = params[key];
    if (value === undefined) continue;
    const values = classListValues(String(value));
    if (values.every(plain)) continue;
    named[key] = values.map(name).join(', ');
    const count = Object.hasOwn(CLASS_WORD_COUNTS, code) ? CLASS_WORD_COUNTS[code as ErrorCode] : undefined;
    if (count !== undefined && params[count] !== undefined) named[count] = NAMED_ONE_BY_ONE;
  }
  return named;
}

/**
 * Error words whose English detail names their classes by `label` (the centre's labels); the params
 * a client gets keep the values (ADR 054).
 */
export function namingClasses<W extends { code: string; params: Readonly<Record<string, ErrorParamValue>> }>(
  words: W,
  label: (value: string) => string,
): W {
  return { ...words, [ENGLISH_PARAMS]: withClassNames(words.code, words.params, label) };
}
