import type { AuditEntry, AuditWay } from '@tuitiondesk/contract';
import type { TFunction } from '../../i18n';

/** What an audit row can be about (a table's name, or an event): the What filter's choices, in order. */
export const AUDIT_ENTITIES = [
  'students',
  'teachers',
  'users',
  'user_two_factor',
  'attendance',
  'teacher_attendance',
  'teacher_attendance_locks',
  'messages',
  'message_templates',
  'settings',
  'parent_access',
  'leave_requests',
  'sign_in',
  'backup',
  'demo_data',
  'audit_log',
] as const;

/** What a row is about, in the screen's words; one the screen does not know is shown as the server named it. */
export const entityLabel = (t: TFunction, entity: string) => t(`audit:entities.${entity}`, { defaultValue: entity });
export const actionLabel = (t: TFunction, action: string) => t(`audit:actions.${action}`, { defaultValue: action });
export const wayLabel = (t: TFunction, way: AuditWay) => t(`audit:ways.${way}`);

/** A value as the screen shows it: empty for none, text as it is, anything else as JSON. */
export function shownValue(t: TFunction, value: unknown): string {
  if (value === null || value === undefined || value === '') return t('audit:values.empty');
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.length === 0 ? t('audit:values.none') : value.map((item) => shownValue(t, item)).join(', ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** `full_name` → `full name`: the stored field's own name (the record's column), in every language. */
export const fieldLabel = (field: string) => field.replaceAll('_', ' ');

export interface ChangeLine {
  field: string;
  before?: string;
  after?: string;
}

/**
 * The row's change as lines a person reads: a change lists each field before → after; a creation or an
 * event its values; a deletion the values it had. The ids and timestamps every row carries come last.
 */
export function changeLines(t: TFunction, entry: Pick<AuditEntry, 'before' | 'after'>): ChangeLine[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  const late = (field: string) => (field === 'id' || field.endsWith('_at') ? 1 : 0);
  fields.sort((a, b) => late(a) - late(b));
  return fields.map((field) => ({
    field,
    ...(entry.before && field in before ? { before: shownValue(t, before[field]) } : {}),
    ...(entry.after && field in after ? { after: shownValue(t, after[field]) } : {}),
  }));
}
