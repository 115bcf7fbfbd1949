import { type ErrorParamValue, formatErrorText } from '@tuitiondesk/contract/error-codes';
import { currentLanguage } from './current';
import type { Language } from './languages';

/**
 * The server's errors in the language in use. Every error body carries its English `detail` and a
 * stable `code` with `params` (ADR 036); `errors/<lang>.json` holds each code's text in that language,
 * in the contract catalogue's own ICU form (`{name}`, `{count, plural, one {…} other {…}}`), filled
 * with the same params and the language's plural rules. English needs no file: the detail is English.
 * Each file is its own chunk, fetched with its language. A code with no translation (a newer server)
 * shows the English detail.
 *
 * The client's own errors have codes here too (`client.*`), so they are translated the same way.
 */
export const CLIENT_ERROR_CODES = {
  'client.unreachable': 'Cannot reach the server. Check your connection and try again.',
  /** The parent app's words for the same: a family reaches its centre, not a server. */
  'client.centre_unreachable': 'Cannot reach the centre. Check your connection and try again.',
} as const;

/**
 * Finer codes for the server's errors that carry their English reason whole in `message` (ADR 036)
 * but also send what it is made of: a phone's problem comes with its `kind` and numbers, so each kind
 * has its own text here, filled with those params. English needs none (the detail says it, with the
 * national lengths and an example number these params do not carry); a language without a finer
 * text shows the code's own text, i.e. the English `message`.
 */
export const REFINED_ERROR_CODES = {
  'validation.phone.characters':
    '{field}: Remove "{found}" from the phone number: digits only, with spaces, dashes or brackets if you like',
  'validation.phone.country_code_zero':
    '{field}: A country code never starts with 0: check the phone number after the +, e.g. +91 98123 45670',
  'validation.phone.international':
    '{field}: After the + come the country code and the number, 8 to 15 digits in all (this one has {digits}): check the phone number',
  'validation.phone.no_country_code': '{field}: Enter the phone number with its country code, e.g. +91 98123 45670',
  'validation.phone.local':
    '{field}: Enter the phone number with all its digits{digits, plural, =0 {} one { (this one has #)} other { (this one has #)}}, or with its country code ({country_code})',
} as const;

type Params = Readonly<Record<string, ErrorParamValue>>;

/**
 * The finer code of a coded error, where its params tell it (see REFINED_ERROR_CODES). A phone written
 * with `+` fails either for its length or, when 8 to 15 digits long, only for starting with 0.
 */
function refinedCode(code: string, params: Params): string | undefined {
  if (code !== 'validation.phone') return undefined;
  const digits = Number(params.digits);
  switch (params.kind) {
    case 'characters':
      return 'validation.phone.characters';
    case 'international':
      return digits >= 8 && digits <= 15 ? 'validation.phone.country_code_zero' : 'validation.phone.international';
    case 'no-country-code':
      return 'validation.phone.no_country_code';
    case 'local':
      return 'validation.phone.local';
    default:
      return undefined;
  }
}

type Texts = Readonly<Record<string, string>>;

const FILES = import.meta.glob<{ default: Texts }>('./errors/*.json');
const loaded = new Map<string, Texts>();

/** Fetches a language's error texts once; English and a failed fetch leave the English details. */
export async function loadErrorTexts(language: Language): Promise<void> {
  const load = FILES[`./errors/${language}.json`];
  if (!load || loaded.has(language)) return;
  try {
    loaded.set(language, (await load()).default);
  } catch {
    // The detail is still there, in English.
  }
}

/** An error's text in the language in use, or undefined where there is none (then show the detail). */
export function translatedError(
  code: string | undefined,
  params: Params | undefined,
  language: string = currentLanguage(),
): string | undefined {
  const texts = code === undefined ? undefined : loaded.get(language);
  if (code === undefined || texts === undefined) return undefined;
  const rules = new Intl.PluralRules(language);
  const fill = (text: string | undefined): string | undefined => {
    if (text === undefined) return undefined;
    try {
      return formatErrorText(text, params ?? {}, (count) => rules.select(count));
    } catch {
      // A param missing from an older server's answer: its English detail still says it.
      return undefined;
    }
  };
  const refined = refinedCode(code, params ?? {});
  return (refined === undefined ? undefined : fill(texts[refined])) ?? fill(texts[code]);
}
