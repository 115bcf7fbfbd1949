/**
 * The backup file format: one portable, logical format for both databases (ADR 015), written and read
 * by this code alone (no pg_dump: a managed PostgreSQL host may lack matching client programs, PGlite
 * has none).
 *
 * A backup is a gzip'd file of JSON lines:
 *   1. the header: {format, version, created_at, database, schema_version, migrations, tables:
 *      [{name, columns, rows}], sequences: [{name, last_value, is_called}], key_id};
 *   2. every row of every table, in the header's order (parents before the tables that refer to
 *      them), each the database's own `row_to_json` of the row: one JSON object per line;
 *   3. the trailer: {end, tables: {name: rows}, rows, sha256}, the checksum covering every byte
 *      before the trailer, so a file cut short or changed is found out before anything is written.
 *
 * No key is in a backup (ADR 017): tokens are signed and two-factor secrets sealed with the key file's
 * keys. `key_id` (version 2) names the sealing key the rows need, without revealing it, so a restore
 * onto an installation with another key file is refused before anything is written (see
 * modules/backups/restore-keys.ts). Version 1 files (no key_id; they carry settings.jwt_secret) are
 * still read, and converted as they are loaded.
 */
import { z } from 'zod';

export const BACKUP_FORMAT = 'tuitiondesk-backup';
export const BACKUP_VERSION = 2;
/** Version 1: before ADR 017, without key_id. */
export const READABLE_VERSIONS: readonly number[] = [1, 2];
/** The settings row that names the sealing key the database's rows are sealed with (lib/server-keys.ts keyIdOf). */
export const KEY_ID_SETTING = 'server_key_id';

/** The file itself is wrong: not a backup, cut short, corrupted. Nothing was written. */
export class BackupFileError extends Error {}
/** The file is fine but the database cannot take it (not empty, another schema). Nothing was written. */
export class RestoreRefusedError extends Error {}

export const headerSchema = z.object({
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

export const trailerSchema = z.object({
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

/** Receives the uncompressed text of a backup, piece by piece; resolves when it may be given more. */
export type BackupWriter = (text: string) => Promise<void>;
