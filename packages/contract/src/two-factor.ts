import { z } from 'zod';
import { CROCKFORD_ALPHABET, errorSchema, normaliseCrockfordCode, passwordFieldSchema } from './common';

/**
 * Two-factor sign-in (ASVS 6.3.3): any staff account may add a TOTP authenticator (RFC 6238);
 * an enrolled account gives a current code, or one of its recovery codes, at sign-in in the login
 * form's `otp` field. A centre setting can require it for every admin. See ADR 014.
 */

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const TWO_FACTOR_ISSUER = 'TuitionDesk';
export const RECOVERY_CODE_COUNT = 10;

/** Recovery codes: 10 characters of Crockford base 32 (50 bits), shown as XXXXX-XXXXX. */
export const RECOVERY_CODE_ALPHABET = CROCKFORD_ALPHABET;
export const RECOVERY_CODE_LENGTH = 10;

/** What people type: any case, spaces or dashes, O for 0 and I/L for 1. Undefined when it cannot be a recovery code. */
export function normaliseRecoveryCode(value: string): string | undefined {
  return normaliseCrockfordCode(value, RECOVERY_CODE_LENGTH);
}

/** `123 456` and `123456` are the same authenticator code; undefined when the text is not 6 digits. */
export function normaliseTotpCode(value: string): string | undefined {
  const compact = value.replace(/[\s-]/g, '');
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(compact) ? compact : undefined;
}

/** The extra field of the login's 401 when the password was right and a code is needed (or was wrong). */
export const loginErrorSchema = errorSchema
  .extend({
    otp_required: z
      .boolean()
      .optional()
      .describe('true when the password was right and the account needs a code from its authenticator app'),
  })
  .meta({ id: 'LoginError' });
export type LoginError = z.infer<typeof loginErrorSchema>;

/** GET /auth/two-factor: the caller's own state. */
export const twoFactorStatusSchema = z
  .object({
    enabled: z.boolean().describe('an authenticator is confirmed: sign-in asks for a code'),
    enabled_at: z.string().nullable(),
    setup_pending: z.boolean().describe('a setup was started and not yet confirmed'),
    recovery_codes_left: z.number().int(),
    required: z.boolean().describe('the centre requires two-factor sign-in of this account (admins, when on)'),
    required_for_admins: z.boolean().describe('the centre setting: every admin must use two-factor sign-in'),
  })
  .meta({ id: 'TwoFactorStatus' });
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** POST /auth/two-factor/setup: a new secret, waiting for its first code. */
export const twoFactorSetupSchema = z
  .object({
    secret: z.string().describe('base32, for typing into an authenticator app by hand'),
    otpauth_uri: z.string().describe('otpauth://totp/… (what the QR code holds)'),
    qr_code: z.string().describe('the QR code of otpauth_uri as an SVG data: URL'),
    digits: z.number().int(),
    period: z.number().int(),
  })
  .meta({ id: 'TwoFactorSetup' });
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

const codeField = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(32, 'is too long')
  .describe('a current 6-digit code from the authenticator app');

export const twoFactorConfirmSchema = z.object({
  otp: codeField.regex(/^\d{3}[\s-]?\d{3}$/, `must be the ${TOTP_DIGITS}-digit code from your authenticator app`),
});
export type TwoFactorConfirmRequest = z.infer<typeof twoFactorConfirmSchema>;

/** The recovery codes are in this answer only: they are stored hashed and cannot be shown again. */
const replacedTokenField = z
  .string()
  .describe("a new token for this session: the account's other sessions (and this one's old token) have ended");

export const twoFactorConfirmedSchema = z
  .object({
    message: z.string(),
    recovery_codes: z.array(z.string()).describe('XXXXX-XXXXX, each usable once in place of a code'),
    access_token: replacedTokenField,
    token_type: z.literal('bearer'),
  })
  .meta({ id: 'TwoFactorConfirmed' });
export type TwoFactorConfirmed = z.infer<typeof twoFactorConfirmedSchema>;

export const twoFactorDisableSchema = z.object({
  current_password: passwordFieldSchema,
  otp: codeField.describe('a current 6-digit code, or one of the recovery codes'),
});
export type TwoFactorDisableRequest = z.infer<typeof twoFactorDisableSchema>;

export const twoFactorDisabledSchema = z
  .object({ message: z.string(), access_token: replacedTokenField, token_type: z.literal('bearer') })
  .meta({ id: 'TwoFactorDisabled' });
export type TwoFactorDisabled = z.infer<typeof twoFactorDisabledSchema>;

/** GET and PUT /settings/two-factor: the centre's rule for admins. */
export const twoFactorPolicySchema = z
  .object({
    require_admin_two_factor: z
      .boolean()
      .describe('every admin must use two-factor sign-in; one who has not set it up must do so before anything else'),
  })
  .meta({ id: 'TwoFactorPolicy' });
export type TwoFactorPolicy = z.infer<typeof twoFactorPolicySchema>;
export const updateTwoFactorPolicySchema = z.object({
  require_admin_two_factor: z.boolean({ error: 'must be true or false' }),
});
