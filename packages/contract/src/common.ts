import { z } from 'zod';

export const API_BASE_PATH = '/api/v1';

/** The classes the centre teaches. */
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

/** The languages a family can be written to in (ISO 639-1, as WhatsApp's template language codes). */
export const PARENT_LANGUAGES = ['en', 'hi', 'mr', 'ta', 'bn', 'ur'] as const;
export type ParentLanguage = (typeof PARENT_LANGUAGES)[number];
/** Each language by its own name, then the English one, as a picker lists them. */
export const PARENT_LANGUAGE_LABELS: Record<ParentLanguage, string> = {
  en: 'English',
  hi: 'हिन्दी (Hindi)',
  mr: 'मराठी (Marathi)',
  ta: 'தமிழ் (Tamil)',
  bn: 'বাংলা (Bengali)',
  ur: 'اردو (Urdu)',
};
export const parentLanguageSchema = z.enum(PARENT_LANGUAGES, {
  error: 'must be one of en, hi, mr, ta, bn or ur',
});

/**
 * Codes people type from a printout (access codes, recovery codes): Crockford base 32, no I, L, O or U.
 */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * What people type for a code of `length` Crockford characters: any case, spaces or dashes, O for 0
 * and I/L for 1. Undefined when it cannot be such a code.
 */
export function normaliseCrockfordCode(value: string, length: number): string | undefined {
  const compact = value.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (compact.length !== length) return undefined;
  for (const char of compact) if (!CROCKFORD_ALPHABET.includes(char)) return undefined;
  return compact;
}

/** A password as a form sends it: required, taken as typed (never trimmed). */
export const passwordFieldSchema = z.string({ error: 'is required' }).min(1, 'is required').max(1024, 'is too long');

/** The token a sign-in (or a change that ends the other sessions) hands out. */
export const bearerTokenFields = { access_token: z.string(), token_type: z.literal('bearer') };

/**
 * Every error's body (RFC 9457 problem details, extended): the English `detail` shown as it is, the
 * stable `code` from the error catalogue (error-codes.ts) that a client translates, and the `params`
 * that fill the code's text (present only when it has placeholders).
 */
export const errorSchema = z
  .object({
    detail: z.string().describe('One sentence in English saying what went wrong and what to do'),
    code: z
      .string()
      .describe(
        "Stable, dotted, lower-case code of the error (`student.not_found`, `validation.too_small`); a field's failure is `validation.<rule>` with `field` in params",
      ),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .optional()
      .describe("The values that fill the code's text (`field`, `count`, names, dates); absent when it has none"),
  })
  .meta({ id: 'Error' });
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

/**
 * Any JSON value `normalise` can read, as what it reads it as (a spreadsheet's number as well as
 * text); anything else is refused with `hint`.
 */
export function normalisedSchema<T>(normalise: (value: unknown) => T | undefined, hint: string) {
  return z.unknown().transform((value, ctx) => {
    const normalised = normalise(value);
    if (normalised === undefined) {
      ctx.addIssue({ code: 'custom', message: hint });
      return z.NEVER;
    }
    return normalised;
  });
}

export const classNameSchema = normalisedSchema(normaliseClassName, CLASS_NAME_HINT).meta({
  type: 'string',
  enum: [...CLASS_NAMES],
});

/** The country code a centre gives numbers written without one, until an admin chooses another. */
export const DEFAULT_COUNTRY_CODE = '+91';

const COUNTRY_CODE_HINT =
  'must be + and the 1 to 3 digits of a country calling code, e.g. +91 for India or +44 for the UK';

/** A country calling code as people write it (`+91`, `91`, `0091`, `+ 44`), stored as `+` and 1 to 3 digits. */
export function normaliseCountryCode(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const digits = value
    .trim()
    .replace(/\s/g, '')
    .replace(/^(\+|00)/, '');
  return /^[1-9]\d{0,2}$/.test(digits) ? `+${digits}` : undefined;
}

export const countryCodeSchema = z
  .string({ error: COUNTRY_CODE_HINT })
  .transform((value, ctx) => {
    const code = normaliseCountryCode(value);
    if (code === undefined) {
      ctx.addIssue({ code: 'custom', message: COUNTRY_CODE_HINT });
      return z.NEVER;
    }
    return code;
  })
  .meta({ type: 'string', example: '+91' });

/**
 * How long a number is without its country code (the national number, trunk 0 left off), where we know
 * it for sure, with a number to show as an example. For other codes a local number is taken when the
 * whole stays within E.164's 8 to 15 digits.
 */
const NATIONAL_NUMBERS: Readonly<Record<string, { digits: readonly number[]; example: string }>> = {
  '1': { digits: [10], example: '415 555 0100' },
  '44': { digits: [9, 10], example: '7400 123456' },
  '61': { digits: [9], example: '412 345 678' },
  '65': { digits: [8], example: '8123 4567' },
  '91': { digits: [10], example: '98123 45670' },
  '971': { digits: [8, 9], example: '50 123 4567' },
};

