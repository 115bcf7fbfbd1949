/** The auth module's public surface: other modules, the app and the start-up code import only this. */
export { resetPasswordByCommand, SERVER_COMMAND } from './accounts';
export { countUsers, insertUser } from './repository';
export { registerAuthRoutes } from './routes';
export { findStaffSession } from './session';
export { logSignIn } from './sign-in-log';
export {
  deleteExpiredThrottleRows,
  POLICIES,
  parentAccount,
  releaseAttempt,
  rememberAddress,
  reserveAttempt,
} from './throttle';
export { registerTwoFactorPolicyRoutes } from './two-factor/policy-routes';
export {
  findLegacyRecoveryHashes,
  findLegacySecrets,
  replaceRecoveryHashes,
  replaceSecret,
  resetTwoFactorOf,
} from './two-factor/repository';
export { registerTwoFactorRoutes } from './two-factor/routes';
export { decryptLegacySecret, deriveLegacyKey, encryptSecret, keyedRecoveryHash } from './two-factor/secrets';
