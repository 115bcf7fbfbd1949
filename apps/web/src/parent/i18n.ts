import i18next from 'i18next';
import { useMemo, useSyncExternalStore } from 'react';
import { setCurrentLanguage } from '../i18n/current';
import { loadErrorTexts } from '../i18n/error-texts';
import { fontFamilyFor, loadFont } from '../i18n/fonts';
import {
  browserLanguages,
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_INFO,
  LANGUAGES,
  type Language,
  resolveLanguage,
} from '../i18n/languages';
import en from './locales/en.json';

/**
 * The parent app's own texts: a small i18next instance of its own, not the console's (`i18n/index.ts`
 * carries the console's bundled catalogues and its right-to-left style cache, which the parent bundle
 * must not load). One namespace, `parent`: English is bundled; every other language is its own chunk
 * (`locales/<lang>.json`), fetched when that language is first shown, and falls back to English key
 * by key.
 */
export const NAMESPACE = 'parent';

type Catalogue = { [key: string]: string | Catalogue };

const CATALOGUES = import.meta.glob<{ default: Catalogue }>(['./locales/*.json', '!./locales/en.json']);

export const i18n = i18next.createInstance();
void i18n.init({
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: [NAMESPACE],
  defaultNS: NAMESPACE,
  resources: { en: { [NAMESPACE]: en } },
  partialBundledLanguages: true,
  // React escapes what it renders; escaping here too would show '&amp;' for a name with '&'.
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

function onLanguageChange(notify: () => void): () => void {
  i18n.on('languageChanged', notify);
  return () => i18n.off('languageChanged', notify);
}

/**
 * The parent app's `t`, bound to its own instance: components re-render when the language changes.
 * A hook of its own rather than react-i18next's, which would add about 3 KB to the parent bundle.
 */
export function useParentTranslation() {
  const language = useSyncExternalStore(onLanguageChange, () => i18n.language);
  const t = useMemo(() => i18n.getFixedT(language, NAMESPACE), [language]);
  return { t };
}

/** A text in English whatever the language shown, for values compared with the spec's words. */
export function englishText(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, { ...options, lng: DEFAULT_LANGUAGE });
}

/** The language shown now (for formatting outside React). */
export function shownLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

async function loadCatalogue(language: Language): Promise<void> {
  const load = CATALOGUES[`./locales/${language}.json`];
  if (!load || i18n.hasResourceBundle(language, NAMESPACE)) return;
  try {
    i18n.addResourceBundle(language, NAMESPACE, (await load()).default, true, true);
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
  await i18n.changeLanguage(language);
  // The page's title (the tab, the app switcher) too; the installed app's name is the manifest's.
  document.title = i18n.t('signIn.title');
}

/** The service worker says its own few texts (a notification's fallback) in the language shown. */
function tellWorker(language: Language): void {
  try {
    navigator.serviceWorker?.controller?.postMessage({ type: 'language', language });
  } catch {
    // No worker yet: it uses the browser's language until the next time the app shows one.
  }
}
