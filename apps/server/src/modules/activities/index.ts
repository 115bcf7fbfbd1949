/** The activities module's public surface: other modules, the app and the start-up code import only this. */
export { eraseFromActivities } from './erasure';
export { registerActivityRoutes } from './routes';
