/**
 * `npm run restore [-- --reset-two-factor] <file>`: loads a backup (npm run backup, POST
 * /api/v1/backups, or the one a clear-all takes first) into an EMPTY database, on the same
 * configuration as the server: a new DATA_DIR for the embedded database, or a newly created
 * PostgreSQL database at DATABASE_URL. The whole file, and whether this installation's key file fits
 * it, are checked before the database is opened; the load is one transaction. See ADR 015 and 017.
 */
import { createReadStream, statSync } from 'node:fs';
import { loadConfig } from '../config';
import { BackupFileError, checkBackupFile, migrationsOfBackup, RestoreRefusedError, restoreBackup } from '../db/backup';
import { withConfiguredDatabase } from '../db/open';
import { readKeyFile } from '../lib/server-keys';
import { RESET_TWO_FACTOR_OPTION, restoreKeys } from '../modules/backups';
import { describeTables, fromInvocationDir } from './backup-cli';
import { runScript } from './run-script';

class UsageError extends Error {}

async function main(): Promise<void> {
  const started = performance.now();
  const given = process.argv.slice(2);
  const resetTwoFactor = given.includes(RESET_TWO_FACTOR_OPTION);
  const args = given.filter((arg) => arg !== RESET_TWO_FACTOR_OPTION);
  if (args.length !== 1 || args[0]?.startsWith('-')) {
    throw new UsageError(
      `Usage: npm run restore <backup file>   (or npm run restore -- ${RESET_TWO_FACTOR_OPTION} <backup file>)\n` +
        'It fills an EMPTY database (a new DATA_DIR, or a new PostgreSQL database at DATABASE_URL) from the file. ' +
        `The key file (KEY_FILE) must be the one of the installation the backup came from; ${RESET_TWO_FACTOR_OPTION} ` +
        'restores with another one, turning two-factor sign-in off for every account.',
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
  const keys = restoreKeys({
    keyFile: config.keyFile,
    keys: readKeyFile(config.keyFile),
    jwtSecret: config.jwtSecret,
    resetTwoFactor,
  });
  keys.check(checked.header, file);

  await withConfiguredDatabase(config.database, async (db) => {
    const restored = await restoreBackup(db, source, { label: file, checked, keys });
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
        ...(resetTwoFactor
          ? [
              `${RESET_TWO_FACTOR_OPTION}: where the key file did not fit, two-factor sign-in was turned off (see the activity feed)`,
              "  and parents' devices were forgotten: they turn notifications on again in the parent app.",
            ]
          : []),
        `Keys: ${config.keyFile} (KEY_FILE). Keep a copy of it apart from the backups.`,
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
