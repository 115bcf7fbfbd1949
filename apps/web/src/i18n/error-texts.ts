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
} as const;

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
  params: Readonly<Record<string, ErrorParamValue>> | undefined,
  language: string = currentLanguage(),
): string | undefined {
  const text = code === undefined ? undefined : loaded.get(language)?.[code];
  if (text === undefined) return undefined;
  try {
    const rules = new Intl.PluralRules(language);
    return formatErrorText(text, params ?? {}, (count) => rules.select(count));
  } catch {
    // A param missing from an older server's answer: its English detail still says it.
    return undefined;
  }
}
