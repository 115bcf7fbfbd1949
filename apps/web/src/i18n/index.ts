import i18next, { type BackendModule, type ParseKeys, type Resource, type ResourceKey } from 'i18next';

export type { ParseKeys, TFunction } from 'i18next';

import { initReactI18next, useTranslation } from 'react-i18next';
import { loadActivityTexts } from './activity-text-files';
import { setClassWord } from './class-names';
import { setCurrentLanguage } from './current';
import { loadDayjsLocale } from './date-locales';
import { loadRtlCache } from './direction';
import { loadErrorTexts } from './error-texts';
import { loadFont } from './fonts';
import { browserLanguages, DEFAULT_LANGUAGE, LANGUAGE_INFO, type Language, resolveLanguage } from './languages';
import enApp from './locales/en/app.json';
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
 * The English of every namespace, each its own chunk, loaded when a screen first asks for the namespace
 * (`useTranslation('students')`: see `BACKEND`), and for the pseudo-locale, which is made from it. Its
 * file names are the catalogues' namespaces, one per area of the app.
 */
const ENGLISH_FILES = import.meta.glob<{ default: Catalogue }>('./locales/en/*.json');
type Catalogue = { [key: string]: string | Catalogue };

export const NAMESPACES: readonly string[] = Object.keys(ENGLISH_FILES).map(namespaceOf);

/**
 * The namespaces of the sign-in page, the shell and the dashboard, and of the page spinner and the
 * toasts (`app`, what shows while any other namespace loads): bundled, so they render at once.
 */
export const BUNDLED = ['common', 'auth', 'shell', 'dashboard', 'app'] as const;

/** English is bundled for these; every other language falls back to English key by key. */
export const ENGLISH = {
  common: enCommon,
  auth: enAuth,
  shell: enShell,
  dashboard: enDashboard,
  app: enApp,
} satisfies Record<(typeof BUNDLED)[number], unknown>;

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

/**
 * Finds a namespace by convention, `locales/<lang>/<namespace>.json`: i18next asks for it (in the
 * language in use and in English, its fallback) when a component's `useTranslation` first names it,
 * and the component suspends until it is there (the pages render inside a Suspense boundary with the
 * page spinner). No screen registers its texts.
 */
const BACKEND: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, done) {
    const catalogue =
      language === PSEUDO_LANGUAGE
        ? pseudoFile(namespace)
        : (language === DEFAULT_LANGUAGE ? ENGLISH_FILES : CATALOGUES)[`./locales/${language}/${namespace}.json`]?.();
    if (!catalogue) return done(null, {});
    catalogue.then(
      (file) => done(null, file.default as ResourceKey),
      (error: unknown) => done(error instanceof Error ? error.message : String(error), null),
    );
  },
};

export const i18n = i18next.createInstance();
// Errors and activities name a spec class with the dashboard's class word ('कक्षा 7', ADR 054).
setClassWord((lng, name) => i18n.t('dashboard:myClasses.className', { lng, name }));
void i18n
  .use(BACKEND)
  .use(initReactI18next)
  .init({
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
    react: { useSuspense: true },
  });

/**
 * A text in English whatever the language in use, for code that compares with the spec's words. It
 * reads the English already loaded: a screen's namespace is by the time the screen renders (its
 * `useTranslation` waits for it), the bundled ones always, and in the tests every one (`test-setup.ts`).
 */
export function englishText(key: ConsoleKey, options?: Record<string, unknown>): string {
  return (i18n.t as (key: string, options: Record<string, unknown>) => string)(key, { ...options, lng: 'en' });
}

/** Any key of the console's texts with its namespace: `students:dialog.consent`. */
export type ConsoleKey = { [N in keyof EnglishResources]: `${N}:${ParseKeys<N>}` }[keyof EnglishResources];

/**
 * Fetches the English of every namespace not yet loaded: in the background once the first page has
 * shown, so the other pages (their code is fetched then too) render at once when opened; and with
 * another language's catalogues, whose screens then never ask for their English, which `englishText`
 * reads.
 */
export async function loadEnglish(): Promise<void> {
  await Promise.all(
    Object.entries(ENGLISH_FILES)
      .filter(([path]) => !i18n.hasResourceBundle(DEFAULT_LANGUAGE, namespaceOf(path)))
      .map(async ([path, load]) => {
        i18n.addResourceBundle(DEFAULT_LANGUAGE, namespaceOf(path), (await load()).default, true, true);
      }),
  );
}

/** Fetches a language's catalogues once, every namespace at once, and the English beside them. */
export async function loadCatalogues(language: string): Promise<void> {
  if (language === DEFAULT_LANGUAGE || i18n.hasResourceBundle(language, BUNDLED[0])) return;
  if (language === PSEUDO_LANGUAGE) return loadPseudoCatalogues();
  await Promise.all([
    loadEnglish(),
    ...Object.entries(CATALOGUES)
      .filter(([path]) => path.startsWith(`./locales/${language}/`))
      .map(async ([path, load]) => {
        i18n.addResourceBundle(language, namespaceOf(path), (await load()).default, true, true);
      }),
  ]);
}

/** A namespace of the pseudo-locale, made from its English (a test's language: see `pseudo.ts`). */
async function pseudoFile(namespace: string): Promise<{ default: Catalogue }> {
  const [{ pseudoCatalogue }, english] = await Promise.all([
    import('./pseudo'),
    ENGLISH_FILES[`./locales/en/${namespace}.json`]?.() ?? { default: {} },
  ]);
  return { default: pseudoCatalogue(english.default) };
}

/** The pseudo-locale's catalogues, made from every English one. */
async function loadPseudoCatalogues(): Promise<void> {
  await Promise.all([
    loadEnglish(),
    ...NAMESPACES.map(async (namespace) => {
      i18n.addResourceBundle(PSEUDO_LANGUAGE, namespace, (await pseudoFile(namespace)).default, true, true);
    }),
  ]);
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