/** Why a written phone cannot be stored; `phoneProblemText` words it. */
export type PhoneProblem =
  /** Something other than digits, spaces, dashes, dots, brackets, slashes and one leading `+`. */
  | { kind: 'characters'; found: string }
  /** Written with `+` or `00`: the digits after it are not 8 to 15, or start with 0. */
  | { kind: 'international'; digits: number; startsWithZero: boolean }
  /** Written without a country code (or not at all), and not as long as a number of the default country code is. */
  | { kind: 'local'; digits: number; countryCode: string }
  /** Written without a country code (or not at all) where no default applies. */
  | { kind: 'no-country-code' };

export type PhoneReading = { phone: string } | { problem: PhoneProblem };

function international(digits: string): PhoneReading {
  if (/^[1-9]\d{7,14}$/.test(digits)) return { phone: `+${digits}` };
  return { problem: { kind: 'international', digits: digits.length, startsWithZero: digits.startsWith('0') } };
}

/**
 * Phones are stored as `+` and 8 to 15 digits (E.164). People write them with spaces, dashes, dots,
 * brackets or slashes, which are dropped. `+` or `00` starts the country code. A number without one
 * takes `defaultCountryCode` (the centre's, e.g. `+91`), after a leading trunk 0 is dropped
 * (`098123 45670` is `+919812345670`); where the code's national length is known, the number must have
 * it (elsewhere at least 6 digits, within E.164's 15), and a bare number that is the code and such a
 * number is taken as carrying it (spreadsheets drop the `+` from numeric cells). Without `defaultCountryCode`, a bare number of 11 to 15 digits is taken
 * to carry its code and anything shorter is refused. Spreadsheet numbers (whole ones) read as text.
 */
export function readPhone(value: unknown, defaultCountryCode?: string): PhoneReading {
  const code = defaultCountryCode?.replace(/^\+/, '');
  const local = (digits: number): PhoneReading => ({
    problem: { kind: 'local', digits, countryCode: `+${code}` },
  });
  const text = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
  const compact = typeof text === 'string' ? text.trim().replace(/[\s\-.()/]/g, '') : '';
  const stray = compact.replace(/^\+/, '').replace(/\d/g, '');
  if (stray !== '' && /\d/.test(compact)) {
    const runs = (text as string)
      .trim()
      .replace(/^\+/, '')
      .match(/[^\d\s\-.()/]+/g) ?? [stray];
    return { problem: { kind: 'characters', found: [...new Set(runs)].join('", "') } };
  }
  // Words with no digits at all: asked for the number itself.
  if (stray !== '') return code === undefined ? { problem: { kind: 'no-country-code' } } : local(0);
  if (compact.startsWith('+')) return international(compact.slice(1));
  if (compact.startsWith('00')) return international(compact.slice(2));
  if (code === undefined) {
    return /^[1-9]\d{10,14}$/.test(compact) ? international(compact) : { problem: { kind: 'no-country-code' } };
  }
  const national = compact.replace(/^0/, '');
  const known = NATIONAL_NUMBERS[code];
  if (known) {
    if (!compact.startsWith('0') && compact.startsWith(code) && known.digits.includes(compact.length - code.length)) {
      return international(compact);
    }
    return known.digits.includes(national.length) && /^[1-9]/.test(national)
      ? { phone: `+${code}${national}` }
      : local(national.length);
  }
  if (!compact.startsWith('0') && /^[1-9]\d{10,14}$/.test(compact)) return international(compact);
  return /^[1-9]\d{5,}$/.test(national) && /^\d{8,15}$/.test(code + national)
    ? { phone: `+${code}${national}` }
    : local(national.length);
}

/** The stored form of a written phone (see `readPhone`), or undefined when it cannot be one. */
export function normalisePhone(value: unknown, defaultCountryCode?: string): string | undefined {
  const reading = readPhone(value, defaultCountryCode);
  return 'phone' in reading ? reading.phone : undefined;
}

/** `+91 98123 45670`: a number of the country code as people write it, or the code and a hint of the rest. */
export function examplePhone(countryCode: string): string {
  const example = NATIONAL_NUMBERS[countryCode.replace(/^\+/, '')]?.example;
  return example ? `${countryCode} ${example}` : `${countryCode} and the number`;
}

/**
 * What to fix, in words for the person who typed the number: staff about a family's or a teacher's
 * number ("the phone number"), a parent about their own ("your phone number").
 */
export function phoneProblemText(problem: PhoneProblem, whose: 'the' | 'your' = 'the'): string {
  const number = `${whose} phone number`;
  switch (problem.kind) {
    case 'characters':
      return `Remove "${problem.found}" from ${number}: digits only, with spaces, dashes or brackets if you like`;
    case 'international':
      return problem.startsWithZero && problem.digits >= 8 && problem.digits <= 15
        ? `A country code never starts with 0: check ${number} after the +, e.g. +91 98123 45670`
        : `After the + come the country code and the number, 8 to 15 digits in all (this one has ${problem.digits}): check ${number}`;
    case 'no-country-code':
      return `Enter ${number} with its country code, e.g. +91 98123 45670`;
    case 'local': {
      const has = problem.digits > 0 ? ` (this one has ${problem.digits})` : '';
      const lengths = NATIONAL_NUMBERS[problem.countryCode.replace(/^\+/, '')]?.digits;
      const local = `with ${lengths ? lengths.join(' or ') : 'all its'} digits${has}`;
      return `Enter ${number} ${local}, or with its country code, e.g. ${examplePhone(problem.countryCode)}`;
    }
  }
}

