/**
 * Backups: one portable, logical format for both databases (ADR 015), written and read by this code
 * alone (no pg_dump: a managed PostgreSQL host may lack matching client programs, PGlite has none).
 *
 * A backup is a gzip'd file of JSON lines:
 *   1. the header: {format, version, created_at, database, schema_version, migrations, tables:
 *      [{name, columns, rows}], sequences: [{name, last_value, is_called}], key_id};
 *   2. every row of every table, in the header's order (parents before the tables that refer to
 *      them), each the database's own `row_to_json` of the row: one JSON object per line;
 *   3. the trailer: {end, tables: {name: rows}, rows, sha256}, the checksum covering every byte
 *      before the trailer, so a file cut short or changed is found out before anything is written.
 *
 * Rows are read in batches by primary key (keyset pagination) inside one snapshot, so a large centre's
 * attendance is never held in memory at once; a restore loads everything in one transaction.
 *
 * No key is in a backup (ADR 017): tokens are signed and two-factor secrets sealed with the key file's
 * keys. `key_id` (version 2) names the sealing key the rows need, without revealing it, so a restore
 * onto an installation with another key file is refused before anything is written (see
 * modules/backups/restore-keys.ts). Version 1 files (no key_id; they carry settings.jwt_secret) are
 * still read, and converted as they are loaded.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { z } from 'zod';
import { formatTimestamp } from '../lib/time';
import type { Database, Queryable } from './database';
import {
  appliedMigrations,
  lockMigrations,
  MIGRATIONS_DIR,
  MIGRATIONS_TABLE,
  migrateInTransaction,
  migrationNames,
} from './migrate';

export const BACKUP_FORMAT = 'tuitiondesk-backup';
export const BACKUP_VERSION = 2;
/** Version 1: before ADR 017, without key_id. */
const READABLE_VERSIONS: readonly number[] = [1, 2];
/** The settings row that names the sealing key the database's rows are sealed with (lib/server-keys.ts keyIdOf). */
export const KEY_ID_SETTING = 'server_key_id';

/** Rows read per query when writing a backup. */
const DUMP_BATCH_ROWS = 5000;
/** Rows (or bytes of JSON, whichever comes first) sent per INSERT when restoring. */
const LOAD_BATCH_ROWS = 2000;
const LOAD_BATCH_BYTES = 4 * 1024 * 1024;
/** No line of a backup comes near this; a longer one means the file is something else. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** The file itself is wrong: not a backup, cut short, corrupted. Nothing was written. */
export class BackupFileError extends Error {}
/** The file is fine but the database cannot take it (not empty, another schema). Nothing was written. */
export class RestoreRefusedError extends Error {}

// ---------------------------------------------------------------------------------------------
// The format

const headerSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int(),
  created_at: z.string(),
  database: z.enum(['pglite', 'postgres']),
  schema_version: z.string(),
  migrations: z.array(z.string()),
  tables: z.array(
    z.object({ name: z.string().min(1), columns: z.array(z.string()).min(1), rows: z.number().int().min(0) }),
  ),
  sequences: z.array(
    z.object({ name: z.string().min(1), last_value: z.string().regex(/^-?\d+$/), is_called: z.boolean() }),
  ),
  /** Null in a version 2 file of a database no server of ADR 017 had started on; absent in version 1. */
  key_id: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .nullable()
    .optional(),
});
export type BackupHeader = z.infer<typeof headerSchema>;

