import { tablesInDependencyOrder } from '../../db/backup';
import type { Queryable } from '../../db/database';
import { MIGRATIONS_TABLE } from '../../db/migrate';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The tables a clear-all of `roots` may write to, in the order it locks them: the roots, then every
 * table that refers to one of them (its rows are deleted or set to NULL with them), and so on,
 * parents before children as the services write them, and `activities` last (every service writes
 * its activity row last). Locking in the order writers write keeps a clear-all and a writer from
 * waiting on each other (a deadlock); one that happens anyway is retried.
 */
export async function tablesAffectedByClearing(db: Queryable, roots: string[]): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `WITH RECURSIVE affected (oid) AS (
       SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname = ANY($1::text[])
       UNION
       SELECT con.conrelid FROM pg_constraint con JOIN affected a ON con.confrelid = a.oid WHERE con.contype = 'f'
     )
     SELECT c.relname AS name FROM affected JOIN pg_class c ON c.oid = affected.oid`,
    [roots],
  );
  const affected = new Set(rows.map((row) => row.name));
  const others = (await tablesInDependencyOrder(db)).filter((name) => affected.has(name) && !roots.includes(name));
  const last = others.filter((name) => name === 'activities');
  return [...roots.filter((name) => affected.has(name)), ...others.filter((name) => name !== 'activities'), ...last];
}

/**
 * Must be the first statements of `tx`: one snapshot for the whole transaction, taken only once
 * nobody else can change the locked tables (readers go on; writers wait until it ends). Clear-alls
 * also wait for each other, on a lock of the migrations table that only they and migrations take
 * (a lock, unlike a query, does not start the snapshot).
 */
export async function beginSnapshotWithLocks(tx: Queryable, tables: string[]): Promise<void> {
  await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
  await tx.query(`LOCK TABLE ${MIGRATIONS_TABLE} IN SHARE ROW EXCLUSIVE MODE`);
  if (tables.length === 0) return;
  await tx.query(`LOCK TABLE ${tables.map(quote).join(', ')} IN EXCLUSIVE MODE`);
}
