import i18next, { type Resource } from 'i18next';

export type { TFunction } from 'i18next';

import { initReactI18next, useTranslation } from 'react-i18next';
import { setCurrentLanguage } from './current';
import { loadDayjsLocale } from './date-locales';
import { loadRtlCache } from './direction';
import { loadFont } from './fonts';
import { browserLanguages, DEFAULT_LANGUAGE, LANGUAGE_INFO, type Language, resolveLanguage } from './languages';
import enAuth from './locales/en/auth.json';
import enCommon from './locales/en/common.json';
import enDashboard from './locales/en/dashboard.json';
import enShell from './locales/en/shell.json';

export { currentLanguage } from './current';
export * from './languages';
export { useTranslation };

/** The catalogues' namespaces: one per converted area of the app. */
export const NAMESPACES = ['common', 'auth', 'shell', 'dashboard'] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** English is bundled: it renders at once, and every other language falls back to it key by key. */
export const ENGLISH = { common: enCommon, auth: enAuth, shell: enShell, dashboard: enDashboard } satisfies Record<
  Namespace,
  unknown
>;

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
  supportedLngs: [...Object.keys(LANGUAGE_INFO), 'en-XA'],
  ns: [...NAMESPACES],
  defaultNS: 'shell',
  resources: { en: ENGLISH } as Resource,
  partialBundledLanguages: true,
  // React escapes what it renders; escaping here too would show '&amp;' for a name with '&'.
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  react: { useSuspense: false },
});

/** A text in English whatever the language in use, for code that compares with the spec's words. */
export function englishText(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, { ...options, lng: 'en' });
}

/** Fetches a language's catalogues once (English is already there). */
export async function loadCatalogues(language: string): Promise<void> {
  if (language === DEFAULT_LANGUAGE || i18n.hasResourceBundle(language, NAMESPACES[0])) return;
  await Promise.all(
    Object.entries(CATALOGUES)
      .filter(([path]) => path.startsWith(`./locales/${language}/`))
      .map(async ([path, load]) => {
        const namespace = path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
        i18n.addResourceBundle(language, namespace, (await load()).default, true, true);
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
  await Promise.all([
    loadCatalogues(language),
    loadFont(language),
    loadDayjsLocale(language),
    rtl ? loadRtlCache() : undefined,
  ]);
  if (call !== latest) return;
  setCurrentLanguage(language);
  document.documentElement.lang = language;
  document.documentElement.dir = rtl ? 'rtl' : 'ltr';
  await i18n.changeLanguage(language);
}

/** The language for an account's choice (null: none), else the browser's, else English. */
export function languageFor(chosen: string | null | undefined): Language {
  return resolveLanguage(chosen, browserLanguages());
}
