/**
 * `npm run restore <file>`: loads a backup (npm run backup, POST /api/v1/backups, or the one a
 * clear-all takes first) into an EMPTY database, on the same configuration as the server: a new
 * DATA_DIR for the embedded database, or a newly created PostgreSQL database at DATABASE_URL. The
 * whole file is checked before the database is opened; the load is one transaction. See ADR 015.
 */
import { createReadStream, statSync } from 'node:fs';
import { loadConfig } from '../config';
import { BackupFileError, checkBackupFile, migrationsOfBackup, RestoreRefusedError, restoreBackup } from '../db/backup';
import { withConfiguredDatabase } from '../db/open';
import { describeTables, fromInvocationDir } from './backup-cli';
import { runScript } from './run-script';

class UsageError extends Error {}

async function main(): Promise<void> {
  const started = performance.now();
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]?.startsWith('-')) {
    throw new UsageError(
      'Usage: npm run restore <backup file>\n' +
        'It fills an EMPTY database (a new DATA_DIR, or a new PostgreSQL database at DATABASE_URL) from the file.',
    );
  }
  const file = fromInvocationDir(args[0] as string);
  const config = loadConfig();
  try {
    if (!statSync(file).isFile()) throw new BackupFileError(`${file} is not a file`);
  } catch (error) {
    if (error instanceof BackupFileError) throw error;
    throw new BackupFileError(`There is no backup file ${file}`);
  }
  const source = () => createReadStream(file);
  // The whole file is checked before the database is even opened: a bad file changes nothing.
  const checked = await checkBackupFile(source, file);
  await migrationsOfBackup(checked.header, file);

  await withConfiguredDatabase(config.database, async (db) => {
    const restored = await restoreBackup(db, source, { label: file, checked });
    const seconds = (performance.now() - started) / 1000;
    const where =
      config.database.kind === 'pglite'
        ? `the embedded database in DATA_DIR ${config.database.dataDir}`
        : 'the PostgreSQL database at DATABASE_URL';
    process.stdout.write(
      [
        `Restored in ${seconds.toFixed(1)} s into ${where}:`,
        `  ${file}`,
        `  taken ${restored.created_at}, schema ${restored.schema_version}, ${describeTables(restored.tables)}`,
        'Start the server on this database (npm start); it brings the schema up to date if this TuitionDesk is newer.',
        'Everyone signs in with the passwords they had when the backup was taken.',
        '',
      ].join('\n'),
    );
  });
}

runScript(main, {
  locked:
    'Nothing was restored. A restore needs the database to itself and fills an empty one: ' +
    'stop the server, or restore into a new DATA_DIR.',
  known: (error) =>
    error instanceof BackupFileError
      ? `${error.message}\nNothing was restored.`
      : error instanceof UsageError || error instanceof RestoreRefusedError
        ? error.message
        : undefined,
  failed: 'The restore failed, nothing was restored',
});
