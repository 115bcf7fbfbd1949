import type { AuditAction } from '@tuitiondesk/contract';
import { currentAuditSource } from '../db/audit-context';
import type { Queryable } from '../db/database';

export interface AuditEvent {
  entity: string;
  action: AuditAction;
  record_id?: string | number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** Who, when it is not the request's signed-in account (a sign-in names the account it signed in). */
  actor?: { id: number | null; name: string | null };
}

/**
 * One audit row for an event that is not a row change the triggers see (a sign-in, a failed one, a
 * backup, a restore, the retention job), with the address and way of the request running now.
 * Secrets must never be put in `before` or `after`.
 */
export async function recordAudit(db: Queryable, event: AuditEvent): Promise<void> {
  const source = currentAuditSource();
  const actor = event.actor ?? { id: source?.actor_id ?? null, name: source?.actor_name ?? null };
  await db.query(
    `INSERT INTO audit_log (actor_id, actor_name, address, way, entity, action, record_id, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb)`,
    [
      actor.id,
      actor.name,
      source?.address ?? null,
      source?.way ?? 'system',
      event.entity,
      event.action,
      event.record_id === undefined || event.record_id === null ? null : String(event.record_id),
      event.before ? JSON.stringify(event.before) : null,
      event.after ? JSON.stringify(event.after) : null,
    ],
  );
}

/**
 * For the rest of the transaction `tx`, row changes leave no audit row: only for bulk paths that
 * record themselves as one row instead (a restore, the demo seed, the bench's seeding), where a row
 * per loaded record would cost minutes and say nothing (ADR 025).
 */
export async function skipRowAudit(tx: Queryable): Promise<void> {
  await tx.query("SELECT set_config('tuitiondesk.audit_skip', 'on', true)");
}

/** What a scrubbed student's audit rows lose: their name and their family's (migration 0021). */
const STUDENT_PERSONAL_FIELDS = ['full_name', 'parent_name', 'parent_phone'];
/** What a forgotten family's rows lose, wherever they show the phone: its names, and its messages' texts. */
const FAMILY_PERSONAL_FIELDS = [
  'phone',
  'tried',
  'parent_phone',
  'parent_name',
  'recipient',
  'recipient_name',
  'subject',
  'message',
];
/** The fields that hold a family's phone, and the kinds of rows that have them. */
const PHONE_FIELDS = ['phone', 'tried', 'parent_phone', 'recipient'];
const ENTITIES_WITH_PHONES = ['students', 'leave_requests', 'messages', 'sign_in'];

/**
 * A student's other records whose audit rows carry the family's words: the table (its audit entity has
 * the same name), the fields removed, and whether only rows that hold one of them are touched.
 */
const STUDENT_RECORDS = [
  { table: 'leave_requests', fields: ['parent_phone', 'reason'], onlyWhereHeld: false },
  { table: 'attendance', fields: ['remarks'], onlyWhereHeld: true },
  { table: 'messages', fields: ['message'], onlyWhereHeld: true },
] as const;

/**
 * Personal data scrubbed from the records goes from the audit rows too: in the scrubbed students'
 * own rows, their leave requests (the phone, the parent's reason), their attendance (remarks) and the
 * messages about them (the text, which names the child); and, for families no longer on record, in
 * every row that shows the phone (their access, their messages with their texts, the students and
 * requests that held it) or names them as the actor ("Parent +91…"), and in the rows of their
 * messages (`familyMessageIds`) whose texts the scrub just removed. Values become "[removed]"; what
 * the scrubbed record holds now ("Former student STU0042") stays. Under tuitiondesk.audit_erasure,
 * set for this transaction only: the database lets these updates through and no other change
 * (migration 0021).
 */
export async function eraseFromAudit(
  tx: Queryable,
  studentIds: readonly number[],
  phones: readonly string[],
  familyMessageIds: readonly number[] = [],
) {
  if (studentIds.length === 0 && phones.length === 0) return;
  await tx.query("SELECT set_config('tuitiondesk.audit_erasure', 'on', true)");
  await tx.query(
    `UPDATE audit_log a
        SET before = audit_removed(a.before, $2::text[], to_jsonb(s)),
            after = audit_removed(a.after, $2::text[], to_jsonb(s))
       FROM students s
      WHERE s.id = ANY($1::int[]) AND a.entity = 'students' AND a.record_id = s.id::text`,
    [studentIds, STUDENT_PERSONAL_FIELDS],
  );
  for (const { table, fields, onlyWhereHeld } of STUDENT_RECORDS) {
    await tx.query(
      `UPDATE audit_log a
          SET before = audit_removed(a.before, $2::text[]), after = audit_removed(a.after, $2::text[])
         FROM ${table} r
        WHERE r.student_id = ANY($1::int[]) AND a.entity = '${table}' AND a.record_id = r.id::text${
          onlyWhereHeld ? ' AND (a.before ?| $2::text[] OR a.after ?| $2::text[])' : ''
        }`,
      [studentIds, fields],
    );
  }
  if (familyMessageIds.length > 0) {
    await tx.query(
      `UPDATE audit_log a
          SET before = audit_removed(a.before, $2::text[]), after = audit_removed(a.after, $2::text[])
        WHERE a.entity = 'messages' AND a.record_id = ANY($1::text[])`,
      [familyMessageIds.map(String), FAMILY_PERSONAL_FIELDS],
    );
  }
  if (phones.length > 0) {
    await tx.query(
      `UPDATE audit_log a
          SET record_id = CASE WHEN a.record_id = ANY($1::text[]) THEN '[removed]' ELSE a.record_id END,
              actor_name = CASE WHEN a.actor_id IS NULL AND a.actor_name = ANY($2::text[])
                                THEN 'Parent [removed]' ELSE a.actor_name END,
              before = audit_removed(a.before, $3::text[]),
              after = audit_removed(a.after, $3::text[])
        WHERE (a.entity IN ('parent_access', 'sign_in') AND a.record_id = ANY($1::text[]))
           OR (a.actor_id IS NULL AND a.actor_name = ANY($2::text[]))
           OR (a.entity = ANY($5::text[])
               AND EXISTS (SELECT 1 FROM unnest($4::text[]) f
                            WHERE a.before ->> f = ANY($1::text[]) OR a.after ->> f = ANY($1::text[])))`,
      [phones, phones.map((phone) => `Parent ${phone}`), FAMILY_PERSONAL_FIELDS, PHONE_FIELDS, ENTITIES_WITH_PHONES],
    );
  }
  await tx.query("SELECT set_config('tuitiondesk.audit_erasure', '', true)");
}
