/** The students module's public surface: other modules, the app and the start-up code import only this. */
export { scrubStudentsWhoLeft } from './leaving';
export { findByNameAndPhone, hasCurrentChild, insertStudents } from './repository';
export { registerStudentRoutes } from './routes';
