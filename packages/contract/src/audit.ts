import { z } from 'zod';
import { isoDateSchema, pageQuerySchema } from './common';

/** Through which way a change came: the staff console, an import, the API (any other client), the parent app, or the server itself. */
export const AUDIT_WAYS = ['console', 'import', 'api', 'parent app', 'system'] as const;
export type AuditWay = (typeof AUDIT_WAYS)[number];

/**
 * The header a client names itself with, for the audit log's "way" only (it is never trusted for
 * anything else): the console sends `console`, the parent app `parent-app`.
 */
export const CLIENT_HEADER = 'x-tuitiondesk-client';
export const CLIENT_HEADER_VALUES = { console: 'console', parentApp: 'parent-app' } as const;

/** What an audit row is about: a table's name for row changes, or an event. */
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
  'message_template_texts',
  'settings',
  'parent_access',
  'leave_requests',
  'sign_in',
  'backup',
  'demo_data',
  'audit_log',
] as const;

/**
 * create / update / delete for row changes; sign_in and sign_in_failed for attempts at a secret;
 * backup_created and backup_restored; removed for the retention job's removal of old rows.
 */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'sign_in',
  'sign_in_failed',
  'backup_created',
  'backup_restored',
  'removed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditEntrySchema = z
  .object({
    id: z.number().int(),
    at: z.string(),
    actor_id: z.number().int().nullable(),
    actor_name: z.string().nullable(),
    address: z.string().nullable(),
    way: z.enum(AUDIT_WAYS),
    entity: z.string(),
    action: z.string(),
    record_id: z.string().nullable(),
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const dateFilter = isoDateSchema.optional();

const auditFilterFields = {
  actor_id: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .positive('must be a positive id')
    .max(2_147_483_647, 'is not a known id')
    .optional(),
  /** Part of the name of who did it, any case. */
  actor: z.string().trim().max(100, 'must be at most 100 characters').optional(),
  entity: z.string().trim().max(64, 'must be at most 64 characters').optional(),
  record_id: z.string().trim().max(64, 'must be at most 64 characters').optional(),
  action: z.string().trim().max(32, 'must be at most 32 characters').optional(),
  way: z.enum(AUDIT_WAYS, { error: `must be one of ${AUDIT_WAYS.join(', ')}` }).optional(),
  from: dateFilter,
  to: dateFilter,
};

const isFromNotAfterTo = (query: { from?: string | undefined; to?: string | undefined }) =>
  !query.from || !query.to || query.from <= query.to;
const FROM_AFTER_TO = { message: 'must not be after to', path: ['from'] };

/** The filters of the Audit screen and its CSV export; from and to are days in the centre's zone, both included. */
export const auditQuerySchema = z.object(auditFilterFields).refine(isFromNotAfterTo, FROM_AFTER_TO);
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const auditPageQuerySchema = z
  .object({ ...auditFilterFields, ...pageQuerySchema({ maxLimit: 200, defaultLimit: 50 }).shape })
  .refine(isFromNotAfterTo, FROM_AFTER_TO);

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export const AUDIT_RETENTION_MONTHS_DEFAULT = 36;
export const AUDIT_RETENTION_MONTHS_MIN = 1;
export const AUDIT_RETENTION_MONTHS_MAX = 120;

export const auditRetentionSchema = z.object({ audit_retention_months: z.number().int() });
export type AuditRetention = z.infer<typeof auditRetentionSchema>;

export const updateAuditRetentionSchema = z.object({
  audit_retention_months: z
    .number({ error: 'must be a whole number of months' })
    .int('must be a whole number of months')
    .min(AUDIT_RETENTION_MONTHS_MIN, `must be at least ${AUDIT_RETENTION_MONTHS_MIN}`)
    .max(AUDIT_RETENTION_MONTHS_MAX, `must be at most ${AUDIT_RETENTION_MONTHS_MAX} (10 years)`),
});
