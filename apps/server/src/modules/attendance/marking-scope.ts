import {
  type ClassName,
  type ErrorWords,
  errorDetail,
  errorWords,
  type MarkingRules,
  type MarkingScope,
  namingClasses,
  type Role,
} from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { type FieldWords, fieldWords } from '../../lib/errors';
import { addDays, today } from '../../lib/time';
import { classValues, readClassLabels } from '../classes';
import { findAssignedClasses } from './repository';
import { MARKING_RULES } from './settings';

/**
 * What one signed-in person may mark (ADR 019): admins any class on any past day; a teacher the
 * classes on their teacher record (every class when the centre allows it), from today back the
 * centre's number of days. One place for the rules, used by marking, the roster and the console.
 */

export interface Marker {
  id: number;
  full_name: string;
  role: Role;
}

export interface Scope {
  /** A teacher: the classes and dates below are all they may mark. */
  restricted: boolean;
  classes: readonly ClassName[];
  rules: MarkingRules;
  today: string;
  /** The first day the caller may mark; undefined when any past day is allowed. */
  earliest: string | undefined;
  /** Why the caller may mark nothing at all (a teacher with no class), else undefined. */
  refusal: ErrorWords | undefined;
  /** A class's label by its value, as a refusal's English names it (ADR 054). */
  labelOf: (value: string) => string;
}

const byClassOrder = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/**
 * Reads the caller's scope. `lock` holds their teacher row and the rules until the transaction ends,
 * so an admin who takes a class away (or changes the rules) at the same moment waits for this marking
 * and is answered after it, and a marking that starts after the change sees it.
 */
export async function loadScope(db: Queryable, marker: Marker, lock = false): Promise<Scope> {
  const day = today();
  // The centre's classes (ADR 043), archived ones too: their students are still marked.
  const [classes, labelOf] = await Promise.all([classValues(db), readClassLabels(db)]);
  if (marker.role === 'admin') {
    return {
      restricted: false,
      classes,
      rules: await MARKING_RULES.read(db),
      today: day,
      earliest: undefined,
      refusal: undefined,
      labelOf,
    };
  }
  const assigned = await findAssignedClasses(db, marker.id, lock);
  const rules = await MARKING_RULES.read(db, lock ? 'share' : undefined);
  const own = classes.filter((name) => assigned?.includes(name));
  let refusal: ErrorWords | undefined;
  if (!rules.teachers_mark_any_class) {
    if (assigned === undefined) {
      refusal = errorWords('attendance.not_linked_to_teacher');
    } else if (own.length === 0) {
      refusal = errorWords('attendance.no_class_assigned');
    }
  }
  return {
    restricted: true,
    classes: rules.teachers_mark_any_class ? classes : own,
    rules,
    today: day,
    earliest: addDays(day, -rules.teacher_mark_days_back),
    refusal,
    labelOf,
  };
}

/** The 403 when any of `classNames` is not the caller's, else undefined. */
export function classRefusal(scope: Scope, classNames: readonly string[]): ErrorWords | undefined {
  if (scope.refusal) return scope.refusal;
  const others = [...new Set(classNames)].filter((name) => !scope.classes.includes(name as ClassName));
  if (others.length === 0) return undefined;
  others.sort(byClassOrder);
  const yours = { count: scope.classes.length, classes: scope.classes.join(', ') };
  return others.length === 1
    ? namingClasses(errorWords('attendance.class_not_yours', { ...yours, other: others[0] ?? '' }), scope.labelOf)
    : namingClasses(
        errorWords('attendance.classes_not_yours', {
          ...yours,
          others: others.slice(0, -1).join(', '),
          last: others.at(-1) ?? '',
        }),
        scope.labelOf,
      );
}

/**
 * What is wrong with marking `date`, as a `date` field's failure, or undefined. A future day is
 * refused to everyone; a day before the window to teachers.
 */
export function dateRefusal(scope: Scope, date: string): FieldWords | undefined {
  if (date > scope.today) return fieldWords('validation.not_in_future');
  if (scope.earliest === undefined || date >= scope.earliest) return undefined;
  const days = scope.rules.teacher_mark_days_back;
  return days === 0
    ? fieldWords('validation.teacher_today_only', { today: scope.today })
    : fieldWords('validation.teacher_window', { earliest: scope.earliest, today: scope.today, days });
}

/**
 * `dateRefusal` as a sentence of its own rather than a field's failure (a queued mark's reason, a
 * roster's notice): the same rules, with the catalogue's `attendance.*` texts.
 */
export function dateRefusalSentence(scope: Scope, date: string): ErrorWords | undefined {
  const byDate = dateRefusal(scope, date);
  if (!byDate) return undefined;
  switch (byDate.code) {
    case 'validation.teacher_today_only':
      return errorWords('attendance.teacher_today_only', { today: scope.today });
    case 'validation.teacher_window':
      return errorWords('attendance.teacher_window', {
        earliest: scope.earliest ?? '',
        today: scope.today,
        days: scope.rules.teacher_mark_days_back,
      });
    default:
      return errorWords('attendance.mark_in_future');
  }
}

/**
 * Why the caller cannot mark this class on this date, for the roster: words a client translates,
 * whose English (errorDetail) is the roster's `cannot_mark_reason`; undefined when they can.
 */
export function rosterRefusal(scope: Scope, className: ClassName, date: string): ErrorWords | undefined {
  const byClass = classRefusal(scope, [className]);
  if (byClass) return byClass;
  if (date > scope.today) return errorWords('attendance.future_date');
  return dateRefusalSentence(scope, date);
}

export function toMarkingScope(scope: Scope): MarkingScope {
  return {
    restricted: scope.restricted,
    classes: [...scope.classes],
    any_class: scope.rules.teachers_mark_any_class,
    days_back: scope.rules.teacher_mark_days_back,
    earliest_date: scope.earliest ?? null,
    today: scope.today,
    cannot_mark_reason: scope.refusal ? errorDetail(scope.refusal) : null,
    cannot_mark: scope.refusal ?? null,
  };
}
