/** Backups: the file format, writing one from a snapshot, backup files on disk, checking and restoring one. */
export { tablesInDependencyOrder } from './catalogue';
export { backupDatabase, dumpInTransaction } from './dump';
export {
  BACKUP_FILE_PATTERN,
  type BackupFile,
  type BackupKind,
  type BackupSource,
  backupFileName,
  type ListedBackup,
  listBackupFiles,
  writeBackupFile,
} from './files';
export {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupFileError,
  type BackupHeader,
  type BackupSummary,
  type BackupTrailer,
  type BackupWriter,
  KEY_ID_SETTING,
  RestoreRefusedError,
} from './format';
export { checkBackupFile } from './read';
export {
  migrationsOfBackup,
  type RestoreKeyPolicy,
  type RestoreOptions,
  type RestoreSummary,
  restoreBackup,
} from './restore';
