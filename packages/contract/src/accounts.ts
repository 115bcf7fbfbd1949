import { z } from 'zod';
import { roleSchema } from './auth';
import { requiredText } from './common';

/** An admin's password reset of another staff account (issue 28, item 7; ADR 046). */
export const passwordResetSchema = z
  .object({
    user_id: z.number().int(),
    username: z.string(),
    full_name: z.string(),
    role: roleSchema,
    new_password: z
      .string()
      .describe('shown once: it is stored hashed and cannot be read again; the account must change it at sign-in'),
    message: z.string(),
  })
  .meta({ id: 'PasswordReset' });
export type PasswordReset = z.infer<typeof passwordResetSchema>;

export const userIdParamsSchema = z.object({
  user_id: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .positive('must be a positive number')
    .max(2147483647, 'is too large'),
});

export const adminAccountSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    full_name: z.string(),
    /** Switched off by another admin: cannot sign in, every session ended. */
    disabled: z.boolean(),
    must_change_password: z.boolean(),
    two_factor_enabled: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: 'AdminAccount' });
export type AdminAccount = z.infer<typeof adminAccountSchema>;

/** A username people can type and read out: letters, digits, dot, dash and underscore. */
export const usernameSchema = requiredText(50).pipe(
  z
    .string()
    .min(3, 'must be at least 3 characters')
    .regex(/^[A-Za-z0-9._-]+$/, 'may hold only letters, digits, dots, dashes and underscores')
    // A teacher's account is named by the teacher's id: an admin called tch0042 would take a future teacher's.
    .refine((name) => !/^tch\d+$/i.test(name), "names like TCH0001 are kept for teachers' accounts; choose another"),
);

export const createAdminSchema = z.object({
  username: usernameSchema,
  full_name: requiredText(100),
});
export type CreateAdminRequest = z.input<typeof createAdminSchema>;

export const createdAdminSchema = adminAccountSchema
  .extend({
    initial_password: z.string().describe('shown once; the new admin must change it at first sign-in'),
    message: z.string(),
  })
  .meta({ id: 'CreatedAdmin' });
export type CreatedAdmin = z.infer<typeof createdAdminSchema>;
