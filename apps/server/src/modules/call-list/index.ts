/** The call-list module's public surface: other modules, the app and the start-up code import only this. */
export { registerCallListRoutes } from './routes';
export { familiesToCall } from './service';
