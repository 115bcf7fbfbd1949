import {
  normaliseRecoveryCode,
  normaliseTotpCode,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  TWO_FACTOR_ISSUER,
  type TwoFactorConfirmed,
  type TwoFactorDisabled,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../../context';
import type { Queryable } from '../../../db/database';
import { type Actor, recordActivity } from '../../../lib/activity-log';
import { BadRequestError, ConflictError, NotFoundError, UnauthorizedError } from '../../../lib/errors';
import { verifyPassword } from '../../../lib/passwords';
import { endSessions, findUserById } from '../repository';
import { POLICIES, releaseAttempt, reserveAttempt, staffAccount } from '../throttle';
import type { AuthenticatedUser } from '../user';
import { REQUIRE_ADMIN_TWO_FACTOR } from './policy';
import {
  claimStep,
  confirmSecret,
  countUnusedRecoveryCodes,
  deleteTwoFactor,
  findTwoFactor,
  findUserSummary,
  replaceRecoveryCodes,
  saveUnconfirmedSecret,
  useRecoveryCode,
} from './repository';
import { decryptSecret, encryptSecret, generateRecoveryCodes, hashRecoveryCode } from './secrets';
import { base32Encode, generateSecret, matchingStep, otpauthUri } from './totp';

export const WRONG_CODE = 'two_factor.wrong_code';
const WRONG_SETUP_CODE = 'two_factor.wrong_setup_code';
export const ALREADY_ON = 'two_factor.already_on';
export const NOT_ON = 'two_factor.not_on';
export const REQUIRED_FOR_ADMINS = 'two_factor.required_for_admins';

/** The account's new token version; the account was deleted meanwhile: its session is no more. */
async function requireEndedSessions(tx: Queryable, userId: number): Promise<number> {
  const version = await endSessions(tx, userId);
  if (version === undefined) throw new UnauthorizedError();
  return version;
}

export type SecondFactor = { kind: 'totp' } | { kind: 'recovery'; left: number };

/**
 * Checks what was typed in place of a code, and spends it: a TOTP code takes its time step (a code of
 * that step or an earlier one is refused afterwards, so none can be replayed), a recovery code is
 * marked used. Undefined when it is not right, or the account has no confirmed authenticator.
 */
export async function checkSecondFactor(
  q: Queryable,
  key: Buffer,
  userId: number,
  input: string,
  nowMs = Date.now(),
): Promise<SecondFactor | undefined> {
  const row = await findTwoFactor(q, userId);
  if (!row?.confirmed_at) return undefined;
  const code = normaliseTotpCode(input);
  if (code) {
    const secret = decryptSecret(key, userId, row.secret_encrypted);
    if (!secret) return undefined;
    const step = matchingStep(secret, code, nowMs);
    if (step === undefined || (row.last_step !== null && step <= row.last_step)) return undefined;
    return (await claimStep(q, userId, step)) ? { kind: 'totp' } : undefined;
  }
  const recovery = normaliseRecoveryCode(input);
  if (!recovery || !(await useRecoveryCode(q, userId, hashRecoveryCode(key, recovery)))) return undefined;
  return { kind: 'recovery', left: await countUnusedRecoveryCodes(q, userId) };
}

export async function getTwoFactorStatus(ctx: AppContext, user: AuthenticatedUser): Promise<TwoFactorStatus> {
  const row = await findTwoFactor(ctx.db, user.id);
  const requiredForAdmins = await REQUIRE_ADMIN_TWO_FACTOR.read(ctx.db);
  const enabled = Boolean(row?.confirmed_at);
  return {
    enabled,
    enabled_at: row?.confirmed_at ?? null,
    setup_pending: Boolean(row) && !enabled,
    recovery_codes_left: enabled ? await countUnusedRecoveryCodes(ctx.db, user.id) : 0,
    required: user.role === 'admin' && requiredForAdmins,
    required_for_admins: requiredForAdmins,
  };
}

/** A new secret for the caller's authenticator; replaces a setup not yet confirmed. */
export async function startSetup(ctx: AppContext, user: AuthenticatedUser): Promise<TwoFactorSetup> {
  const existing = await findTwoFactor(ctx.db, user.id);
  if (existing?.confirmed_at) throw new ConflictError(ALREADY_ON);
  const secret = generateSecret();
  const encrypted = encryptSecret(ctx.twoFactorKey, user.id, secret);
  const secretText = base32Encode(secret);
  const uri = otpauthUri({ secret: secretText, account: user.username, issuer: TWO_FACTOR_ISSUER });
  // Loaded at the first setup, not with the server: most processes never draw a QR code (ADR 067).
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  await ctx.db.transaction(async (tx) => {
    if (!(await saveUnconfirmedSecret(tx, user.id, encrypted))) throw new ConflictError(ALREADY_ON);
    await recordActivity(tx, user, 'two_factor.setup_started', 'two_factor.setup_started', {});
  });
  return {
    secret: secretText,
    otpauth_uri: uri,
    qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  };
}

/** The first right code turns two-factor sign-in on, and answers the recovery codes, once. */
export async function confirmSetup(ctx: AppContext, user: AuthenticatedUser, otp: string): Promise<TwoFactorConfirmed> {
  const row = await findTwoFactor(ctx.db, user.id);
  if (row?.confirmed_at) throw new ConflictError(ALREADY_ON);
  if (!row) throw new ConflictError('two_factor.setup_not_started');
  const secret = decryptSecret(ctx.twoFactorKey, user.id, row.secret_encrypted);
  if (!secret) throw new ConflictError('two_factor.setup_expired');
  const code = normaliseTotpCode(otp);
  const step = code === undefined ? undefined : matchingStep(secret, code, Date.now());
  if (step === undefined) throw new BadRequestError(WRONG_SETUP_CODE);
  const codes = generateRecoveryCodes();
  const hashes = codes.map((c) => hashRecoveryCode(ctx.twoFactorKey, normaliseRecoveryCode(c) ?? c));
  const tokenVersion = await ctx.db.transaction(async (tx) => {
    if (!(await confirmSecret(tx, user.id, step))) throw new ConflictError(ALREADY_ON);
    await replaceRecoveryCodes(tx, user.id, hashes);
    await recordActivity(tx, user, 'two_factor.enabled', 'two_factor.enabled', {});
    // Sessions signed in with the password alone end: from now on every session passed the second factor.
    return requireEndedSessions(tx, user.id);
  });
  return {
    message: 'Two-factor sign-in is on. Save your recovery codes now: they will not be shown again.',
    recovery_codes: codes,
    access_token: await ctx.tokens.sign({ userId: user.id, tokenVersion }),
    token_type: 'bearer',
  };
}

/**
 * Turning it off asks for the password and a code (or a recovery code), and is throttled like the
 * codes at sign-in, so a session left open is not enough to strip the second factor.
 */
export async function disableTwoFactor(
  ctx: AppContext,
  user: AuthenticatedUser,
  currentPassword: string,
  otp: string,
  clientIp: string,
): Promise<TwoFactorDisabled> {
  const row = await findTwoFactor(ctx.db, user.id);
  if (!row?.confirmed_at) throw new ConflictError(NOT_ON);
  if (user.role === 'admin' && (await REQUIRE_ADMIN_TWO_FACTOR.read(ctx.db)))
    throw new ConflictError(REQUIRED_FOR_ADMINS);
  // Reserved before the hash, like a sign-in: a burst of guesses is checked no further than the limit.
  const attempt = await reserveAttempt(ctx.db, POLICIES.code, staffAccount(user.id), clientIp);
  const account = await findUserById(ctx.db, user.id);
  if (!account) throw new UnauthorizedError();
  if (!(await verifyPassword(currentPassword, account.password_hash))) {
    throw new BadRequestError('auth.current_password_incorrect');
  }
  const key = ctx.twoFactorKey;
  const tokenVersion = await ctx.db.transaction(async (tx) => {
    if (!(await checkSecondFactor(tx, key, user.id, otp))) return undefined;
    await deleteTwoFactor(tx, user.id);
    await recordActivity(tx, user, 'two_factor.disabled', 'two_factor.disabled', {});
    // Whoever else is signed in to the account is signed out: only this session knew the code.
    return requireEndedSessions(tx, user.id);
  });
  if (tokenVersion === undefined) throw new BadRequestError(WRONG_CODE);
  await releaseAttempt(ctx.db, attempt);
  return {
    message: 'Two-factor sign-in is off.',
    access_token: await ctx.tokens.sign({ userId: user.id, tokenVersion }),
    token_type: 'bearer',
  };
}

/**
 * An admin removes another account's authenticator (a lost phone and lost recovery codes); that
 * person signs in with the password alone and may set it up again. Never one's own: that goes
 * through disable, which asks for the password and a code.
 */
export async function resetTwoFactor(ctx: AppContext, actor: Actor, userId: number): Promise<{ message: string }> {
  if (userId === actor.id) {
    throw new ConflictError('two_factor.reset_own');
  }
  const target = await findUserSummary(ctx.db, userId);
  if (!target) throw new NotFoundError('two_factor.user_not_found');
  return ctx.db.transaction(async (tx) => {
    if (!(await deleteTwoFactor(tx, userId)))
      throw new ConflictError('two_factor.nothing_to_reset', { name: target.full_name });
    // Whoever holds a session of theirs (perhaps the one who has the lost phone) is signed out.
    await endSessions(tx, userId);
    await recordActivity(tx, actor, 'two_factor.reset', 'two_factor.reset', { name: target.full_name });
    return { message: `Two-factor sign-in reset for ${target.full_name}. They can sign in with their password.` };
  });
}
