/** The backups module's public surface: other modules, the app and the start-up code import only this. */
export { RESET_TWO_FACTOR_OPTION, restoreKeys } from './restore-keys';
export { registerBackupRoutes } from './routes';
export { clearAfterBackup } from './service';
