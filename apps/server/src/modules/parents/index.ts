/** The parents module's public surface: other modules, the app and the start-up code import only this. */
export { registerParentRoutes } from './routes';
export { findParentSession } from './service';
