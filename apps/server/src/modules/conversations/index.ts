/** The conversations module's public surface: other modules, the app and the start-up code import only this. */
export { forgetConversations } from './repository';
export { registerConversationRoutes } from './routes';
