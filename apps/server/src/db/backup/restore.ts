/**
 * Restoring a backup into an empty database: the file checked whole first, then in one transaction
 * the schema brought to the backup's, every row loaded, the counts checked and the sequences set.
 */

import { recordAudit, skipRowAudit } from '../../lib/audit-log';
import type { Database, Queryable } from '../database';
import { appliedMigrations, lockMigrations, MIGRATIONS_DIR, migrateInTransaction, migrationNames } from '../migrate';
import { countRows, describeTables, quoteName, sequenceNames } from './catalogue';
import type { BackupSource, Line } from './files';
import {
  BackupFileError,
  type BackupHeader,
  type BackupSummary,
  type BackupTrailer,
  RestoreRefusedError,
} from './format';
import { checkBackupFile } from './read';

/** Rows (or bytes of JSON, whichever comes first) sent per INSERT when restoring. */
const LOAD_BATCH_ROWS = 2000;
const LOAD_BATCH_BYTES = 4 * 1024 * 1024;

export interface RestoreSummary extends BackupSummary {
  /** Migrations the restore applied to the empty database first, to reach the backup's schema. */
  migrated: string[];
}

export interface RestoreOptions {
  /** How the file is named in messages (its path). */
  label?: string;
  migrationsDir?: string;
  /** `checkBackupFile`'s answer when the caller has checked the file already (before opening the database). */
  checked?: { header: BackupHeader; trailer: BackupTrailer };
  /** The keys of the installation restored onto (modules/backups/restore-keys.ts). */
  keys?: RestoreKeyPolicy;
}

/**
 * What a restore does about keys, which the backup does not hold: `check` may refuse the file from its
 * header before anything is written; `apply` runs in the restore's transaction once every row is in.
 */
export interface RestoreKeyPolicy {
  check(header: BackupHeader, label: string): void;
  apply(tx: Queryable, header: BackupHeader, label: string): Promise<void>;
}

/**
 * The migrations that lead to the backup's schema; throws RestoreRefusedError when the backup comes
 * from a newer TuitionDesk, whose schema this code does not know.
 */
export async function migrationsOfBackup(
  header: BackupHeader,
  label: string,
  migrationsDir: string = MIGRATIONS_DIR,
): Promise<string[]> {
  const known = await migrationNames(migrationsDir);
  const unknown = header.migrations.filter((name) => !known.includes(name));
  if (unknown.length > 0 || !known.includes(header.schema_version)) {
    throw new RestoreRefusedError(
      `The file ${label} was made by a newer TuitionDesk: its schema is ${header.schema_version}, and this one knows schemas up to ${known.at(-1)}. ` +
        'Upgrade TuitionDesk first, then restore it. Nothing was changed.',
    );
  }
  const wanted = known.slice(0, known.indexOf(header.schema_version) + 1);
  if (header.migrations.join('\n') !== wanted.join('\n')) {
    throw new BackupFileError(
      `The file ${label} is corrupted: its list of migrations does not match its schema version`,
    );
  }
  return wanted;
}

/**
 * Loads a backup into an EMPTY database: checks the whole file first, then in ONE transaction brings
 * the database to the backup's schema, loads every row, checks the counts and sets the sequences.
 * All of it commits or none of it does. Throws BackupFileError (the file) or RestoreRefusedError
 * (the database) with what is wrong; either way nothing was written.
 */
