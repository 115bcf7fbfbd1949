import { CLASS_NAMES, type ClassName, type MarkingRules, type MarkingScope, type Role } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { plural } from '../../lib/activity-log';
import { addDays, today } from '../../lib/time';
import { readMarkingRules } from '../settings/repository';
import { findAssignedClasses } from './repository';

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
  refusal: string | undefined;
}

const byClassOrder = (a: string, b: string) => Number(a) - Number(b);

/**
 * Reads the caller's scope. `lock` holds their teacher row and the rules until the transaction ends,
 * so an admin who takes a class away (or changes the rules) at the same moment waits for this marking
 * and is answered after it, and a marking that starts after the change sees it.
 */
export async function loadScope(db: Queryable, marker: Marker, lock = false): Promise<Scope> {
  const day = today();
  if (marker.role === 'admin') {
    return {
      restricted: false,
      classes: CLASS_NAMES,
      rules: await readMarkingRules(db),
      today: day,
      earliest: undefined,
      refusal: undefined,
    };
  }
  const assigned = await findAssignedClasses(db, marker.id, lock);
  const rules = await readMarkingRules(db, lock ? 'share' : undefined);
  const own = CLASS_NAMES.filter((name) => assigned?.includes(name));
  let refusal: string | undefined;
  if (!rules.teachers_mark_any_class) {
    if (assigned === undefined) {
      refusal =
        'Your account is not linked to a teacher record, so you cannot mark attendance. Ask an admin to check your account on the Teachers screen.';
    } else if (own.length === 0) {
      refusal =
        'No class is assigned to you, so you cannot mark attendance. Ask an admin to assign your classes on the Teachers screen.';
    }
  }
  return {
    restricted: true,
    classes: rules.teachers_mark_any_class ? CLASS_NAMES : own,
    rules,
    today: day,
    earliest: addDays(day, -rules.teacher_mark_days_back),
    refusal,
  };
}

/** The 403 text when any of `classNames` is not the caller's, else undefined. */
export function classRefusal(scope: Scope, classNames: readonly string[]): string | undefined {
  if (scope.refusal) return scope.refusal;
  const others = [...new Set(classNames)].filter((name) => !scope.classes.includes(name as ClassName));
  if (others.length === 0) return undefined;
  others.sort(byClassOrder);
  const yours = `your ${scope.classes.length === 1 ? 'class' : 'classes'} (${scope.classes.join(', ')})`;
  const notYours =
    others.length === 1
      ? `Class ${others[0]} is not assigned to you.`
      : `Classes ${others.slice(0, -1).join(', ')} and ${others.at(-1)} are not assigned to you.`;
  return `You can mark attendance only for ${yours}. ${notYours}`;
}

/**
 * What is wrong with marking `date`, as the second half of a `date: …` detail (lower case first), or
 * undefined. A future day is refused to everyone; a day before the window to teachers.
 */
export function dateRefusal(scope: Scope, date: string): string | undefined {
  if (date > scope.today) return 'cannot be in the future';
  if (scope.earliest === undefined || date >= scope.earliest) return undefined;
  const days = scope.rules.teacher_mark_days_back;
  const window =
    days === 0
      ? `only for today (${scope.today})`
      : `only from ${scope.earliest} to ${scope.today} (today and the ${plural(days, 'day')} before)`;
  return `teachers can mark attendance ${window}; an admin can mark earlier days`;
}

/** Why the caller cannot mark this class on this date, as a sentence for the roster; undefined when they can. */
export function rosterRefusal(scope: Scope, className: ClassName, date: string): string | undefined {
  const byClass = classRefusal(scope, [className]);
  if (byClass) return byClass;
  if (date > scope.today) return 'Attendance cannot be marked for a future date.';
  const byDate = dateRefusal(scope, date);
  return byDate ? `${byDate.charAt(0).toUpperCase()}${byDate.slice(1)}.` : undefined;
}

export function toMarkingScope(scope: Scope): MarkingScope {
  return {
    restricted: scope.restricted,
    classes: [...scope.classes],
    any_class: scope.rules.teachers_mark_any_class,
    days_back: scope.rules.teacher_mark_days_back,
    earliest_date: scope.earliest ?? null,
    today: scope.today,
    cannot_mark_reason: scope.refusal ?? null,
  };
}