/**
 * A phone as a request writes it (text, or a spreadsheet's number): what it means is decided with the
 * centre's default country code where it comes in (`readPhone`), not by the request's schema.
 */
export const writtenPhoneSchema = z
  .union([z.string(), z.number().int().nonnegative()], {
    error: 'must be a phone number written as text, e.g. +91 98123 45670',
  })
  .transform((value) => String(value))
  .pipe(z.string().max(40, 'is too long for a phone number; enter it as e.g. +91 98123 45670'))
  .meta({
    type: 'string',
    example: '98123 45670',
    description: "E.164 (+919812345670), or as written locally: the centre's default country code is added",
  });

/** A phone read with `defaultCountryCode` (see `readPhone`); a refusal says what to fix. */
export function phoneSchema(defaultCountryCode: string, whose: 'the' | 'your' = 'the') {
  return z.unknown().transform((value, ctx) => {
    const reading = readPhone(value, defaultCountryCode);
    if ('problem' in reading) {
      ctx.addIssue({ code: 'custom', message: phoneProblemText(reading.problem, whose) });
      return z.NEVER;
    }
    return reading.phone;
  });
}

/** GET and PUT /settings/phones: how numbers written without a country code are read. */
export const phoneSettingsSchema = z
  .object({
    default_country_code: z
      .string()
      .describe('given to phone numbers written without a country code (students, teachers, imports, parent sign-in)'),
  })
  .meta({ id: 'PhoneSettings' });
export type PhoneSettings = z.infer<typeof phoneSettingsSchema>;

export const updatePhoneSettingsSchema = z.object({ default_country_code: countryCodeSchema });
export type UpdatePhoneSettingsRequest = z.input<typeof updatePhoneSettingsSchema>;

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

/** The largest id a row can have (PostgreSQL's integer). */
const MAX_ROW_ID = 2_147_483_647;

/** An id in a path: digits, read as a number. */
export const idSchema = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .positive('must be a positive id')
  .max(MAX_ROW_ID, 'is not a known id');

export const idParamsSchema = z.object({ id: idSchema });

/** An id in a JSON body: a number, never text; `error` says what kind of id when it is not a number. */
export function rowIdSchema(error = 'must be a number') {
  return z
    .number({ error })
    .int('must be a whole number')
    .positive('must be a positive id')
    .max(MAX_ROW_ID, 'is not a known id');
}

export const idListSchema = z
  .array(rowIdSchema(), { error: 'must be a JSON array of ids' })
  .min(1, 'must list at least one id')
  .max(10_000, 'must list at most 10000 ids');

/** `true`, `false`, `1` or `0` in a query string, read as a boolean; absent is false. */
export const queryFlagSchema = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .optional()
  .transform((value) => value === 'true' || value === '1');

/**
 * A whole number in a query string, from `min` (0 or 1) up to `max` when given, `byDefault` when
 * absent; `error` is what text that is not a number is told.
 */
export function queryNumberSchema(options: { min: 0 | 1; max?: number; byDefault: number; error?: string }) {
  const { min, max, byDefault, error = 'must be a number' } = options;
  const atLeast = z.coerce
    .number({ error })
    .int('must be a whole number')
    .min(min, min === 0 ? 'must not be negative' : 'must be at least 1');
  return (max === undefined ? atLeast : atLeast.max(max, `must be at most ${max}`)).default(byDefault);
}

/** One page of a long list: `limit` rows (1 to `maxLimit`) after skipping `offset` rows. */
export function pageQuerySchema({ maxLimit, defaultLimit }: { maxLimit: number; defaultLimit: number }) {
  return z.object({
    limit: queryNumberSchema({ min: 1, max: maxLimit, byDefault: defaultLimit }),
    offset: queryNumberSchema({ min: 0, byDefault: 0 }),
  });
}

/**
 * The records a marking call saves: 1 to `max` of them; `noun` names one in the errors (`record`,
 * `teacher record`).
 */
export function markedRecordsSchema<T extends z.ZodType>(record: T, noun: string, max: number) {
  return z
    .array(record, { error: `must be a list of ${noun}s` })
    .min(1, `must hold at least one ${noun}`)
    .max(max, `must hold at most ${max} records`);
}

/** What a marking call answers: how many records it saved. */
export const markedCountSchema = z.object({ marked_count: z.number().int(), message: z.string() });
export type MarkedCount = z.infer<typeof markedCountSchema>;

export const deletedCountSchema = z.object({ deleted_count: z.number().int(), message: z.string() });
export type DeletedCount = z.infer<typeof deletedCountSchema>;

/** Where a clear-all put the backup it took before deleting anything. */
export const clearAllBackupFileSchema = z
  .string()
  .describe('the backup taken before deleting: `npm run restore <backup_file>` brings it back');
