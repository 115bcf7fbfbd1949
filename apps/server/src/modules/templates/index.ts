/** The templates module's public surface: other modules, the app and the start-up code import only this. */
export { findTemplateForSending, type TemplateForSending } from './repository';
export { registerTemplateRoutes } from './routes';
