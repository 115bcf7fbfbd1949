import { z } from 'zod';
import { bearerTokenFields, MIN_PASSWORD_LENGTH, PARENT_LANGUAGES, passwordFieldSchema } from './common';

export const ROLES = ['admin', 'teacher'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

export const loginFormSchema = z.object({
  username: z.string({ error: 'is required' }).trim().min(1, 'is required').max(254, 'is too long'),
  password: passwordFieldSchema,
  otp: z
    .string()
    .trim()
    .max(32, 'is too long')
    .optional()
    .describe('for an account with two-factor sign-in: a current 6-digit code, or one of its recovery codes'),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

export const userSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    full_name: z.string(),
    role: roleSchema,
    email: z.string().nullable(),
    must_change_password: z.boolean(),
    // Optional in the type only (the server always sends both), so clients written before two-factor sign-in still type-check.
    two_factor_enabled: z.boolean().optional().describe('sign-in asks this account for an authenticator code'),
    must_enrol_two_factor: z
      .boolean()
      .optional()
      .describe('the centre requires two-factor sign-in of this admin, who has not set it up: other calls answer 403'),
    // Optional in the type only, like the two-factor fields: the server always sends it.
    language: z
      .enum(PARENT_LANGUAGES)
      .nullable()
      .optional()
      .describe("the language this account reads the console in; null until chosen (the browser's, else English)"),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

export const userLanguageSchema = z.object({
  language: z
    .enum(PARENT_LANGUAGES, { error: `must be one of ${PARENT_LANGUAGES.join(', ')}, or null` })
    .nullable()
    .describe("one of the console's languages, or null to follow the browser again"),
});
export type UserLanguageRequest = z.infer<typeof userLanguageSchema>;

export const loginResponseSchema = z.object({
  ...bearerTokenFields,
  expires_in: z.number().int().describe('seconds until the token expires'),
  user: userSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const changePasswordSchema = z.object({
  current_password: passwordFieldSchema,
  new_password: z
    .string({ error: 'is required' })
    .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(1024, 'is too long'),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordSchema>;

export const changePasswordResponseSchema = z.object({
  message: z.string(),
  access_token: z.string().describe('a new token: tokens issued before the change no longer work'),
  token_type: z.literal('bearer'),
  user: userSchema,
});
export type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;
