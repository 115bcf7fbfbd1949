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
