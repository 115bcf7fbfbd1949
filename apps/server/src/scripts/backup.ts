/**
 * `npm run backup [-- <directory>]`: writes a consistent backup of the database the server is
 * configured with (the embedded database in DATA_DIR, or PostgreSQL at DATABASE_URL) into BACKUP_DIR
 * (or the directory given), as tuitiondesk-manual-YYYYMMDD-HHMMSS.jsonl.gz. See ADR 015.
 *
 * The embedded database can be read by one process only: while the server runs on DATA_DIR this
 * script cannot open it, and says so; the running server takes the same backup on POST /api/v1/backups.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config';
import { backupDatabase, writeBackupFile } from '../db/backup';
import { withConfiguredDatabase } from '../db/open';
import { describeSize, describeTables, fromInvocationDir } from './backup-cli';
import { runScript } from './run-script';

class BackupRefusedError extends Error {}

async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const [target, ...extra] = process.argv.slice(2);
  if (extra.length > 0 || target?.startsWith('-')) {
    throw new BackupRefusedError('Usage: npm run backup [-- <directory>]   (default: BACKUP_DIR)');
  }
  const dir = target ? fromInvocationDir(target) : config.backupDir;
  if (config.database.kind === 'pglite') {
    const pgdata = path.join(config.database.dataDir as string, 'pgdata');
    if (!existsSync(pgdata)) {
      throw new BackupRefusedError(
        `There is no database in DATA_DIR ${config.database.dataDir}: nothing to back up. ` +
          'Run the backup with the DATA_DIR (or DATABASE_URL) the server uses.',
      );
    }
  }

  await withConfiguredDatabase(config.database, async (db) => {
    const backup = await writeBackupFile(dir, 'manual', (write) => backupDatabase(db, write));
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      [
        `Backup written in ${seconds.toFixed(1)} s: ${backup.path}`,
        `  ${describeSize(backup.size_bytes)}, schema ${backup.schema_version}, ${describeTables(backup.tables)}`,
        'Keep a copy off this machine. To bring it back into an empty database:',
        `  npm run restore ${backup.path}`,
        `It holds no keys: a restore elsewhere also needs the key file ${config.keyFile} (KEY_FILE).`,
        'Keep a copy of that file too, but apart from the backups: whoever has both can sign in as anyone.',
        '',
      ].join('\n'),
    );
  });
}

runScript(main, {
  locked:
    'npm run backup cannot read the embedded database while the server runs on it. Either stop the server ' +
    "and run npm run backup again, or use the console's backup: while the server runs, an admin can take one " +
    'with POST /api/v1/backups, which writes it into BACKUP_DIR on the server.',
  known: (error) => (error instanceof BackupRefusedError ? error.message : undefined),
  failed: 'The backup failed, no backup file was written',
});
