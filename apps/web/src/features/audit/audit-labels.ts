import type { AuditEntry, AuditWay } from '@tuitiondesk/contract';
import type { TFunction } from '../../i18n';
import enAudit from '../../i18n/locales/en/audit.json';

/** The audit screen's `t`: its keys are the audit namespace's. */
export type AuditT = TFunction<'audit'>;

/** What an audit row can be about (a table's name, or an event): the What filter's choices, in order. */
export { AUDIT_ENTITIES } from '@tuitiondesk/contract';

/** What a row is about, in the screen's words; one the screen does not know is shown as the server named it. */
export const entityLabel = (t: AuditT, entity: string) =>
  Object.hasOwn(enAudit.entities, entity) ? t(`entities.${entity as keyof typeof enAudit.entities}`) : entity;
export const actionLabel = (t: AuditT, action: string) =>
  Object.hasOwn(enAudit.actions, action) ? t(`actions.${action as keyof typeof enAudit.actions}`) : action;
export const wayLabel = (t: AuditT, way: AuditWay) => t(`ways.${way}`);

/** A value as the screen shows it: empty for none, text as it is, anything else as JSON. */
export function shownValue(t: AuditT, value: unknown): string {
  if (value === null || value === undefined || value === '') return t('values.empty');
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.length === 0 ? t('values.none') : value.map((item) => shownValue(t, item)).join(', ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Who did it: a staff account's name as stored; a parent, who has no account, is stored as "Parent"
 * and the family's phone (or "[removed]" once erased), and is said in the language in use.
 */
export function actorName(t: AuditT, entry: Pick<AuditEntry, 'actor_id' | 'actor_name'>): string {
  const parent = entry.actor_id === null ? /^Parent (\+[0-9]+|\[removed\])$/.exec(entry.actor_name ?? '') : null;
  if (!parent) return entry.actor_name ?? '';
  const phone = parent[1] === REMOVED ? t('values.removed') : (parent[1] as string);
  return t('parentActor', { phone });
}

/** The product's own words a column holds (a status, a role, a language): said in the language in use. */
type Words =
  | 'attendance'
  | 'teacherAttendance'
  | 'leave'
  | 'roles'
  | 'languages'
  | 'messageKinds'
  | 'channels'
  | 'replies'
  | 'signIn'
  | 'backups'
  | 'yesNo';
/** A word's key: `values.roles.admin`. */
type WordKey = {
  [W in Exclude<Words, 'yesNo'>]: `values.${W}.${keyof (typeof enAudit.values)[W] & string}`;
}[Exclude<Words, 'yesNo'>];
const WORDS_OF: Readonly<Record<string, Readonly<Record<string, Words>>>> = {
  attendance: { status: 'attendance' },
  teacher_attendance: { status: 'teacherAttendance' },
  leave_requests: { status: 'leave' },
  users: { role: 'roles', language: 'languages' },
  students: { parent_language: 'languages' },
  messages: { language: 'languages', kind: 'messageKinds', message_type: 'channels', reply: 'replies' },
  message_templates: { purpose: 'messageKinds' },
  message_template_texts: { language: 'languages' },
  // The events the server writes itself: how someone signed in, which backup.
  sign_in: { kind: 'signIn' },
  backup: { kind: 'backups' },
  // A setting's value is text; an on/off setting's is "true" or "false".
  settings: { value: 'yesNo' },
};
/** The columns whose secrets the log writes as "[redacted]" (migration 0014's redacted columns). */
const HIDDEN: Readonly<Record<string, readonly string[]>> = {
  users: ['password_hash'],
  user_two_factor: ['secret_encrypted'],
  parent_access: ['code_hash'],
  settings: ['value'],
};
/** What the erasure of a family's data writes in place of a value or a record's id (migration 0021). */
export const REMOVED = '[removed]';

/**
 * A field's value as the screen shows it: the product's own words (yes/no, a status, a role, a
 * language, "[redacted]", "[removed]") in the language in use; what people wrote or the centre holds
 * (names, phones, remarks, reasons) as written. A word a column does not know is shown as stored.
 */
export function fieldValue(t: AuditT, entity: string, field: string, value: unknown): string {
  if (typeof value === 'boolean') return t(`values.${value}`);
  if (typeof value !== 'string') return shownValue(t, value);
  if (value === REMOVED) return t('values.removed');
  if (value === '[redacted]' && HIDDEN[entity]?.includes(field)) return t('values.hidden');
  const words = WORDS_OF[entity]?.[field];
  if (words === 'yesNo') return value === 'true' || value === 'false' ? t(`values.${value}`) : value;
  if (words && Object.hasOwn(enAudit.values[words], value)) return t(`values.${words}.${value}` as WordKey);
  return shownValue(t, value);
}

/** A field's name in the language in use; a column the screen does not know yet as stored (`full name`). */
export function fieldLabel(t: AuditT, field: string): { text: string; known: boolean } {
  if (Object.hasOwn(enAudit.fields, field))
    return { text: t(`fields.${field as keyof typeof enAudit.fields}`), known: true };
  return { text: field.replaceAll('_', ' '), known: false };
}

export interface ChangeLine {
  field: string;
  before?: string;
  after?: string;
}

/**
 * The row's change as lines a person reads: a change lists each field before → after; a creation or an
 * event its values; a deletion the values it had. The ids and timestamps every row carries come last.
 */
export function changeLines(t: AuditT, entry: Pick<AuditEntry, 'entity' | 'before' | 'after'>): ChangeLine[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  const late = (field: string) => (field === 'id' || field.endsWith('_at') ? 1 : 0);
  fields.sort((a, b) => late(a) - late(b));
  return fields.map((field) => ({
    field,
    ...(entry.before && field in before ? { before: fieldValue(t, entry.entity, field, before[field]) } : {}),
    ...(entry.after && field in after ? { after: fieldValue(t, entry.entity, field, after[field]) } : {}),
  }));
}
