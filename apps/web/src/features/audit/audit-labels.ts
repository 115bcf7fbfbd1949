import type { AuditEntry, AuditWay } from '@tuitiondesk/contract';

/** What an audit row is about, in the screen's words: a table's name, or an event. */
export const ENTITY_LABELS: Readonly<Record<string, string>> = {
  students: 'Student',
  teachers: 'Teacher',
  users: 'Staff account',
  user_two_factor: 'Two-factor sign-in',
  attendance: 'Attendance',
  teacher_attendance: 'Teacher attendance',
  teacher_attendance_locks: 'Teacher attendance lock',
  messages: 'Message',
  message_templates: 'Message template',
  settings: 'Setting',
  parent_access: 'Parent access code',
  leave_requests: 'Leave request',
  sign_in: 'Sign-in',
  backup: 'Backup',
  demo_data: 'Demo data',
  audit_log: 'Audit log',
};

export const ACTION_LABELS: Readonly<Record<string, string>> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  sign_in: 'Signed in',
  sign_in_failed: 'Sign-in refused',
  backup_created: 'Backup taken',
  backup_restored: 'Backup restored',
  removed: 'Old rows removed',
};

export const WAY_LABELS: Readonly<Record<AuditWay, string>> = {
  console: 'Console',
  import: 'Import',
  api: 'API',
  'parent app': 'Parent app',
  system: 'System',
};

export const entityLabel = (entity: string) => ENTITY_LABELS[entity] ?? entity;
export const actionLabel = (action: string) => ACTION_LABELS[action] ?? action;

/** A value as the screen shows it: empty for none, text as it is, anything else as JSON. */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map(shownValue).join(', ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** `full_name` → `full name`. */
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
export function changeLines(entry: Pick<AuditEntry, 'before' | 'after'>): ChangeLine[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  const late = (field: string) => (field === 'id' || field.endsWith('_at') ? 1 : 0);
  fields.sort((a, b) => late(a) - late(b));
  return fields.map((field) => ({
    field,
    ...(entry.before && field in before ? { before: shownValue(before[field]) } : {}),
    ...(entry.after && field in after ? { after: shownValue(after[field]) } : {}),
  }));
}
