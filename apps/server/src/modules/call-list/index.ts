/** The call-list module's public surface: other modules, the app and the start-up code import only this. */
export { notReachedBefore } from './repository';
export { registerCallListRoutes } from './routes';
export { familiesNotReached, familiesToCall } from './service';
