/**
 * What is in the database, as a backup sees it: the application's tables (not the bookkeeping ones)
 * with the columns a backup carries and the key rows are read in order of, parents before the tables
 * that refer to them; and the sequences that number them.
 */
import type { Queryable } from '../database';
import { MIGRATIONS_TABLE } from '../migrate';

/** A table's or sequence's name, quoted for SQL. */
export const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface TableInfo {
  name: string;
  /** Columns a backup carries (generated columns are computed again on restore). */
  columns: string[];
  /** The columns rows are read in order of: the primary key, or the row's physical place. */
  keys: { expr: string; type: string }[];
}

/**
 * Bookkeeping tables a backup leaves out: the migrations applied (the backup names its schema), and
 * the queue of data versions to raise at commit, which is empty outside a committing transaction.
 */
const NOT_BACKED_UP = [MIGRATIONS_TABLE, 'data_version_pending'];

/** The application's tables (not the bookkeeping ones), parents before the tables that refer to them. */
export async function describeTables(db: Queryable): Promise<TableInfo[]> {
  const tables = await db.query<{ oid: number; name: string }>(
    `SELECT c.oid::int AS oid, c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> ALL($1::text[])
      ORDER BY c.relname`,
    [NOT_BACKED_UP],
  );
  const oids = tables.map((t) => t.oid);
  const columns = await db.query<{ oid: number; name: string }>(
    `SELECT attrelid::int AS oid, attname AS name FROM pg_attribute
      WHERE attrelid = ANY($1::oid[]) AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
      ORDER BY attrelid, attnum`,
    [oids],
  );
  const keys = await db.query<{ oid: number; name: string; type: string }>(
    `SELECT con.conrelid::int AS oid, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_constraint con
       CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k (attnum, position)
       JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
      WHERE con.contype = 'p' AND con.conrelid = ANY($1::oid[])
      ORDER BY con.conrelid, k.position`,
    [oids],
  );
  const references = await db.query<{ child: number; parent: number }>(
    `SELECT conrelid::int AS child, confrelid::int AS parent FROM pg_constraint
      WHERE contype = 'f' AND conrelid = ANY($1::oid[]) AND confrelid = ANY($1::oid[]) AND conrelid <> confrelid`,
    [oids],
  );

  const info = new Map<number, TableInfo>(
    tables.map((t) => [
      t.oid,
      {
        name: t.name,
        columns: columns.filter((c) => c.oid === t.oid).map((c) => c.name),
        keys: keys.filter((k) => k.oid === t.oid).map((k) => ({ expr: `t.${quoteName(k.name)}`, type: k.type })),
      },
    ]),
  );
  for (const table of info.values()) {
    // No primary key: the row's place, which stays put within one snapshot.
    if (table.keys.length === 0) table.keys = [{ expr: 't.ctid', type: 'tid' }];
  }

  // Parents first (Kahn's algorithm, ties by name so every backup of one schema has one order).
  const waitingOn = new Map<number, Set<number>>(oids.map((oid) => [oid, new Set<number>()]));
  for (const { child, parent } of references) waitingOn.get(child)?.add(parent);
  const ordered: TableInfo[] = [];
  while (waitingOn.size > 0) {
    const ready = [...waitingOn].filter(([, parents]) => parents.size === 0).map(([oid]) => oid);
    if (ready.length === 0) {
      const names = [...waitingOn.keys()].map((oid) => info.get(oid)?.name).join(', ');
      throw new Error(`The tables ${names} refer to each other in a cycle; they cannot be ordered for a backup`);
    }
    ready.sort((a, b) => ((info.get(a)?.name ?? '') < (info.get(b)?.name ?? '') ? -1 : 1));
    for (const oid of ready) {
      waitingOn.delete(oid);
      ordered.push(info.get(oid) as TableInfo);
      for (const parents of waitingOn.values()) parents.delete(oid);
    }
  }
  return ordered;
}

/** The application's table names, parents before the tables that refer to them. */
export async function tablesInDependencyOrder(db: Queryable): Promise<string[]> {
  return (await describeTables(db)).map((table) => table.name);
}

export async function sequenceNames(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'S' ORDER BY c.relname`,
  );
  return rows.map((row) => row.name);
}

export async function sequenceState(db: Queryable, name: string): Promise<{ last_value: string; is_called: boolean }> {
  const [row] = await db.query<{ last_value: string; is_called: boolean }>(
    `SELECT last_value::text AS last_value, is_called FROM ${quoteName(name)}`,
  );
  return row as { last_value: string; is_called: boolean };
}

/** How many rows `table` holds. */
export async function countRows(db: Queryable, table: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quoteName(table)}`);
  return row?.n ?? 0;
}
