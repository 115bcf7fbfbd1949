import type { AdminAccount, CreatedAdmin, createAdminSchema, PasswordReset } from '@tuitiondesk/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Database, Queryable } from '../../db/database';
import { type ActivityActor, type Actor, recordActivity } from '../../lib/activity-log';
import { ConflictError, isUniqueViolation, NotFoundError } from '../../lib/errors';
import { GENERATED_PASSWORD_COST, generatePassword, hashPassword } from '../../lib/passwords';
import {
  type AccountSummary,
  adminAccounts,
  deleteAccount,
  findAccount,
  findAccountByUsername,
  insertAdmin,
  lockAdmins,
  setDisabled,
  setGivenPassword,
} from './accounts-repository';

/** A new random password and its hash; hashing before the transaction opens, so no lock waits on it. */
async function newGivenPassword(): Promise<{ password: string; hash: string }> {
  const password = generatePassword();
  return { password, hash: await hashPassword(password, GENERATED_PASSWORD_COST) };
}

/**
 * Gives the account a new random password, answered once; the account must change it at sign-in and
 * every session it had ends. Written to the activity feed (and, by the users table's trigger, to the
 * audit log, the hash redacted), inside the caller's transaction.
 */
export async function resetPasswordIn(
  tx: Queryable,
  actor: ActivityActor,
  userId: number,
  hash: string,
  code: 'account.password_reset' | 'account.password_reset_by_command',
): Promise<AccountSummary> {
  const account = await setGivenPassword(tx, userId, hash);
  if (!account) throw new NotFoundError('account.not_found', { id: userId });
  await recordActivity(tx, actor, code, code, { name: account.full_name });
  return account;
}

/** Who the server command is, in the activity feed and the audit log. */
export const SERVER_COMMAND = 'server command (npm run reset-password)';

/**
 * `npm run reset-password -- <username>`: the owner locked out of the only admin account. A new
 * password, answered once, the change forced, every session ended; a switched-off account is switched
 * back on, since the command is the way back in when no admin can do it.
 */
export async function resetPasswordByCommand(
  db: Database,
  username: string,
): Promise<{ account: AccountSummary; password: string; switchedOn: boolean }> {
  const found = await findAccountByUsername(db, username);
  if (!found) throw new NotFoundError('account.username_unknown', { username });
  const given = await newGivenPassword();
  return db.transaction(async (tx) => {
    const account = await resetPasswordIn(
      tx,
      { id: null, full_name: SERVER_COMMAND },
      found.id,
      given.hash,
      'account.password_reset_by_command',
    );
    if (account.disabled) await setDisabled(tx, account.id, false);
    return { account, password: given.password, switchedOn: account.disabled };
  });
}

/** An admin resets another staff member's password (a teacher or another admin) (ADR 046). */
export async function resetPassword(ctx: AppContext, actor: Actor, userId: number): Promise<PasswordReset> {
  // One's own goes through change-password, which asks for the current one: a reset would sign oneself out.
  if (userId === actor.id) throw new ConflictError('account.reset_own');
  const given = await newGivenPassword();
  const account = await ctx.db.transaction((tx) =>
    resetPasswordIn(tx, actor, userId, given.hash, 'account.password_reset'),
  );
  return {
    user_id: account.id,
    username: account.username,
    full_name: account.full_name,
    role: account.role,
    new_password: given.password,
    message: `Password reset for ${account.full_name}. They sign in as ${account.username} with the password shown here, once, and then choose their own.`,
  };
}

export function listAdmins(ctx: AppContext): Promise<AdminAccount[]> {
  return adminAccounts(ctx.db);
}

async function adminById(db: Queryable, id: number): Promise<AdminAccount> {
  const found = (await adminAccounts(db)).find((admin) => admin.id === id);
  if (!found) throw new NotFoundError('account.not_found', { id });
  return found;
}

export async function createAdmin(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof createAdminSchema>,
): Promise<CreatedAdmin> {
  const given = await newGivenPassword();
  try {
    return await ctx.db.transaction(async (tx) => {
      if (await findAccountByUsername(tx, input.username)) {
        throw new ConflictError('account.username_taken', { username: input.username });
      }
      const id = await insertAdmin(tx, { ...input, password_hash: given.hash });
      await recordActivity(tx, actor, 'account.admin_created', 'account.admin_created', {
        username: input.username,
        name: input.full_name,
      });
      return {
        ...(await adminById(tx, id)),
        initial_password: given.password,
        message: `Admin added. They sign in as ${input.username} with the initial password shown here; it cannot be shown again.`,
      };
    });
  } catch (error) {
    // Two requests for one name both pass the check; the unique index stops the second.
    if (isUniqueViolation(error, 'users_username_key')) {
      throw new ConflictError('account.username_taken', { username: input.username });
    }
    throw error;
  }
}

/**
 * Runs `work` on an admin account with every admin row locked first, so two admins switching each
 * other off at once queue and the second sees the first one's change. Never one's own account when it
 * takes it out of use (another admin can), and never the last admin account in use (ADR 046).
 */
async function changeAdmin<T>(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  takesOutOfUse: boolean,
  work: (tx: Queryable, target: AccountSummary) => Promise<T>,
): Promise<T> {
  if (userId === actor.id && takesOutOfUse) throw new ConflictError('account.own_admin');
  return ctx.db.transaction(async (tx) => {
    const admins = await lockAdmins(tx);
    const target = admins.find((admin) => admin.id === userId);
    if (!target) {
      if (await findAccount(tx, userId)) throw new NotFoundError('account.not_admin', { id: userId });
      throw new NotFoundError('account.not_found', { id: userId });
    }
    if (takesOutOfUse && !target.disabled && !admins.some((admin) => !admin.disabled && admin.id !== userId)) {
      throw new ConflictError('account.last_admin', { name: target.full_name });
    }
    return work(tx, target);
  });
}

/** Switches an admin account off (no sign-in, its sessions end) or back on. */
export function setAdminInUse(ctx: AppContext, actor: Actor, userId: number, inUse: boolean): Promise<AdminAccount> {
  return changeAdmin(ctx, actor, userId, !inUse, async (tx, target) => {
    await setDisabled(tx, userId, !inUse);
    if (target.disabled === inUse) {
      const code = inUse ? 'account.admin_enabled' : 'account.admin_disabled';
      await recordActivity(tx, actor, code, code, { name: target.full_name });
    }
    return adminById(tx, userId);
  });
}

export function removeAdmin(ctx: AppContext, actor: Actor, userId: number): Promise<{ message: string }> {
  return changeAdmin(ctx, actor, userId, true, async (tx, target) => {
    await deleteAccount(tx, userId);
    await recordActivity(tx, actor, 'account.admin_removed', 'account.admin_removed', { name: target.full_name });
    return { message: `Admin account of ${target.full_name} removed.` };
  });
}
