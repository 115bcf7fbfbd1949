import type { ChangePasswordResponse, LoginForm, LoginResponse, User } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { recordActivity } from '../../lib/activity-log';
import { BadRequestError, UnauthorizedError, ValidationError } from '../../lib/errors';
import { decoyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../../lib/passwords';
import { findUserById, findUserByLogin, replacePasswordHash, type UserRow, updatePassword } from './repository';
import { assertNotThrottled, clearFailures, recordFailure, throttleKeys } from './throttle';

const INCORRECT = 'Incorrect username or password';

function publicUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    full_name: row.full_name,
    role: row.role,
    email: row.email,
    must_change_password: row.must_change_password,
  };
}

export async function login(ctx: AppContext, form: LoginForm, clientIp: string): Promise<LoginResponse> {
  const keys = throttleKeys(form.username, clientIp);
  await assertNotThrottled(ctx.db, keys);
  const user = await findUserByLogin(ctx.db, form.username);
  // Hash something either way, so an unknown username takes as long as a wrong password.
  const isValid = await verifyPassword(form.password, user?.password_hash ?? (await decoyPasswordHash()));
  if (!user || !isValid) {
    await recordFailure(ctx.db, keys);
    throw new UnauthorizedError(INCORRECT);
  }
  await clearFailures(ctx.db, keys[0]?.key ?? '');
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

export async function changePassword(
  ctx: AppContext,
  userId: number,
  currentPassword: string,
  newPassword: string,
): Promise<ChangePasswordResponse> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new UnauthorizedError();
  if (!(await verifyPassword(currentPassword, user.password_hash))) {
    throw new BadRequestError('Current password is incorrect');
  }
  if (newPassword === currentPassword) {
    throw new ValidationError('new_password', 'must be different from the current password');
  }
  const passwordHash = await hashPassword(newPassword);
  const tokenVersion = await ctx.db.transaction(async (tx) => {
    const version = await updatePassword(tx, userId, passwordHash);
    await recordActivity(tx, user, 'auth.password_changed', `${user.full_name} changed their password`);
    return version;
  });
  return {
    message: 'Password changed successfully.',
    access_token: await ctx.tokens.sign({ userId, tokenVersion }),
    token_type: 'bearer',
    user: { ...publicUser(user), must_change_password: false },
  };
}