export async function restoreBackup(
  db: Database,
  source: BackupSource,
  options: RestoreOptions = {},
): Promise<RestoreSummary> {
  const label = options.label ?? 'given';
  const migrationsDir = options.migrationsDir ?? MIGRATIONS_DIR;
  const { header, trailer } = options.checked ?? (await checkBackupFile(source, label));
  const wanted = await migrationsOfBackup(header, label, migrationsDir);
  options.keys?.check(header, label);

  return db.transaction(async (tx) => {
    await lockMigrations(tx);
    // The restore is one audit row (below), not one per loaded record: the log it loads is the backup's.
    await skipRowAudit(tx);
    const already = await appliedMigrations(tx);
    if (already.some((name, index) => wanted[index] !== name)) {
      throw new RestoreRefusedError(
        `The database is at schema ${already.at(-1)}, and the file ${label} holds schema ${header.schema_version}: ` +
          'a restore only goes into a database at the same schema or an empty, new one. Restore into a new, empty database. Nothing was changed.',
      );
    }
    const migrated = await migrateInTransaction(tx, wanted, migrationsDir);
    await checkTables(tx, header, label);
    // Nothing may slip in between the check and the load (a server starting on PostgreSQL).
    await tx.exec(`LOCK TABLE ${header.tables.map((t) => quoteName(t.name)).join(', ')} IN EXCLUSIVE MODE`);
    await assertEmpty(tx, header);
    // The rows the migrations write themselves (default settings and templates): the backup's take their place.
    for (const table of header.tables) await tx.query(`DELETE FROM ${quoteName(table.name)}`);

    let pending: Line[] = [];
    let pendingBytes = 0;
    let pendingTable: BackupHeader['tables'][number] | undefined;
    const insert = async () => {
      if (!pendingTable || pending.length === 0) return;
      const table = pendingTable;
      const columns = table.columns.map(quoteName).join(', ');
      const json = `[${pending.map((line) => line.bytes.toString('utf8')).join(',')}]`;
      const first = pending[0]?.number;
      const last = pending.at(-1)?.number;
      pending = [];
      pendingBytes = 0;
      try {
        await tx.query(
          `INSERT INTO ${quoteName(table.name)} (${columns}) OVERRIDING SYSTEM VALUE
           SELECT ${columns} FROM json_populate_recordset(NULL::${quoteName(table.name)}, $1::json)`,
          [json],
        );
      } catch (error) {
        throw new RestoreRefusedError(
          `The rows of table ${table.name} on lines ${first}-${last} of the file ${label} could not be loaded: ` +
            `${error instanceof Error ? error.message : String(error)}. Nothing was changed.`,
        );
      }
    };
    // Read again, checked again (the file might have changed since), and loaded in batches.
    const again = await checkBackupFile(source, label, async (table, rows) => {
      if (Object.hasOwn(DERIVED_TABLES, table.name)) return;
      if (pendingTable !== table) {
        await insert();
        pendingTable = table;
      }
      for (const row of rows) {
        pending.push(row);
        pendingBytes += row.bytes.length + 1;
        if (pending.length >= LOAD_BATCH_ROWS || pendingBytes >= LOAD_BATCH_BYTES) await insert();
      }
    });
    await insert();
    if (again.trailer.sha256 !== trailer.sha256) {
      throw new BackupFileError(`The file ${label} changed while it was being restored. Nothing was changed.`);
    }

    for (const table of header.tables) {
      if (Object.hasOwn(DERIVED_TABLES, table.name)) continue;
      const loaded = await countRows(tx, table.name);
      if (loaded !== table.rows) {
        throw new RestoreRefusedError(
          `Table ${table.name} holds ${loaded} rows after loading, and the backup has ${table.rows}. Nothing was changed.`,
        );
      }
    }
    await restoreSequences(tx, header);
    // Counts kept by triggers are made again from the restored rows (the triggers counted them as
    // they were loaded; counted once more here, from scratch, whatever the file held).
    for (const [table, recount] of Object.entries(DERIVED_TABLES)) {
      if (!header.tables.some((entry) => entry.name === table)) continue;
      await tx.query(`DELETE FROM ${quoteName(table)}`);
      await tx.query(recount);
    }
    // Every version raised past any the backup or the restore's own loading left (ADR 024): a tag a
    // console holds from before never names the restored data.
    if (header.tables.some((table) => table.name === 'data_versions')) {
      await tx.query(
        'UPDATE data_versions SET version = GREATEST(version + 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)',
      );
    }
    await options.keys?.apply(tx, header, label);
    if (header.tables.some((table) => table.name === 'audit_log')) {
      await recordAudit(tx, {
        entity: 'backup',
        action: 'backup_restored',
        record_id: label,
        after: {
          file: label,
          created_at: header.created_at,
          rows: trailer.rows,
          schema_version: header.schema_version,
        },
      });
    }
    return {
      created_at: header.created_at,
      schema_version: header.schema_version,
      tables: trailer.tables,
      rows: trailer.rows,
      migrated,
    };
  });
}

