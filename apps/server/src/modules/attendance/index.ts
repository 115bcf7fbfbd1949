/** The attendance module's public surface: other modules, the app and the start-up code import only this. */
export { loadScope, type Marker, type Scope } from './marking-scope';
export { registerAttendanceRoutes } from './routes';
export { getNotMarked, getSummary } from './service';
export { registerCentreSettingsRoutes, registerMarkingRuleRoutes } from './settings-routes';
export { deleteOldSubmissions } from './submission-repository';
