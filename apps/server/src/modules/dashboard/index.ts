/** The dashboard module's public surface: other modules, the app and the start-up code import only this. */
export { registerDashboardRoutes } from './routes';
