import i18next, { type ParseKeys, type Resource } from 'i18next';

export type { ParseKeys, TFunction } from 'i18next';

import { initReactI18next, useTranslation } from 'react-i18next';
import { loadActivityTexts } from './activity-text-files';
import { setCurrentLanguage } from './current';
import { loadDayjsLocale } from './date-locales';
import { loadRtlCache } from './direction';
import { loadErrorTexts } from './error-texts';
import { loadFont } from './fonts';
import { browserLanguages, DEFAULT_LANGUAGE, LANGUAGE_INFO, type Language, resolveLanguage } from './languages';
import enAuth from './locales/en/auth.json';
import enCommon from './locales/en/common.json';
import enDashboard from './locales/en/dashboard.json';
import enShell from './locales/en/shell.json';
import type { EnglishResources } from './namespaces.gen';
import { PSEUDO_LANGUAGE, pseudoLocaleOn } from './pseudo-switch';

export { currentLanguage } from './current';

/**
 * Typed keys: `t` takes only a key its namespace's English file has (a misspelt key fails the type
 * check). The namespaces and their English types are written by `npm run texts` (`namespaces.gen.ts`).
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'shell';
    resources: EnglishResources;
    returnNull: false;
  }
}

export * from './languages';
export { PSEUDO_LANGUAGE, pseudoLocaleOn } from './pseudo-switch';
export { useTranslation };

/**
 * The English of every namespace, loaded on demand: for the pseudo-locale, which is made from it. Its
 * file names are the catalogues' namespaces, one per area of the app.
 */
const ENGLISH_FILES = import.meta.glob<{ default: Catalogue }>('./locales/en/*.json');
type Catalogue = { [key: string]: string | Catalogue };

export const NAMESPACES: readonly string[] = Object.keys(ENGLISH_FILES).map(namespaceOf);

/** The namespaces of the sign-in page, the shell and the dashboard: bundled, so they render at once. */
export const BUNDLED = ['common', 'auth', 'shell', 'dashboard'] as const;

/** English is bundled for these; every other language falls back to English key by key. */
export const ENGLISH = { common: enCommon, auth: enAuth, shell: enShell, dashboard: enDashboard } satisfies Record<
  (typeof BUNDLED)[number],
  unknown
>;

function namespaceOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
}

/**
 * Every other language's catalogues, each its own chunk fetched when that language is first chosen,
 * so a language costs nothing to those who do not use it.
 */
const CATALOGUES = import.meta.glob<{ default: Record<string, unknown> }>([
  './locales/*/*.json',
  '!./locales/en/*.json',
]);

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...Object.keys(LANGUAGE_INFO), PSEUDO_LANGUAGE],
  ns: [...BUNDLED],
  defaultNS: 'shell',
  resources: { en: ENGLISH } as Resource,
  partialBundledLanguages: true,
  // React escapes what it renders; escaping here too would show '&amp;' for a name with '&'.
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  react: { useSuspense: false },
});

/**
 * A screen's own namespace: its English travels in the screen's chunk (not in the sign-in route's) and
 * is added when the screen's module loads, before it renders. Call it at the top of the module that
 * uses the namespace: `addEnglish('students', enStudents)`.
 */
export function addEnglish(namespace: string, texts: Catalogue): void {
  if (!i18n.hasResourceBundle('en', namespace)) i18n.addResourceBundle('en', namespace, texts, true, true);
}

/** A text in English whatever the language in use, for code that compares with the spec's words. */
export function englishText(key: ConsoleKey, options?: Record<string, unknown>): string {
  return (i18n.t as (key: string, options: Record<string, unknown>) => string)(key, { ...options, lng: 'en' });
}

/** Any key of the console's texts with its namespace: `students:dialog.consent`. */
export type ConsoleKey = { [N in keyof EnglishResources]: `${N}:${ParseKeys<N>}` }[keyof EnglishResources];

/** Fetches a language's catalogues once (English is already there). */
export async function loadCatalogues(language: string): Promise<void> {
  if (language === DEFAULT_LANGUAGE || i18n.hasResourceBundle(language, BUNDLED[0])) return;
  if (language === PSEUDO_LANGUAGE) return loadPseudoCatalogues();
  await Promise.all(
    Object.entries(CATALOGUES)
      .filter(([path]) => path.startsWith(`./locales/${language}/`))
      .map(async ([path, load]) => {
        i18n.addResourceBundle(language, namespaceOf(path), (await load()).default, true, true);
      }),
  );
}

/** The pseudo-locale's catalogues, made from every English one (a test's language: see `pseudo.ts`). */
async function loadPseudoCatalogues(): Promise<void> {
  const { pseudoCatalogue } = await import('./pseudo');
  await Promise.all(
    Object.entries(ENGLISH_FILES).map(async ([path, load]) => {
      i18n.addResourceBundle(PSEUDO_LANGUAGE, namespaceOf(path), pseudoCatalogue((await load()).default), true, true);
    }),
  );
}

let latest = 0;

/**
 * Shows the app in a language: its catalogues, typeface and whatever else it needs are fetched first
 * (the page keeps its language meanwhile), then the texts, `<html lang>` and `dir` change together.
 * Of two quick calls, the later wins.
 */
export async function showLanguage(language: Language): Promise<void> {
  const call = ++latest;
  const rtl = LANGUAGE_INFO[language].rtl;
  // A browser test's pseudo-locale stands in for English (see `pseudo.ts`); nothing else changes.
  const texts = language === DEFAULT_LANGUAGE && pseudoLocaleOn() ? PSEUDO_LANGUAGE : language;
  await Promise.all([
    loadCatalogues(texts),
    loadErrorTexts(language),
    loadActivityTexts(language),
    loadFont(language),
    loadDayjsLocale(language),
    rtl ? loadRtlCache() : undefined,
  ]);
  if (call !== latest) return;
  setCurrentLanguage(language);
  document.documentElement.lang = language;
  document.documentElement.dir = rtl ? 'rtl' : 'ltr';
  await i18n.changeLanguage(texts);
}

/** The language for an account's choice (null: none), else the browser's, else English. */
export function languageFor(chosen: string | null | undefined): Language {
  return resolveLanguage(chosen, browserLanguages());
}