/** The database's tables and columns (at the backup's schema now) must be the backup's. */
async function checkTables(tx: Queryable, header: BackupHeader, label: string): Promise<void> {
  const tables = await describeTables(tx);
  const mismatch = (what: string) =>
    new RestoreRefusedError(
      `The database's tables differ from those in the file ${label} at the same schema (${what}); ` +
        'was the database changed by hand? Restore into a new, empty database. Nothing was changed.',
    );
  const byName = new Map(tables.map((t) => [t.name, t]));
  for (const table of header.tables) {
    const target = byName.get(table.name);
    if (!target) throw mismatch(`no table ${table.name}`);
    const missing = table.columns.filter((c) => !target.columns.includes(c));
    const extra = target.columns.filter((c) => !table.columns.includes(c));
    if (missing.length > 0 || extra.length > 0) throw mismatch(`columns of ${table.name}`);
    byName.delete(table.name);
  }
  if (byName.size > 0) throw mismatch(`tables not in the backup: ${[...byName.keys()].join(', ')}`);
  const sequences = new Set(await sequenceNames(tx));
  for (const sequence of header.sequences) {
    if (!sequences.has(sequence.name)) throw mismatch(`no sequence ${sequence.name}`);
  }
}

/** Tables made from others (by triggers): their rows in a backup are not loaded but made again. */
const DERIVED_TABLES: Record<string, string> = {
  attendance_counts: `INSERT INTO attendance_counts (date, class_name, status, approved, records)
    SELECT date, class_name, status, approved_at IS NOT NULL, count(*)::int FROM attendance GROUP BY 1, 2, 3, 4`,
  message_counts: `INSERT INTO message_counts (quarter, messages)
    SELECT message_quarter(sent_at), count(*)::int FROM messages GROUP BY 1`,
};

/** Tables the migrations themselves put rows in: default settings, the default alert templates, data versions, the default classes and subjects, the GST and fee reminder settings. */
const SEEDED_BY_MIGRATIONS = new Set([
  'settings',
  'message_templates',
  'message_template_texts',
  'data_versions',
  // The spec's classes 7–10 and its ten subjects (migration 0028, ADR 043).
  'classes',
  'subjects',
  // The centre's GST registration, not registered until an admin says so (migration 0036, ADR 057).
  'fee_gst_settings',
  // The fee reminder schedule, on with the default days until an admin changes it (migration 0038, ADR 061).
  'fee_reminder_settings',
]);

/**
 * Empty: no row in any table, except the rows the migrations write themselves. A database the server
 * has started on is not empty (it created the admin account).
 */
async function assertEmpty(tx: Queryable, header: BackupHeader): Promise<void> {
  const held: string[] = [];
  for (const table of header.tables) {
    if (SEEDED_BY_MIGRATIONS.has(table.name)) continue;
    const rows = await countRows(tx, table.name);
    if (rows > 0) held.push(`${table.name}: ${rows}`);
  }
  if (held.length === 0) return;
  throw new RestoreRefusedError(
    `The database is not empty (it holds ${held.join(', ')}). A restore only fills an empty database, so nothing was changed. ` +
      'Restore into a new one: with the embedded database, set DATA_DIR to a new directory; with PostgreSQL, ' +
      'create a new database (CREATE DATABASE ...) and point DATABASE_URL at it. Do not start the server on it before restoring.',
  );
}

/**
 * Each sequence as the backup had it, then never behind the largest id of the column it numbers
 * (so the next student gets a new id, and a code drawn before the backup is not drawn again).
 */
async function restoreSequences(tx: Queryable, header: BackupHeader): Promise<void> {
  for (const sequence of header.sequences) {
    await tx.query('SELECT setval($1::regclass, $2::bigint, $3::boolean)', [
      quoteName(sequence.name),
      sequence.last_value,
      sequence.is_called,
    ]);
  }
  const owned = await tx.query<{ sequence: string; table: string; column: string }>(
    `SELECT s.relname AS sequence, t.relname AS table, a.attname AS column
       FROM pg_depend d
       JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
       JOIN pg_class t ON t.oid = d.refobjid
       JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
      WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')`,
  );
  for (const { sequence, table, column } of owned) {
    await tx.query(
      `SELECT setval($1::regclass, m.value)
         FROM (SELECT max(${quoteName(column)})::bigint AS value FROM ${quoteName(table)}) m,
              (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END AS used FROM ${quoteName(sequence)}) s
        WHERE m.value IS NOT NULL AND m.value > s.used`,
      [quoteName(sequence)],
    );
  }
}
