import { errorTextBranches, errorTextParams, formatErrorText } from './error-codes';

/**
 * The texts of the activity feed, each under a stable code, in English (ADR 038). The server writes an
 * activity's English `description` from its code's text and params, and stores the code and the params
 * beside it; a client in another language fills its own translation of the code with the same params,
 * and shows the stored `description` for a row that has none (older rows) or a code it does not know.
 *
 * The syntax is the error catalogue's (ADR 036): `{name}`, `{n, plural, one {…} other {…}}` with `#`
 * the number, `{v, select, a {…} other {…}}`; a branch holds no placeholder but `#`. One kind more:
 * `{name, date}` is a yyyy-MM-dd day, which each side writes in its own form (the server's English
 * "23 Nov 2026", a client's for its language). `{actor}` is the one who did it, filled by the server (a parent's
 * name alone: the text says `(parent)` after it).
 * Names, subjects, reasons, phones and file names in params are shown as written.
 *
 * A code names one sentence shape, so one action (the row's `action`, e.g. `settings.updated`) may have
 * several codes. A code, once published, keeps its meaning: a changed meaning is a new code.
 */
export const ACTIVITY_TEXTS = {
  // Attendance
  'attendance.marked':
    '{actor} marked attendance for {count, plural, one {# student} other {# students}} of {class_count, plural, one {Class} other {Classes}} {classes} on {date, date}',
  'attendance.marked_from_queue':
    "{actor} marked attendance for {count, plural, one {# student} other {# students}} of {class_count, plural, one {Class} other {Classes}} {classes} on {date, date} (sent from a device's queue)",
  'attendance.approved':
    '{actor} approved {count, plural, one {# attendance record} other {# attendance records}}{alerts, plural, =0 {} one { and sent # absence alert to parents} other { and sent # absence alerts to parents}}',
  'teacher_attendance.marked':
    '{actor} saved teacher attendance for {count, plural, one {# teacher} other {# teachers}} on {date, date}',
  'teacher_attendance.locked':
    '{actor} locked teacher attendance for {date, date} ({count, plural, one {# teacher} other {# teachers}} marked)',
  'teacher_attendance.remarks_updated': '{actor} updated the remarks of {teacher} for {date, date}',

  // Students
  'student.created': '{actor} added student {name} ({unique_id}) to Class {class_name}',
  'student.updated': '{actor} updated student {name} ({unique_id})',
  'student.updated_phone':
    "{actor} updated student {name} ({unique_id}); the parent phone changed from {old_phone} to {new_phone} and the family's app on {old_phone} was told",
  'student.whatsapp_consent':
    '{actor} {consent, select, given {gave} other {withdrew}} WhatsApp consent for the parent of {name} ({phone})',
  'student.deleted': '{actor} deleted student {name} ({unique_id})',
  'student.deleted_many': '{actor} deleted {count, plural, one {# student} other {# students}}',
  'student.cleared':
    '{actor} cleared all students ({count, plural, one {# student} other {# students}} deleted; backup {file} taken first)',
  'student.imported': '{actor} imported {count, plural, one {# student} other {# students}} from {file}',
  'student.left': '{actor} marked student {name} ({unique_id}) as having left on {date, date}',
  'student.restored': '{actor} restored student {name} ({unique_id}), who had left on {date, date}',
  'student.scrubbed':
    'The personal data of {count, plural, one {# student} other {# students}} who left more than {months, plural, one {# month} other {# months}} ago was removed ({families, plural, one {# family} other {# families}} no longer on record); their attendance is kept without names',

  // Teachers
  'teacher.created': '{actor} added teacher {name} ({unique_id})',
  'teacher.updated': '{actor} updated teacher {name} ({unique_id})',
  'teacher.deleted': '{actor} deleted teacher {name} ({unique_id})',
  'teacher.deleted_many': '{actor} deleted {count, plural, one {# teacher} other {# teachers}}',
  'teacher.cleared':
    '{actor} cleared all teachers ({count, plural, one {# teacher} other {# teachers}} and {accounts, plural, one {# sign-in account} other {# sign-in accounts}} deleted; backup {file} taken first)',
  'teacher.imported': '{actor} imported {count, plural, one {# teacher} other {# teachers}} from {file}',

  // Leave
  'leave.requested': '{actor} (parent) asked for leave for {name} (Class {class_name}) on {date, date}: {reason}',
  'leave.requested_days':
    '{actor} (parent) asked for leave for {name} (Class {class_name}) from {from, date} to {to, date}: {reason}',
  'leave.withdrawn': '{actor} (parent) withdrew the leave request for {name} on {date, date}',
  'leave.withdrawn_days': '{actor} (parent) withdrew the leave request for {name} from {from, date} to {to, date}',
  'leave.approved':
    '{actor} approved leave for {name} (Class {class_name}) on {date, date} ({days, plural, one {# day} other {# days}})',
  'leave.approved_days':
    '{actor} approved leave for {name} (Class {class_name}) from {from, date} to {to, date} ({days, plural, one {# day} other {# days}})',
  'leave.declined':
    '{actor} declined leave for {name} (Class {class_name}) on {date, date} ({days, plural, one {# day} other {# days}})',
  'leave.declined_days':
    '{actor} declined leave for {name} (Class {class_name}) from {from, date} to {to, date} ({days, plural, one {# day} other {# days}})',

  // Messages, WhatsApp and the call list
  'messages.sent_to_class':
    '{actor} sent "{subject}" to {count, plural, one {# parent} other {# parents}} of Class {class_name}',
  'messages.sent_to_all_classes':
    '{actor} sent "{subject}" to {count, plural, one {# parent} other {# parents}} of all classes',
  'messages.whatsapp_queued': '{actor} queued a WhatsApp message to {phone}: over the daily limit',
  'messages.whatsapp_sent': '{actor} sent a WhatsApp message to {phone}',
  'messages.whatsapp_failed': '{actor} could not send a WhatsApp message to {phone}: {reason}',
  'messages.whatsapp_on_in_app': '{actor} ({phone}) turned WhatsApp messages on in the parent app',
  'messages.whatsapp_off_in_app': '{actor} ({phone}) turned WhatsApp messages off in the parent app',
  'messages.whatsapp_on_by_reply': '{actor} ({phone}) turned WhatsApp messages back on by replying START',
  'messages.whatsapp_off_by_reply': '{actor} ({phone}) turned WhatsApp messages off by replying STOP',
  'messages.parent_replied':
    '{actor} replied "{reply, select, sick {Sick} family {Family reason} late {Coming late} other {Please call me}}" to the {kind, select, late_alert {late} other {absence}} alert for {name} on {date, date} ({via, select, whatsapp {WhatsApp} other {parent app}})',
  'messages.family_called': '{actor} called {family} ({phone}) about "{subject}"',
  'messages.family_call_undone': '{actor} put {family} ({phone}) back on the call list',
  'templates.created': '{actor} added the message template "{name}"',
  'templates.updated': '{actor} changed the message template "{name}" ({languages})',
  'templates.deleted': '{actor} deleted the message template "{name}"',

  // Parent access
  'parents.access_issued': '{actor} issued parent access code for {parent} ({phone})',
  'parents.access_reissued':
    "{actor} issued a new parent access code for {parent} ({phone}); the old code stopped working and the family's devices were signed out and told",

  // Settings
  'settings.absence_alerts': '{actor} turned absence alerts to parents {state, select, on {on} other {off}}',
  'settings.admin_two_factor': '{actor} turned {state, select, on {on} other {off}} two-factor sign-in for every admin',
  'settings.marking_rules':
    '{actor} changed the attendance marking rules: {any_class, select, yes {any teacher marks any class} other {teachers mark only their own classes}}, {days, plural, =0 {today only} one {today and # day back} other {today and # days back}}',
  'settings.messaging': '{actor} changed the message settings: {changes}',
  'settings.country_code': '{actor} set the country code for phone numbers written without one to {code}',
  'settings.reminders_on': '{actor} set reminders to teachers of classes not marked at {time}',
  'settings.reminders_off': '{actor} turned reminders to teachers of classes not marked off',
  'settings.audit_retention': '{actor} set the audit log to keep {months} months',
  'settings.scrub_months':
    '{actor} set the personal data of students who left to be removed {months, plural, one {# month} other {# months}} after they left (was {before})',

  // Accounts, sign-in and backups
  'auth.password_changed': '{actor} changed their password',
  'auth.recovery_code_used':
    '{actor} signed in with a recovery code ({left, plural, one {# recovery code} other {# recovery codes}} left)',
  'two_factor.setup_started': '{actor} started setting up two-factor sign-in',
  'two_factor.enabled': '{actor} turned on two-factor sign-in',
  'two_factor.disabled': '{actor} turned off two-factor sign-in',
  'two_factor.reset': '{actor} reset two-factor sign-in for {name}',
  'two_factor.reset_other_installation':
    'Two-factor sign-in for {name} was turned off: the data was restored from a backup of an installation with another key file. They sign in with their password and can set it up again.',
  'two_factor.reset_unreadable_secret':
    'Two-factor sign-in for {name} was turned off: its secret could not be opened when the backup was restored. They sign in with their password and can set it up again.',
  'backup.created': '{actor} took a backup of all data ({file})',
} as const satisfies Record<string, string>;

