import { z } from 'zod';

export const API_BASE_PATH = '/api/v1';

/** The classes the centre teaches (spec section 9). */
export const CLASS_NAMES = ['7', '8', '9', '10'] as const;
export type ClassName = (typeof CLASS_NAMES)[number];

export const SUBJECTS = [
  'Mathematics',
  'Science',
  'English',
  'Hindi',
  'Social Studies',
  'Physics',
  'Chemistry',
  'Biology',
  'Computer Science',
  'Physical Education',
] as const;
export type Subject = (typeof SUBJECTS)[number];

export const MIN_PASSWORD_LENGTH = 6;

export const errorSchema = z.object({ detail: z.string() }).meta({ id: 'Error' });
export type ApiError = z.infer<typeof errorSchema>;

export const messageSchema = z.object({ message: z.string() });

/**
 * People write a class as `7`, `Class 7`, `class-7`, `7th` or `VII`; all mean class "7".
 * Returns the canonical class name, or undefined when the text is not one of the centre's classes.
 */
export function normaliseClassName(value: unknown): ClassName | undefined {
  if (typeof value === 'number') return normaliseClassName(String(value));
  if (typeof value !== 'string') return undefined;
  const compact = value
    .trim()
    .toLowerCase()
    .replace(/^(class|grade|std\.?|standard)[\s_-]*/, '');
  const roman: Record<string, ClassName> = { vii: '7', viii: '8', ix: '9', x: '10' };
  const digits = roman[compact] ?? compact.replace(/(st|nd|rd|th)$/, '').replace(/\.0+$/, '');
  return (CLASS_NAMES as readonly string[]).includes(digits) ? (digits as ClassName) : undefined;
}

export const CLASS_NAME_HINT = 'must be one of 7, 8, 9 or 10';

export const classNameSchema = z
  .unknown()
  .transform((value, ctx) => {
    const name = normaliseClassName(value);
    if (!name) {
      ctx.addIssue({ code: 'custom', message: CLASS_NAME_HINT });
      return z.NEVER;
    }
    return name;
  })
  .meta({ type: 'string', enum: [...CLASS_NAMES] });

export const PHONE_HINT = 'must include the country code, e.g. +919876543210';

/**
 * Phones are stored as `+` and 8 to 15 digits (E.164). Spaces, dashes, dots and brackets are
 * dropped; a leading `00` becomes `+`; a bare number of 11 to 15 digits not starting with 0 is taken
 * to carry its country code (spreadsheets drop the `+` from numeric cells). Anything else, a local
 * number without a country code included, is refused.
 */
export function normalisePhone(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return normalisePhone(String(value));
  if (typeof value !== 'string') return undefined;
  const compact = value.trim().replace(/[\s\-.()/]/g, '');
  let digits: string;
  if (compact.startsWith('+')) digits = compact.slice(1);
  else if (compact.startsWith('00')) digits = compact.slice(2);
  else if (/^[1-9]\d{10,14}$/.test(compact)) digits = compact;
  else return undefined;
  return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : undefined;
}

export const phoneSchema = z
  .unknown()
  .transform((value, ctx) => {
    const phone = normalisePhone(value);
    if (!phone) {
      ctx.addIssue({ code: 'custom', message: PHONE_HINT });
      return z.NEVER;
    }
    return phone;
  })
  .meta({ type: 'string', example: '+919876543210' });

/** A calendar date, yyyy-MM-dd, that exists. */
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written yyyy-MM-dd')
  .refine((value) => {
    const [y, m, d] = value.split('-').map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }, 'is not a real calendar date')
  .meta({ format: 'date', example: '2026-11-22' });

/** Text that must contain something after trimming. */
export function requiredText(max: number) {
  return z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);
}

export function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((value) => value ?? undefined);
}

export const idSchema = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .positive('must be a positive id')
  .max(2_147_483_647, 'is not a known id');

export const idParamsSchema = z.object({ id: idSchema });

export const idListSchema = z
  .array(
    z
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .positive('must be a positive id')
      .max(2_147_483_647, 'is not a known id'),
    {
      error: 'must be a JSON array of ids',
    },
  )
  .min(1, 'must list at least one id')
  .max(10_000, 'must list at most 10000 ids');

export const deletedCountSchema = z.object({ deleted_count: z.number().int(), message: z.string() });
export type DeletedCount = z.infer<typeof deletedCountSchema>;
