/** The teachers module's public surface: other modules, the app and the start-up code import only this. */
export { findEmailsInUse } from './repository';
export { registerTeacherRoutes } from './routes';
export { insertTeachersWithAccounts, type PreparedAccount, prepareAccounts } from './service';
