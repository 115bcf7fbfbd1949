import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditWay } from '@tuitiondesk/contract';

/** Who is changing data, from where and through which way: what the audit log's triggers record. */
export interface AuditSource {
  actor_id: number | null;
  actor_name: string | null;
  address: string | null;
  way: AuditWay;
}

/**
 * The source of the work running now: a request sets it for its handler (plugins/audit-context.ts).
 * It is read when a transaction starts, not when the request starts, so the account the
 * authentication hook found is the one recorded.
 */
const storage = new AsyncLocalStorage<() => AuditSource>();

export function runWithAuditSource<T>(source: () => AuditSource, work: () => T): T {
  return storage.run(source, work);
}

export function currentAuditSource(): AuditSource | undefined {
  return storage.getStore()?.();
}

/**
 * The statement that hands the source to the triggers, for the transaction it runs in (transaction-local:
 * a pooled connection never carries one request's source into the next).
 */
export const SET_AUDIT_SOURCE = "SELECT set_config('tuitiondesk.audit', $1, true)";

/** A statement that may change rows (a write outside a transaction is wrapped in one to carry the source). */
export function mayWrite(sql: string): boolean {
  return /\b(INSERT|UPDATE|DELETE)\b/i.test(sql);
}

/**
 * Runs `work` as the server's own (way 'system', nobody's account): a worker woken by a request must
 * not record its rounds, then and forever after, as that request's.
 */
export function runWithoutAuditSource<T>(work: () => T): T {
  return storage.exit(work);
}