const trailerSchema = z.object({
  end: z.literal(BACKUP_FORMAT),
  tables: z.record(z.string(), z.number().int().min(0)),
  rows: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BackupTrailer = z.infer<typeof trailerSchema>;

/** What a backup holds: when it was taken, its schema, and the rows of each table. */
export interface BackupSummary {
  created_at: string;
  schema_version: string;
  tables: Record<string, number>;
  rows: number;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

// ---------------------------------------------------------------------------------------------
// What is in the database

interface TableInfo {
  name: string;
  /** Columns a backup carries (generated columns are computed again on restore). */
  columns: string[];
  /** The columns rows are read in order of: the primary key, or the row's physical place. */
  keys: { expr: string; type: string }[];
}

/** The application's tables (not the migrations table), parents before the tables that refer to them. */
async function describeTables(db: Queryable): Promise<TableInfo[]> {
  const tables = await db.query<{ oid: number; name: string }>(
    `SELECT c.oid::int AS oid, c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> $1
      ORDER BY c.relname`,
    [MIGRATIONS_TABLE],
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
        keys: keys.filter((k) => k.oid === t.oid).map((k) => ({ expr: `t.${quote(k.name)}`, type: k.type })),
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

async function sequenceNames(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'S' ORDER BY c.relname`,
  );
  return rows.map((row) => row.name);
}

async function sequenceState(db: Queryable, name: string): Promise<{ last_value: string; is_called: boolean }> {
  const [row] = await db.query<{ last_value: string; is_called: boolean }>(
    `SELECT last_value::text AS last_value, is_called FROM ${quote(name)}`,
  );
  return row as { last_value: string; is_called: boolean };
}

// ---------------------------------------------------------------------------------------------
// Writing a backup

/** Receives the uncompressed text of a backup, piece by piece; resolves when it may be given more. */
export type BackupWriter = (text: string) => Promise<void>;

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
  for (const table of tables) {
    const [row] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quote(table.name)}`);
    counts[table.name] = row?.n ?? 0;
  }
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
  const select = `SELECT row_to_json(t)::text AS j, ${table.keys.map((k, i) => `${k.expr} AS k${i}`).join(', ')} FROM ${quote(table.name)} t`;
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

// ---------------------------------------------------------------------------------------------
// Backup files

/** Why a backup was taken; it names the file. */
export type BackupKind = 'manual' | 'console' | 'before-clear-students' | 'before-clear-teachers';

export const BACKUP_FILE_PATTERN = /^tuitiondesk-[a-z]+(-[a-z]+)*-\d{8}-\d{6}(-\d+)?\.jsonl\.gz$/;

export interface BackupFile {
  /** The file's name, in `path`'s directory. */
  file: string;
  path: string;
  size_bytes: number;
  created_at: string;
  schema_version: string;
  tables: Record<string, number>;
  rows: number;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** `tuitiondesk-<kind>-YYYYMMDD-HHMMSS.jsonl.gz`, in the server's time zone (the centre's). */
export function backupFileName(kind: BackupKind, at: Date, attempt = 1): string {
  const stamp =
    `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}-` +
    `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `tuitiondesk-${kind}-${stamp}${attempt > 1 ? `-${attempt}` : ''}.jsonl.gz`;
}

/**
 * Writes a backup into `dir` (created, owner-only, if missing) as a new file that only its owner may
 * read: it holds children's names and parents' phone numbers. An existing file is never overwritten
 * (a second backup in the same second gets `-2`). The file appears under its name only once complete
 * and flushed to disk; until then it is an empty placeholder, which listings skip. On failure
 * nothing is left behind.
 */
export async function writeBackupFile(
  dir: string,
  kind: BackupKind,
  dump: (write: BackupWriter) => Promise<BackupSummary>,
): Promise<BackupFile> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const now = new Date();
  let file = '';
  for (let attempt = 1; !file; attempt += 1) {
    const name = backupFileName(kind, now, attempt);
    try {
      await (await open(path.join(dir, name), 'wx', 0o600)).close();
      file = name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 1000) throw error;
    }
  }
  const finalPath = path.join(dir, file);
  const partialPath = path.join(dir, `.${file}.partial`);
  const gzip = createGzip({ level: 6 });
  // `flush`: the data is on the disk before the file is closed, and so before it takes its name.
  const output = createWriteStream(partialPath, { flags: 'wx', mode: 0o600, flush: true });
  const written = pipeline(gzip, output);
  written.catch(() => {}); // awaited below; a failure also fails the writes
  try {
    const summary = await dump(async (text) => {
      if (!gzip.write(text)) await Promise.race([once(gzip, 'drain'), written]);
    });
    gzip.end();
    await written;
    await rename(partialPath, finalPath);
    await syncDirectory(dir);
    const { size } = await stat(finalPath);
    return { file, path: finalPath, size_bytes: size, ...summary };
  } catch (error) {
    gzip.destroy();
    output.destroy();
    await written.catch(() => {});
    await unlink(partialPath).catch(() => {});
    await unlink(finalPath).catch(() => {});
    throw error;
  }
}

/** So that the rename survives a power cut (where the file system allows it). */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // not supported here
  }
}

export interface ListedBackup {
  file: string;
  path: string;
  size_bytes: number;
  created_at: string;
}

/** The complete backup files in `dir`, newest first (none when the directory does not exist). */
export async function listBackupFiles(dir: string): Promise<ListedBackup[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: (ListedBackup & { mtime: number })[] = [];
  for (const name of names.filter((n) => BACKUP_FILE_PATTERN.test(n))) {
    const full = path.join(dir, name);
    const info = await stat(full).catch(() => undefined);
    if (!info?.isFile() || info.size === 0) continue; // gone, or still being written
    files.push({
      file: name,
      path: full,
      size_bytes: info.size,
      created_at: formatTimestamp(info.mtime),
      mtime: info.mtimeMs,
    });
  }
  files.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? 1 : -1));
  return files.map(({ mtime: _mtime, ...rest }) => rest);
}

// ---------------------------------------------------------------------------------------------
// Reading a backup

/** Opens the backup file anew (a restore reads it twice: once to check it, once to load it). */
export type BackupSource = () => Readable;

interface Line {
  /** 1-based, in the uncompressed file. */
  number: number;
  bytes: Buffer;
}

/** The file's lines in batches (whatever one chunk held), with the gzip errors put in words. */
async function* lineBatches(source: BackupSource, label: string): AsyncGenerator<Line[]> {
  const input = source();
  const gunzip = createGunzip();
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let number = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      const lines: Line[] = [];
      let start = 0;
      for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
        let bytes = chunk.subarray(start, end);
        if (pending.length > 0) {
          bytes = Buffer.concat([...pending, bytes]);
          pending = [];
          pendingBytes = 0;
        }
        number += 1;
        lines.push({ number, bytes });
        start = end + 1;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > MAX_LINE_BYTES) {
          throw new BackupFileError(
            `The file ${label} is not a TuitionDesk backup: line ${number + 1} is longer than 64 MB`,
          );
        }
      }
      if (lines.length > 0) yield lines;
    }
    if (pending.length > 0) yield [{ number: number + 1, bytes: Buffer.concat(pending) }];
  } catch (error) {
    throw gzipError(error, label);
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

function gzipError(error: unknown, label: string): Error {
  if (error instanceof BackupFileError) return error;
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return new BackupFileError(`The file ${label} does not exist`);
  if (e.code === 'EISDIR') return new BackupFileError(`The file ${label} is a directory, not a backup file`);
  if (e.code === 'EACCES') return new BackupFileError(`The file ${label} cannot be read (permission denied)`);
  if (e.code === 'Z_DATA_ERROR' && /incorrect header check|unknown compression method/.test(e.message)) {
    return new BackupFileError(
      `The file ${label} is not a TuitionDesk backup: it is not a gzip file (a backup is a .jsonl.gz file)`,
    );
  }
  if (e.code === 'Z_BUF_ERROR' || /unexpected end of file/.test(e.message ?? '')) {
    return new BackupFileError(
      `The file ${label} is truncated: its compressed data ends early (the copy is incomplete)`,
    );
  }
  if (typeof e.code === 'string' && e.code.startsWith('Z_')) {
    return new BackupFileError(`The file ${label} is corrupted: its compressed data is damaged (${e.message})`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

function parseLine<T>(line: Line, schema: z.ZodType<T>): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line.bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function readHeader(line: Line | undefined, label: string): BackupHeader {
  if (!line) throw new BackupFileError(`The file ${label} is empty: it is not a TuitionDesk backup`);
  const text = line.bytes.subarray(0, 4096).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(line.bytes.toString('utf8'));
  } catch {
    throw new BackupFileError(`The file ${label} is not a TuitionDesk backup: its first line is not a backup header`);
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (format !== BACKUP_FORMAT) {
    throw new BackupFileError(
      `The file ${label} is not a TuitionDesk backup: its header names no format "${BACKUP_FORMAT}" (it starts ${JSON.stringify(text.slice(0, 60))})`,
    );
  }
  const version = (value as { version?: unknown }).version;
  if (typeof version !== 'number' || !READABLE_VERSIONS.includes(version)) {
    throw new BackupFileError(
      `The file ${label} is in backup format version ${JSON.stringify(version)}; this TuitionDesk reads versions ${READABLE_VERSIONS.join(' and ')}. Restore it with the TuitionDesk that wrote it, or a newer one`,
    );
  }
  const parsed = headerSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupFileError(
      `The file ${label} has a damaged header (${issue?.path.join('.') || 'header'}: ${issue?.message ?? 'invalid'})`,
    );
  }
  return parsed.data;
}

interface RowPlan {
  table: BackupHeader['tables'][number];
  /** The first line of this table's rows. */
  firstLine: number;
}

/** Which line each table's rows start on. */
function planRows(header: BackupHeader): { plans: RowPlan[]; trailerLine: number } {
  const plans: RowPlan[] = [];
  let line = 2;
  for (const table of header.tables) {
    plans.push({ table, firstLine: line });
    line += table.rows;
  }
  return { plans, trailerLine: line };
}

/** The table whose rows include `line`, and which of them it is. */
function placeOf(plans: RowPlan[], line: number): string {
  const plan = plans.findLast((p) => p.firstLine <= line);
  return plan ? `row ${line - plan.firstLine + 1} of ${plan.table.rows} of table ${plan.table.name}` : 'the header';
}

/**
 * Reads the whole file and checks it: a backup header this code reads, every row it announces, the
 * trailer, the counts and the checksum, and nothing after. Writes nothing; throws BackupFileError
 * naming what is wrong. With `onRows`, hands over each table's rows in order as it goes.
 */
export async function checkBackupFile(
  source: BackupSource,
  label: string,
  onRows?: (table: BackupHeader['tables'][number], rows: Line[]) => Promise<void>,
): Promise<{ header: BackupHeader; trailer: BackupTrailer }> {
  let header: BackupHeader | undefined;
  let trailer: BackupTrailer | undefined;
  let plans: RowPlan[] = [];
  let trailerLine = 0;
  const hash = createHash('sha256');
  const newline = Buffer.from('\n');
  let planIndex = 0;
  let lastLine = 0;
  let lastBytes: Buffer | undefined;
  for await (const batch of lineBatches(source, label)) {
    let rowsOfTable: Line[] = [];
    const flush = async () => {
      if (onRows && rowsOfTable.length > 0) await onRows((plans[planIndex] as RowPlan).table, rowsOfTable);
      rowsOfTable = [];
    };
    for (const line of batch) {
      lastLine = line.number;
      lastBytes = line.bytes;
      if (!header) {
        header = readHeader(line, label);
        ({ plans, trailerLine } = planRows(header));
        hash.update(line.bytes).update(newline);
        continue;
      }
      if (line.number < trailerLine) {
        while ((plans[planIndex + 1]?.firstLine ?? Number.POSITIVE_INFINITY) <= line.number) {
          await flush();
          planIndex += 1;
        }
        const { bytes } = line;
        if (bytes[0] !== 0x7b || bytes[bytes.length - 1] !== 0x7d) {
          throw new BackupFileError(
            `The file ${label} is corrupted: line ${line.number} (${placeOf(plans, line.number)}) is not a row`,
          );
        }
        hash.update(bytes).update(newline);
        rowsOfTable.push(line);
        continue;
      }
      if (line.number === trailerLine) {
        trailer = parseLine(line, trailerSchema);
        if (!trailer) {
          throw new BackupFileError(
            `The file ${label} is corrupted: line ${line.number} should be the trailer, after the last row, and is not` +
              ' (the file holds more rows than its header says, or the trailer is damaged)',
          );
        }
        continue;
      }
      if (line.bytes.length > 0) {
        throw new BackupFileError(
          `The file ${label} is corrupted: it has more lines after its trailer (line ${line.number})`,
        );
      }
    }
    await flush();
  }
  if (!header) throw new BackupFileError(`The file ${label} is empty: it is not a TuitionDesk backup`);
  if (!trailer) {
    if (lastLine > 1 && lastBytes && parseLine({ number: lastLine, bytes: lastBytes }, trailerSchema)) {
      throw new BackupFileError(
        `The file ${label} is corrupted: it holds fewer rows than its header says (its trailer is on line ${lastLine}, not ${trailerLine})`,
      );
    }
    const where = lastLine < trailerLine - 1 ? placeOf(plans, lastLine + 1) : 'the trailer';
    throw new BackupFileError(
      `The file ${label} is truncated: it ends at line ${lastLine}, before ${where} (the copy is incomplete)`,
    );
  }
  for (const table of header.tables) {
    if (trailer.tables[table.name] !== table.rows) {
      throw new BackupFileError(
        `The file ${label} is corrupted: its header and trailer disagree on the rows of table ${table.name}`,
      );
    }
  }
  if (Object.keys(trailer.tables).length !== header.tables.length) {
    throw new BackupFileError(`The file ${label} is corrupted: its header and trailer disagree on the tables`);
  }
  if (hash.digest('hex') !== trailer.sha256) {
    throw new BackupFileError(`The file ${label} is corrupted: its checksum does not match its contents`);
  }
  return { header, trailer };
}

// ---------------------------------------------------------------------------------------------
// Restoring

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
    await tx.exec(`LOCK TABLE ${header.tables.map((t) => quote(t.name)).join(', ')} IN EXCLUSIVE MODE`);
    await assertEmpty(tx, header);
    // The rows the migrations write themselves (default settings): the backup's take their place.
    for (const table of header.tables) await tx.query(`DELETE FROM ${quote(table.name)}`);

    let pending: Line[] = [];
    let pendingBytes = 0;
    let pendingTable: BackupHeader['tables'][number] | undefined;
    const insert = async () => {
      if (!pendingTable || pending.length === 0) return;
      const table = pendingTable;
      const columns = table.columns.map(quote).join(', ');
      const json = `[${pending.map((line) => line.bytes.toString('utf8')).join(',')}]`;
      const first = pending[0]?.number;
      const last = pending.at(-1)?.number;
      pending = [];
      pendingBytes = 0;
      try {
        await tx.query(
          `INSERT INTO ${quote(table.name)} (${columns}) OVERRIDING SYSTEM VALUE
           SELECT ${columns} FROM json_populate_recordset(NULL::${quote(table.name)}, $1::json)`,
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
      const [row] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quote(table.name)}`);
      if (row?.n !== table.rows) {
        throw new RestoreRefusedError(
          `Table ${table.name} holds ${row?.n} rows after loading, and the backup has ${table.rows}. Nothing was changed.`,
        );
      }
    }
    await restoreSequences(tx, header);
    await options.keys?.apply(tx, header, label);
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

/**
 * Empty: no row in any table, except the settings the migrations write themselves. A database the
 * server has started on is not empty (it created the admin account).
 */
async function assertEmpty(tx: Queryable, header: BackupHeader): Promise<void> {
  const held: string[] = [];
  for (const table of header.tables) {
    if (table.name === 'settings') continue;
    const [row] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quote(table.name)}`);
    if (row && row.n > 0) held.push(`${table.name}: ${row.n}`);
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
      quote(sequence.name),
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
         FROM (SELECT max(${quote(column)})::bigint AS value FROM ${quote(table)}) m,
              (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END AS used FROM ${quote(sequence)}) s
        WHERE m.value IS NOT NULL AND m.value > s.used`,
      [quote(sequence)],
    );
  }
}
