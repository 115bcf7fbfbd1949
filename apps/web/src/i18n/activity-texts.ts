import { type ActivityParamValue, formatActivityText } from '@tuitiondesk/contract/activity-texts';
import { formatDay } from '../lib/dates';
import { currentLanguage } from './current';
import type { Language } from './languages';

/**
 * The activity feed in the language in use (ADR 038). A row written since activities carry their text
 * as a code and params (`text_code`, `params`) is filled from `activity-texts/<lang>.json`, in the
 * contract catalogue's ICU form, with the language's plural rules and days as `formatDay` writes them;
 * names, subjects and reasons in the params are shown as written. English needs no file: the stored
 * description is the English. Each file is its own chunk, fetched with its language.
 */
type Texts = Readonly<Record<string, string>>;

const FILES = import.meta.glob<{ default: Texts }>('./activity-texts/*.json');
const loaded = new Map<string, Texts>();

/** Fetches a language's activity texts once; English and a failed fetch leave the stored English. */
export async function loadActivityTexts(language: Language): Promise<void> {
  const load = FILES[`./activity-texts/${language}.json`];
  if (!load || loaded.has(language)) return;
  try {
    loaded.set(language, (await load()).default);
  } catch {
    // The stored description is still there, in English.
  }
}

/**
 * An activity's text in the language in use, or undefined where there is none: a row from before
 * (no code), a code this client does not know, English, or params that do not fill the text.
 */
export function translatedActivity(
  code: string | null | undefined,
  params: Readonly<Record<string, ActivityParamValue>> | null | undefined,
  language: string = currentLanguage(),
): string | undefined {
  const text = code ? loaded.get(language)?.[code] : undefined;
  if (text === undefined || !params) return undefined;
  const rules = new Intl.PluralRules(language);
  try {
    return formatActivityText(text, params, { day: formatDay, plural: (count) => rules.select(count) });
  } catch {
    return undefined;
  }
}
