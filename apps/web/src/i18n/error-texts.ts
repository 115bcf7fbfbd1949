import { withClassNames } from '@tuitiondesk/contract/class-params';
import { type ErrorParamValue, formatErrorText } from '@tuitiondesk/contract/error-codes';
import clientErrors from '../../../../packages/contract/texts/client-errors/en.json';
import { classIsPlain, classNamer } from './class-names';
import { currentLanguage } from './current';
import type { Language } from './languages';

/**
 * The server's errors in the language in use. Every error body carries its English `detail` and a
 * stable `code` with `params` (ADR 036); `packages/contract/texts/errors/<lang>.json` holds each code's
 * text in that language, in the contract's ICU form (`{name}`, `{count, plural, one {…} other {…}}`),
 * filled with the same params and the language's plural rules (ADR 041). English needs no file fetched:
 * the detail is English. Each language's files are their own chunk, fetched with the language. A code
 * with no translation (a newer server) shows the English detail.
 *
 * The client's own errors have codes too (`client.*`, in `texts/client-errors/<lang>.json`), so they
 * are translated the same way.
 */
export const CLIENT_ERROR_CODES = {
  'client.unreachable': clientErrors['client.unreachable'],
  /** The parent app's words for the same: a family reaches its centre, not a server. */
  'client.centre_unreachable': clientErrors['client.centre_unreachable'],
} as const;

type Params = Readonly<Record<string, ErrorParamValue>>;

/**
 * Finer codes for the server's errors that carry their English reason whole in `message` (ADR 036)
 * but also send what it is made of: a phone's problem comes with its `kind` and numbers, so each kind
 * has its own text (`validation.phone.*` in `client-errors.json`), filled with those params. English
 * shows the detail (it says it, with the national lengths and an example number these params do not
 * carry); a language without a finer text shows the code's own text, i.e. the English `message`.
 * A phone written with `+` fails either for its length or, when 8 to 15 digits long, only for starting
 * with 0.
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

const FILES = import.meta.glob<{ default: Texts }>([
  '../../../../packages/contract/texts/errors/*.json',
  '../../../../packages/contract/texts/client-errors/*.json',
  '!../../../../packages/contract/texts/errors/en.json',
  '!../../../../packages/contract/texts/client-errors/en.json',
]);
const loaded = new Map<string, Texts>();

/** Fetches a language's error texts once; English and a failed fetch leave the English details. */
export async function loadErrorTexts(language: Language): Promise<void> {
  const loads = Object.entries(FILES)
    .filter(([path]) => path.endsWith(`/${language}.json`))
    .map(([, load]) => load);
  if (loads.length === 0 || loaded.has(language)) return;
  try {
    const files = await Promise.all(loads.map(async (load) => (await load()).default));
    loaded.set(language, Object.assign({}, ...files));
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
  // A class in the params is named through the centre's labels: "कक्षा 7", "Morning batch" (ADR 054).
  const named = withClassNames(code, params ?? {}, classNamer(language), classIsPlain);
  const fill = (text: string | undefined): string | undefined => {
    if (text === undefined) return undefined;
    try {
      return formatErrorText(text, named, (count) => rules.select(count));
    } catch {
      // A param missing from an older server's answer: its English detail still says it.
      return undefined;
    }
  };
  const refined = refinedCode(code, params ?? {});
  return (refined === undefined ? undefined : fill(texts[refined])) ?? fill(texts[code]);
}
