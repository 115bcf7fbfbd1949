/** The classes module's public surface (ADR 043): other modules, the app and the scripts import only this. */
export {
  type Choices,
  classesInWords,
  classValues,
  matchSubject,
  readClassChoices,
  readClassLabels,
  readSubjectChoices,
  requireClass,
  requireClasses,
  requireRecipients,
  requireSubjects,
} from './checks';
export { registerClassRoutes } from './routes';
export { type ClassUse, classOptions, registerClassUse } from './service';
