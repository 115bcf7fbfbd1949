/**
 * Phones as people write them: country codes, reading a written number into its stored form (E.164)
 * with the centre's default country code, what to fix when it cannot be one, and the phone settings.
 */
import { z } from 'zod';
import CLIENT_ERRORS from '../texts/client-errors/en.json';
import { formatErrorText } from './error-codes';

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
 * A phone problem's English, written once: the catalogue's finer text for it
 * (`validation.phone.<kind>` in `texts/client-errors/en.json`, which the console translates) without
 * its `{field}: ` lead, said of `number` ("the phone number", or "your phone number" to a parent).
 */
function catalogueText(
  kind: 'characters' | 'international' | 'country_code_zero' | 'no_country_code',
  params: Readonly<Record<string, string | number>>,
  number: string,
): string {
  const text = CLIENT_ERRORS[`validation.phone.${kind}`].replace(/^\{field\}: /, '');
  return formatErrorText(text, params).replace('the phone number', number);
}

/**
 * What to fix, in words for the person who typed the number: staff about a family's or a teacher's
 * number ("the phone number"), a parent about their own ("your phone number").
 */
export function phoneProblemText(problem: PhoneProblem, whose: 'the' | 'your' = 'the'): string {
  const number = `${whose} phone number`;
  switch (problem.kind) {
    case 'characters':
      return catalogueText('characters', { found: problem.found }, number);
    case 'international':
      return problem.startsWithZero && problem.digits >= 8 && problem.digits <= 15
        ? catalogueText('country_code_zero', {}, number)
        : catalogueText('international', { digits: problem.digits }, number);
    case 'no-country-code':
      return catalogueText('no_country_code', {}, number);
    // Says more than the catalogue's `validation.phone.local` (the country's lengths and an example
    // number, which the console's finer text leaves to the English detail): its own words, here.
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
