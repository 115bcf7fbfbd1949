import type { BackupCreated, BackupList } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import {
  type BackupFile,
  type BackupKind,
  backupDatabase,
  dumpInTransaction,
  listBackupFiles,
  writeBackupFile,
} from '../../db/backup';
import { isTransactionConflict, type Queryable } from '../../db/database';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { recordAudit } from '../../lib/audit-log';
import { AppError, ServiceUnavailableError } from '../../lib/errors';
import { beginSnapshotWithLocks, tablesAffectedByClearing } from './repository';

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');

/** `POST /backups`: a consistent backup of the whole database, written into BACKUP_DIR on the server. */
export async function createBackup(ctx: AppContext, actor: Actor): Promise<BackupCreated> {
  let backup: BackupFile;
  try {
    backup = await writeBackupFile(ctx.config.backupDir, 'console', (write) => backupDatabase(ctx.db, write));
  } catch (error) {
    throw new ServiceUnavailableError('backups.write_failed', { reason: reason(error) });
  }
  await ctx.db.transaction(async (tx) => {
    await recordActivity(tx, actor, 'backup.created', 'backup.created', { file: backup.file });
    await recordAudit(tx, {
      entity: 'backup',
      action: 'backup_created',
      record_id: backup.file,
      after: { file: backup.file, size_bytes: backup.size_bytes, kind: 'console' },
    });
  });
  return {
    file: backup.file,
    path: backup.path,
    size_bytes: backup.size_bytes,
    tables: backup.tables,
    created_at: backup.created_at,
  };
}

/** `GET /backups`: the complete backup files in BACKUP_DIR, newest first. */
export async function listBackups(ctx: AppContext): Promise<BackupList> {
  try {
    return { directory: ctx.config.backupDir, backups: await listBackupFiles(ctx.config.backupDir) };
  } catch (error) {
    throw new ServiceUnavailableError('backups.directory_unreadable', {
      directory: ctx.config.backupDir,
      reason: reason(error),
    });
  }
}

/**
 * A clear-all that takes a backup first, in its own transaction: the tables it may touch are locked
 * against writers, the backup is written from the transaction's snapshot, and only then does `work`
 * delete, so the backup holds exactly what was there before. If the backup cannot be written,
 * nothing is deleted. Answers `work`'s result with `backup_file`, the backup's path on the server.
 */
export async function clearAfterBackup<T extends object>(
  ctx: AppContext,
  kind: BackupKind,
  roots: string[],
  work: (tx: Queryable, backup: BackupFile) => Promise<T>,
): Promise<T & { backup_file: string }> {
  const tables = await tablesAffectedByClearing(ctx.db, roots);
  try {
    // A deadlock while taking the locks is retried by the transaction itself (ADR 016).
    return await ctx.db.transaction(async (tx) => {
      await beginSnapshotWithLocks(tx, tables);
      let backup: BackupFile;
      try {
        backup = await writeBackupFile(ctx.config.backupDir, kind, (write) =>
          dumpInTransaction(tx, ctx.db.kind, write),
        );
      } catch (error) {
        if (isTransactionConflict(error) || error instanceof AppError) throw error;
        throw new ServiceUnavailableError('backups.before_clear_failed', { reason: reason(error) });
      }
      await recordAudit(tx, {
        entity: 'backup',
        action: 'backup_created',
        record_id: backup.file,
        after: { file: backup.file, size_bytes: backup.size_bytes, kind },
      });
      return { ...(await work(tx, backup)), backup_file: backup.path };
    });
  } catch (error) {
    if (!isTransactionConflict(error)) throw error;
    throw new ServiceUnavailableError('backups.clear_contention');
  }
}
