import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { type BackupSource, backupDatabase, writeBackupFile } from '../../src/db/backup';
import type { Database } from '../../src/db/database';

/** A backup file to restore from, read as `npm run restore` reads it. */
export const fileSource =
  (file: string): BackupSource =>
  () =>
    createReadStream(file);

/** Bytes to restore from, such as a damaged copy of a backup. */
export const bytesSource =
  (bytes: Buffer): BackupSource =>
  () =>
    Readable.from([bytes]);

/** Backs up `db` into a new file in `dir`, as npm run backup and POST /backups do, and answers its path. */
export async function backupToFile(dir: string, db: Database): Promise<string> {
  const file = await writeBackupFile(dir, 'manual', (write) => backupDatabase(db, write));
  return file.path;
}

/** The uncompressed lines of a backup file. */
export function linesOf(file: string): string[] {
  return gunzipSync(readFileSync(file)).toString('utf8').replace(/\n$/, '').split('\n');
}
