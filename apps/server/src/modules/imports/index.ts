/** The imports module's public surface: other modules, the app and the start-up code import only this. */
export { registerImportRoutes } from './routes';
