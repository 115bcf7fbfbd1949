import { useMemo, useSyncExternalStore } from 'react';
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
import en from './locales/en.json';

/**
 * The parent app's own texts, with its own small translator rather than the console's i18next
 * (`i18n/index.ts` carries the console's bundled catalogues and its right-to-left style cache, and
 * i18next itself is about 16 KB gzipped, a fifth of the parent page's budget). The catalogues keep
 * i18next's v4 form, so the console's checks and tools read them alike: nested keys, `{{name}}`
 * values, plurals as `key_one` / `key_other` (and whatever forms `Intl.PluralRules` names) chosen by
 * `count`. English is bundled; every other language is its own chunk (`locales/<lang>.json`), fetched
 * when that language is first shown, and falls back to English key by key.
 */
type Catalogue = { [key: string]: string | Catalogue };
type Values = Readonly<Record<string, unknown>>;
export type TFunction = (key: string, values?: Values) => string;

/** The bundled English catalogue. */
export const ENGLISH: Catalogue = en;

const CATALOGUES = import.meta.glob<{ default: Catalogue }>(['./locales/*.json', '!./locales/en.json']);
const loaded: Partial<Record<Language, Catalogue>> = { en: ENGLISH };
let shown: Language = DEFAULT_LANGUAGE;
const listeners = new Set<() => void>();

function lookup(catalogue: Catalogue | undefined, key: string): string | undefined {
  let node: string | Catalogue | undefined = catalogue;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

const pluralRules = new Map<Language, Intl.PluralRules>();

/** `key_one`, `key_other` … as the language's plural rules choose for `count`; the key itself otherwise. */
function formOf(language: Language, key: string, values: Values): string {
  if (typeof values.count !== 'number') return key;
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  return `${key}_${rules.select(values.count)}`;
}

function translate(language: Language, key: string, values: Values = {}): string {
  const text =
    lookup(loaded[language], formOf(language, key, values)) ??
    lookup(loaded[language], key) ??
    lookup(ENGLISH, formOf(DEFAULT_LANGUAGE, key, values)) ??
    lookup(ENGLISH, key) ??
    key;
  // React escapes what it renders: the values go in as they are.
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
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
export function englishText(key: string, values?: Values): string {
  return translate(DEFAULT_LANGUAGE, key, values);
}

/** The language shown now (for formatting outside React). */
export function shownLanguage(): Language {
  return shown;
}

async function loadCatalogue(language: Language): Promise<void> {
  const load = CATALOGUES[`./locales/${language}.json`];
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
