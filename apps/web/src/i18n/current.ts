import type { Language } from './languages';

/**
 * The language in use, for code outside React that formats for it (dates, numbers). Kept apart from
 * the i18next instance so that importing it costs nothing.
 */
let current: Language = 'en';

export function currentLanguage(): Language {
  return current;
}

export function setCurrentLanguage(language: Language): void {
  current = language;
}
