/**
 * Writing a backup: everything one snapshot of the database sees, as the text of a backup file
 * (format.ts). Rows are read in batches by primary key (keyset pagination) inside that snapshot, so a
 * large centre's attendance is never held in memory at once.
 */
import { createHash } from 'node:crypto';
import { formatTimestamp } from '../../lib/time';
import type { Database, Queryable } from '../database';
import { appliedMigrations } from '../migrate';
import { countRows, describeTables, quoteName, sequenceNames, sequenceState, type TableInfo } from './catalogue';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupHeader,
  type BackupSummary,
  type BackupTrailer,
  type BackupWriter,
  KEY_ID_SETTING,
} from './format';

/** Rows read per query when writing a backup. */
const DUMP_BATCH_ROWS = 5000;

/**
 * Writes everything `tx` sees. `tx` must be a transaction whose snapshot holds for all its statements
 * (REPEATABLE READ on PostgreSQL: see `backupDatabase`; PGlite has one connection, so any of its
 * transactions is one). The clear-all calls run it inside their own transaction, before deleting.
 */
export async function dumpInTransaction(
  tx: Queryable,
  database: Database['kind'],
  write: BackupWriter,
): Promise<BackupSummary> {
  const migrations = await appliedMigrations(tx);
  const schemaVersion = migrations.at(-1);
  if (!schemaVersion) throw new Error('The database has no TuitionDesk schema (no migrations were applied)');
  const tables = await describeTables(tx);
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table.name] = await countRows(tx, table.name);
  // Read after the snapshot began: every id a row in it holds was drawn before, so these are at
  // least as far on. A code drawn and never used (a deleted student's) is not handed out again.
  const sequences = [];
  for (const name of await sequenceNames(tx)) sequences.push({ name, ...(await sequenceState(tx, name)) });
  const [keyId] = await tx.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [KEY_ID_SETTING]);

  const createdAt = formatTimestamp(new Date());
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    created_at: createdAt,
    database,
    schema_version: schemaVersion,
    migrations,
    tables: tables.map((t) => ({ name: t.name, columns: t.columns, rows: counts[t.name] ?? 0 })),
    sequences,
    key_id: keyId?.value ?? null,
  };
  const hash = createHash('sha256');
  const emit = async (text: string) => {
    hash.update(text);
    await write(text);
  };
  await emit(`${JSON.stringify(header)}\n`);

  let total = 0;
  for (const table of tables) {
    const written = await dumpTable(tx, table, emit);
    if (written !== counts[table.name]) {
      throw new Error(
        `Table ${table.name} changed while it was being backed up (${counts[table.name]} rows counted, ${written} read)`,
      );
    }
    total += written;
  }
  const trailer: BackupTrailer = { end: BACKUP_FORMAT, tables: counts, rows: total, sha256: hash.digest('hex') };
  await write(`${JSON.stringify(trailer)}\n`);
  return { created_at: createdAt, schema_version: schemaVersion, tables: counts, rows: total };
}

/** One table's rows, DUMP_BATCH_ROWS at a time in key order; answers how many. */
async function dumpTable(tx: Queryable, table: TableInfo, emit: BackupWriter): Promise<number> {
  const keyNames = table.keys.map((_, index) => `k${index}`);
  const select = `SELECT row_to_json(t)::text AS j, ${table.keys.map((k, i) => `${k.expr} AS k${i}`).join(', ')} FROM ${quoteName(table.name)} t`;
  const after = `(${table.keys.map((k) => k.expr).join(', ')}) > (${table.keys.map((k, i) => `$${i + 1}::${k.type}`).join(', ')})`;
  const order = table.keys.map((k) => k.expr).join(', ');
  const batchSql = (first: boolean) =>
    `WITH batch AS (${select}${first ? '' : ` WHERE ${after}`} ORDER BY ${order} LIMIT ${DUMP_BATCH_ROWS})
     SELECT string_agg(j, E'\\n' ORDER BY ${keyNames.join(', ')}) AS rows, count(*)::int AS n,
            (SELECT ARRAY[${keyNames.map((k) => `${k}::text`).join(', ')}] FROM batch
              ORDER BY ${keyNames.map((k) => `${k} DESC`).join(', ')} LIMIT 1) AS last
       FROM batch`;
  let last: string[] | undefined;
  let written = 0;
  for (;;) {
    const [batch] = await tx.query<{ rows: string | null; n: number; last: string[] | null }>(
      batchSql(last === undefined),
      last,
    );
    if (!batch || batch.n === 0 || batch.rows === null || batch.last === null) return written;
    await emit(`${batch.rows}\n`);
    written += batch.n;
    if (batch.n < DUMP_BATCH_ROWS) return written;
    last = batch.last;
  }
}

/** A consistent backup of `db`, in a snapshot transaction of its own that writes nothing. */
export function backupDatabase(db: Database, write: BackupWriter): Promise<BackupSummary> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    return dumpInTransaction(tx, db.kind, write);
  });
}
