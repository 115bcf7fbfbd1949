/** The reminders module's public surface: other modules, the app and the start-up code import only this. */
export { MarkingReminderLoop } from './loop';
export { registerReminderRoutes } from './routes';
