import type { ChangePasswordResponse, LoginForm, LoginResponse, ParentLanguage, User } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { recordActivity } from '../../lib/activity-log';
import { BadRequestError, UnauthorizedError, ValidationError } from '../../lib/errors';
import { newPasswordProblem } from '../../lib/password-policy';
import { decoyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../../lib/passwords';
import { findUserById, findUserByLogin, replacePasswordHash, updateLanguage, updatePassword } from './repository';
import { POLICIES, releaseAttempt, rememberAddress, reserveAttempt, staffAccount, unknownName } from './throttle';
import { checkSecondFactor, WRONG_CODE } from './two-factor/service';
import { publicUser } from './user';

const INCORRECT = 'auth.incorrect_credentials';
export const ENTER_CODE = 'auth.otp_required';

/** The password was right, and the account needs a code (none given, or a wrong one): 401 with `otp_required`. */
export class SecondFactorRequiredError extends UnauthorizedError {}

export async function login(ctx: AppContext, form: LoginForm, clientIp: string): Promise<LoginResponse> {
  const user = await findUserByLogin(ctx.db, form.username);
  // Counted per account, whichever name (username or email) reached it; an unknown name has its own count.
  const account = user ? staffAccount(user.id) : unknownName(form.username);
  // Reserved before the hash: a burst of guesses sent at once is checked no further than the limit.
  const attempt = await reserveAttempt(ctx.db, POLICIES.secret, account, clientIp);
  // Hash something either way, so an unknown username takes as long as a wrong password.
  const isValid = await verifyPassword(form.password, user?.password_hash ?? (await decoyPasswordHash()));
  if (!user || !isValid) throw new UnauthorizedError(INCORRECT);
  await releaseAttempt(ctx.db, attempt);
  // Said only to whoever knows the password: a switched-off admin learns why, a guesser learns nothing.
  if (user.disabled) throw new UnauthorizedError('auth.account_disabled');
  if (user.two_factor_enabled) {
    // No code yet is the normal first step, not a failure: the client asks for one and posts again.
    if (!form.otp) throw new SecondFactorRequiredError(ENTER_CODE);
    const otp = form.otp;
    // Codes have their own count per account, which the right password does not reset.
    const codeAttempt = await reserveAttempt(ctx.db, POLICIES.code, account, clientIp);
    const key = ctx.twoFactorKey;
    const secondFactor = await ctx.db.transaction(async (tx) => {
      const result = await checkSecondFactor(tx, key, user.id, otp);
      if (result?.kind === 'recovery') {
        await recordActivity(tx, user, 'auth.recovery_code_used', 'auth.recovery_code_used', { left: result.left });
      }
      return result;
    });
    if (!secondFactor) throw new SecondFactorRequiredError(WRONG_CODE);
    await releaseAttempt(ctx.db, codeAttempt);
  }
  await rememberAddress(ctx.db, attempt);
  if (needsRehash(user.password_hash)) {
    await replacePasswordHash(ctx.db, user.id, user.password_hash, await hashPassword(form.password));
  }
  return {
    access_token: await ctx.tokens.sign({ userId: user.id, tokenVersion: user.token_version }),
    token_type: 'bearer',
    expires_in: ctx.tokens.expiresInSeconds,
    user: publicUser(user),
  };
}

export async function getCurrentUser(ctx: AppContext, userId: number): Promise<User> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new UnauthorizedError();
  return publicUser(user);
}

/** The account's own choice of language for the console (null: follow the browser again); answers the user. */
export async function setLanguage(ctx: AppContext, userId: number, language: ParentLanguage | null): Promise<User> {
  await updateLanguage(ctx.db, userId, language);
  return getCurrentUser(ctx, userId);
}

export async function changePassword(
  ctx: AppContext,
  userId: number,
  currentPassword: string,
  newPassword: string,
): Promise<ChangePasswordResponse> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new UnauthorizedError();
  if (!(await verifyPassword(currentPassword, user.password_hash))) {
    throw new BadRequestError('auth.current_password_incorrect');
  }
  if (newPassword === currentPassword) {
    throw new ValidationError('new_password', 'validation.same_password');
  }
  const problem = newPasswordProblem(newPassword, user);
  if (problem) throw new ValidationError('new_password', problem);
  const passwordHash = await hashPassword(newPassword);
  const tokenVersion = await ctx.db.transaction(async (tx) => {
    const version = await updatePassword(tx, userId, passwordHash);
    await recordActivity(tx, user, 'auth.password_changed', 'auth.password_changed', {});
    return version;
  });
  return {
    message: 'Password changed successfully.',
    access_token: await ctx.tokens.sign({ userId, tokenVersion }),
    token_type: 'bearer',
    user: { ...publicUser(user), must_change_password: false },
  };
}
