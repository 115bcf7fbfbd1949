/** The audit module's public surface: other modules, the app and the start-up code import only this. */
export { registerAuditRoutes } from './routes';
export { dailyAuditRetention } from './service';
