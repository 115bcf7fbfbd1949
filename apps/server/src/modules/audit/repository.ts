import type { AuditEntry } from '@tuitiondesk/contract';
import {
  AUDIT_RETENTION_MONTHS_DEFAULT,
  AUDIT_RETENTION_MONTHS_MAX,
  AUDIT_RETENTION_MONTHS_MIN,
} from '@tuitiondesk/contract';
import { jsonTimestamp, type Queryable } from '../../db/database';
import { defineSetting } from '../../db/settings';

export interface AuditFilters {
  actor_id?: number | undefined;
  actor?: string | undefined;
  entity?: string | undefined;
  record_id?: string | undefined;
  action?: string | undefined;
  way?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** The WHERE clause and its parameters; from and to are calendar days in the session's zone, both included. */
function whereOf(filters: AuditFilters): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(clause(`$${params.length}`));
  };
  if (filters.actor_id !== undefined) add((p) => `actor_id = ${p}`, filters.actor_id);
  if (filters.actor) add((p) => `actor_name ILIKE ${p} ESCAPE '\\'`, `%${filters.actor.replace(/[\\%_]/g, '\\$&')}%`);
  if (filters.entity) add((p) => `entity = ${p}`, filters.entity);
  if (filters.record_id) add((p) => `record_id = ${p}`, filters.record_id);
  if (filters.action) add((p) => `action = ${p}`, filters.action);
  if (filters.way) add((p) => `way = ${p}`, filters.way);
  if (filters.from) add((p) => `at >= ${p}::date`, filters.from);
  if (filters.to) add((p) => `at < ${p}::date + 1`, filters.to);
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

const COLUMNS = `id, ${jsonTimestamp('at')} AS at, actor_id, actor_name, address, way, entity, action, record_id, before, after`;

/** One page, newest first. */
export async function findAuditPage(
  db: Queryable,
  filters: AuditFilters,
  page: { limit: number; offset: number },
): Promise<{ entries: AuditEntry[]; total: number }> {
  const { where, params } = whereOf(filters);
  const entries = await db.query<AuditEntry>(
    `SELECT ${COLUMNS} FROM audit_log ${where} ORDER BY at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit, page.offset],
  );
  const [count] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM audit_log ${where}`, params);
  return { entries, total: count?.total ?? 0 };
}

/**
 * The matching rows newest first, in batches of `batch` by keyset (at, id), so an export of a
 * million rows never holds them all, and a row added meanwhile does not shift the batches.
 */
export async function* findAuditBatches(
  db: Queryable,
  filters: AuditFilters,
  batch: number,
): AsyncGenerator<AuditEntry[]> {
  const { where, params } = whereOf(filters);
  let after: { at: string; id: number } | undefined;
  for (;;) {
    const keyset = after
      ? `${where ? `${where} AND` : 'WHERE'} (at, id) < ($${params.length + 1}::timestamptz, $${params.length + 2}::bigint)`
      : where;
    const rows = await db.query<AuditEntry & { at_exact: string }>(
      `SELECT ${COLUMNS}, at::text AS at_exact FROM audit_log ${keyset} ORDER BY at DESC, id DESC LIMIT ${batch}`,
      after ? [...params, after.at, after.id] : params,
    );
    if (rows.length === 0) return;
    const last = rows.at(-1) as AuditEntry & { at_exact: string };
    after = { at: last.at_exact, id: last.id };
    yield rows.map(({ at_exact: _exact, ...entry }) => entry);
    if (rows.length < batch) return;
  }
}

/** The months audit rows are kept (migration 0014 stores 36); a value edited into nonsense falls back. */
export const AUDIT_RETENTION_MONTHS = defineSetting({
  key: 'audit_retention_months',
  fallback: AUDIT_RETENTION_MONTHS_DEFAULT,
  bounds: { min: AUDIT_RETENTION_MONTHS_MIN, max: AUDIT_RETENTION_MONTHS_MAX },
});

/**
 * Removes the rows older than `months`, in the retention job's own transaction: the flag it sets is
 * the only thing the append-only trigger lets a DELETE through for. Answers the rows removed and the
 * cut-off.
 */
export async function deleteAuditRowsOlderThan(
  tx: Queryable,
  months: number,
): Promise<{ removed: number; before: string }> {
  await tx.query("SELECT set_config('tuitiondesk.audit_retention', 'on', true)");
  const [cutoff] = await tx.query<{ before: string }>(
    `SELECT ${jsonTimestamp('(now() - make_interval(months => $1::int))')} AS before`,
    [months],
  );
  const [result] = await tx.query<{ removed: number }>(
    `WITH gone AS (DELETE FROM audit_log WHERE at < now() - make_interval(months => $1::int) RETURNING 1)
     SELECT count(*)::int AS removed FROM gone`,
    [months],
  );
  await tx.query("SELECT set_config('tuitiondesk.audit_retention', '', true)");
  return { removed: result?.removed ?? 0, before: cutoff?.before ?? '' };
}
