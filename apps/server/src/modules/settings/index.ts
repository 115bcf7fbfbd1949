/** The settings module's public surface: other modules, the app and the start-up code import only this. */
export { readWrittenPhone } from './phones';
export { registerPhoneSettingsRoutes } from './routes';
export { DEFAULT_COUNTRY_CODE_SETTING } from './service';
