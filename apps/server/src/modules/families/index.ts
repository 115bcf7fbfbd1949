/** The families module's public surface: other modules, the app and the start-up code import only this. */
export { verifyAccessCode } from './access-codes';
export { registerBulkAccessRoutes } from './bulk-routes';
export {
  keepParentOptOut,
  lockAllFamilies,
  lockFamily,
  type ParentSource,
  parentOptOuts,
  parentOptOutWords,
  readFamily,
  setFamilyChoices,
  setFamilyLanguage,
  setFamilyWhatsappConsent,
} from './consent';
export { changeFamilyPhone, getParentAccess, issueParentAccess, type StaffActor } from './family-access';
export { familyDate, familyTexts, type LeaveDecision, statusWord } from './family-texts';
export { getFamilyLanguage, setParentLanguage } from './language';
export {
  type AlertSubject,
  countFamilies,
  findAlertSubjects,
  findChild,
  findChildren,
  findFamilies,
  findFamilyChannels,
  findFamilyLanguage,
  findParentAccess,
  findParentName,
  insertFamilyNotice,
  recordSignIn,
} from './repository';
