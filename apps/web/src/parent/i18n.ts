import { errorTextParams, formatErrorText } from '@tuitiondesk/contract/error-codes';
import { useMemo, useSyncExternalStore } from 'react';
import en from '../../../../packages/contract/texts/parent/en.json';
import { setCurrentLanguage } from '../i18n/current';
import { loadErrorTexts } from '../i18n/error-texts';
import { fontFamilyFor, loadFont } from '../i18n/fonts';
import {
  browserLanguages,
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_INFO,
  type Language,
  resolveLanguage,
} from '../i18n/languages';

/**
 * The parent app's own texts, with its own small translator rather than the console's i18next
 * (`i18n/index.ts` carries the console's bundled catalogues and its right-to-left style cache, and
 * i18next itself is about 16 KB gzipped, a fifth of the parent page's budget). They live with the
 * server's texts, in `packages/contract/texts/parent/<lang>.json`, in the contract's ICU form (ADR 041):
 * flat dotted keys, `{name}` values, a plural as `{count, plural, one {# unread} other {# unread}}`
 * chosen by the language's plural rules. English is bundled; every other language is its own chunk,
 * fetched when that language is first shown, and falls back to English key by key.
 */
type Texts = Readonly<Record<string, string>>;
type Values = Readonly<Record<string, unknown>>;
/** A key of the parent app's English: a misspelt key fails the type check. */
export type ParentTextKey = keyof typeof en;
export type TFunction = (key: ParentTextKey, values?: Values) => string;

/** The bundled English texts. */
export const ENGLISH: Texts = en;

const CATALOGUES = import.meta.glob<{ default: Texts }>([
  '../../../../packages/contract/texts/parent/*.json',
  '!../../../../packages/contract/texts/parent/en.json',
]);
const loaded: Partial<Record<Language, Texts>> = { en: ENGLISH };
let shown: Language = DEFAULT_LANGUAGE;
const listeners = new Set<() => void>();

const pluralRules = new Map<Language, Intl.PluralRules>();

function rulesOf(language: Language): Intl.PluralRules {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  return rules;
}

function translate(language: Language, key: string, values: Values = {}): string {
  const own = loaded[language]?.[key];
  const text = own ?? ENGLISH[key];
  if (text === undefined) return key;
  const rules = rulesOf(own === undefined ? DEFAULT_LANGUAGE : language);
  // A value not given is left out, as it always was; React escapes what it renders, so values go in as they are.
  const params = Object.fromEntries(
    errorTextParams(text).map((name) => {
      const value = values[name];
      return [name, typeof value === 'number' ? value : String(value ?? '')];
    }),
  );
  return formatErrorText(text, params, (count) => rules.select(count));
}

/** The texts in the language shown, for code outside React (`i18n.t('inbox.unread', { count })`). */
const tShown: TFunction = (key, values) => translate(shown, key, values);
export const i18n = { t: tShown };

function onLanguageChange(notify: () => void): () => void {
  listeners.add(notify);
  return () => listeners.delete(notify);
}

/** The parent app's `t` in the language shown: components re-render when the language changes. */
export function useParentTranslation(): { t: TFunction } {
  const language = useSyncExternalStore(onLanguageChange, () => shown);
  const t = useMemo<TFunction>(() => (key, values) => translate(language, key, values), [language]);
  return { t };
}

/** A text in English whatever the language shown, for values compared with the spec's words. */
export function englishText(key: ParentTextKey, values?: Values): string {
  return translate(DEFAULT_LANGUAGE, key, values);
}

/** The language shown now (for formatting outside React). */
export function shownLanguage(): Language {
  return shown;
}

async function loadCatalogue(language: Language): Promise<void> {
  const load = CATALOGUES[`../../../../packages/contract/texts/parent/${language}.json`];
  if (!load || loaded[language]) return;
  try {
    loaded[language] = (await load()).default;
  } catch {
    // Offline before the language was ever fetched: English stands in, key by key.
  }
}

/**
 * The family's language as this device last heard it from the server, kept so that a reload of a
 * signed-in app shows it before the server answers again. Forgotten at sign-out.
 */
const LANGUAGE_KEY = 'parent_language';

export function keptLanguage(): Language | undefined {
  try {
    const kept = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(kept) ? kept : undefined;
  } catch {
    return undefined;
  }
}

export function keepLanguage(language: Language | undefined): void {
  try {
    if (language) localStorage.setItem(LANGUAGE_KEY, language);
    else localStorage.removeItem(LANGUAGE_KEY);
  } catch {
    // Private mode without storage: the language is asked of the server again next time.
  }
}

/** Signed in: the family's language (as kept), else the browser's first that we speak, else English. */
export function languageFor(family: string | null | undefined): Language {
  return resolveLanguage(family, browserLanguages());
}

let latest = 0;

/**
 * Shows the app in a language: its texts, the server's error texts and its script's typeface are
 * fetched first (the page keeps its language meanwhile), then the texts, `<html lang>`, `dir` and the
 * font change together. Of two quick calls, the later wins.
 */
export async function showLanguage(language: Language): Promise<void> {
  const call = ++latest;
  await Promise.all([loadCatalogue(language), loadErrorTexts(language), loadFont(language)]);
  if (call !== latest) return;
  setCurrentLanguage(language);
  const root = document.documentElement;
  root.lang = language;
  root.dir = LANGUAGE_INFO[language].rtl ? 'rtl' : 'ltr';
  root.style.setProperty('--font', fontFamilyFor(language));
  tellWorker(language);
  shown = language;
  // The page's title (the tab, the app switcher) too; the installed app's name is the manifest's.
  document.title = i18n.t('signIn.title');
  for (const notify of listeners) notify();
}

/** The service worker says its own few texts (a notification's fallback) in the language shown. */
function tellWorker(language: Language): void {
  try {
    navigator.serviceWorker?.controller?.postMessage({ type: 'language', language });
  } catch {
    // No worker yet: it uses the browser's language until the next time the app shows one.
  }
}