export type ActivityTextCode = keyof typeof ACTIVITY_TEXTS;
export type ActivityParamValue = string | number;

/** A text's placeholder names, as error-codes.ts reads them, plus `{name, date}`. */
type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}`
  ? P extends `${infer Name}, date`
    ? Name | Placeholders<Rest>
    : P extends `${infer Name},${string}`
      ? Name | (Rest extends `${string}}}${infer After}` ? Placeholders<After> : never)
      : P | Placeholders<Rest>
  : never;

/** The params a code's text needs; `actor` is the server's to fill from who did it. */
export type ActivityParams<C extends ActivityTextCode> = {
  [K in Exclude<Placeholders<(typeof ACTIVITY_TEXTS)[C]>, 'actor'>]: ActivityParamValue;
};

/** An activity's text as code and params, before the server writes its English. */
export type ActivityWords = { [C in ActivityTextCode]: { code: C; params: ActivityParams<C> } }[ActivityTextCode];

export function activityWords<C extends ActivityTextCode>(code: C, params: ActivityParams<C>): ActivityWords {
  return { code, params } as ActivityWords;
}

const DATE = /\{(\w+), date\}/g;

/** The params a text needs (a `{day, date}` counts as `day`), for the catalogues' own checks. */
export function activityTextParams(text: string): string[] {
  return errorTextParams(text.replace(DATE, '{$1}'));
}

/** The branches of a text's plurals and selects, for the catalogues' own checks. */
export function activityTextBranches(text: string): string[] {
  return errorTextBranches(text.replace(DATE, '{$1}'));
}

/**
 * Fills an activity text (this catalogue's or a translation's) with params: `day` writes a
 * `{name, date}` param (a yyyy-MM-dd day) in the caller's form, `plural` is the language's plural rule
 * (English by default).
 */
export function formatActivityText(
  text: string,
  params: Readonly<Record<string, ActivityParamValue>>,
  options: { day: (isoDay: string) => string; plural?: (count: number) => string },
): string {
  const filled: Record<string, ActivityParamValue> = { ...params };
  for (const [, name] of text.matchAll(DATE)) {
    const value = params[name as string];
    if (value !== undefined) filled[name as string] = options.day(String(value));
  }
  return formatErrorText(text.replace(DATE, '{$1}'), filled, options.plural);
}

export function isActivityTextCode(code: string): code is ActivityTextCode {
  return Object.hasOwn(ACTIVITY_TEXTS, code);
}
