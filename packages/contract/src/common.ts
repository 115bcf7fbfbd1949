import { z } from 'zod';

export const API_BASE_PATH = '/api/v1';

/**
 * The spec's classes, which a new centre starts with (migration 0028 seeds them, labelled `Class 7`…).
 * The centre's own list lives in the database (`GET /classes`, ADR 043); this is only its default.
 */
export const CLASS_NAMES = ['7', '8', '9', '10'] as const;
/** One of the spec's four default classes (the demo centre's). */
export type DefaultClassName = (typeof CLASS_NAMES)[number];
/** A class's stable value as stored on a student (`7`, `11-A`, `Morning batch`): one of the centre's classes. */
export type ClassName = string;

/** The subjects a new centre starts with (migration 0028); the centre's own list is `GET /subjects`. */
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
export type Subject = string;

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

/** The first fields of a record about one student (an attendance record, a leave request): its id and whose it is. */
export const studentRecordFields = {
  id: z.number().int(),
  student_id: z.number().int(),
  student_name: z.string(),
  student_unique_id: z.string(),
  class_name: z.string(),
};

/**
 * People write a class as `7`, `Class 7`, `class-7`, `7th` or `VII`; all mean class "7".
 * Returns the canonical class name, or undefined when the text is not one of the spec's four classes
 * (the default list; a centre's own list is matched by `matchClassName`).
 */
export function normaliseClassName(value: unknown): DefaultClassName | undefined {
  const compact = compactClassText(value);
  return (CLASS_NAMES as readonly string[]).includes(compact ?? '') ? (compact as DefaultClassName) : undefined;
}

const ROMAN_CLASSES: Record<string, string> = {
  i: '1',
  ii: '2',
  iii: '3',
  iv: '4',
  v: '5',
  vi: '6',
  vii: '7',
  viii: '8',
  ix: '9',
  x: '10',
  xi: '11',
  xii: '12',
};

/**
 * A class as people write it, reduced to what it names: lower case, single spaces, without a leading
 * `Class`/`Grade`/`Std`/`Standard`; a number written as a Roman numeral, an ordinal (`7th`) or `10.0`
 * as its digits. Undefined for what is not text or a number.
 */
export function compactClassText(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? compactClassText(String(value)) : undefined;
  if (typeof value !== 'string') return undefined;
  const compact = value
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^(class|grade|std\.?|standard)[\s_-]*/, '');
  return ROMAN_CLASSES[compact] ?? compact.replace(/^(\d+)(st|nd|rd|th)$/, '$1').replace(/^(\d+)\.0+$/, '$1');
}

/** A class as the centre lists it: the value stored on students and the label people see. */
export interface ClassChoice {
  value: string;
  label: string;
}

/**
 * Which of `classes` the written text names: its value or label in any case, or either as
 * `compactClassText` reads it (`Class 7`, `7th` and `VII` for a class "7"; `class 11-a` for "11-A").
 * Undefined when it names none.
 */
export function matchClassName(written: unknown, classes: readonly ClassChoice[]): string | undefined {
  const text = typeof written === 'number' ? String(written) : typeof written === 'string' ? written.trim() : undefined;
  if (!text) return undefined;
  const lower = text.toLowerCase();
  const compact = compactClassText(text);
  const found =
    classes.find((c) => c.value.toLowerCase() === lower) ??
    classes.find((c) => c.label.toLowerCase() === lower) ??
    classes.find((c) => compactClassText(c.value) === compact) ??
    classes.find((c) => compactClassText(c.label) === compact);
  return found?.value;
}

/** `7, 8, 9 or 10`: a list as a sentence names it. */
export function listInWords(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

/** What the default classes' hint says; a centre's own list says its own (the server's `validation.not_a_class`). */
export const CLASS_NAME_HINT = `must be one of ${listInWords(CLASS_NAMES)}`;

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

/**
 * A class as written (text, or a spreadsheet's number), trimmed; anything else reads as empty. Only
 * its shape is checked here: the server matches it against the centre's classes (`matchClassName`)
 * and refuses one it does not teach with 422 listing those it does.
 */
export const classNameSchema = z
  .preprocess(
    (value) =>
      typeof value === 'number' && Number.isFinite(value)
        ? String(value)
        : typeof value === 'string'
          ? value.trim().slice(0, 200)
          : '',
    z.string(),
  )
  .meta({ description: "one of the centre's classes (GET /students/classes), by value or label" });

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
