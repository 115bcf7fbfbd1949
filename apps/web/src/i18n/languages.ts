import type { ParentLanguage } from '@tuitiondesk/contract';

/**
 * The languages the console and the parent app speak: the families' languages (English first, the
 * default). Written out rather than imported from the contract, so that the parent app, which reads
 * this list, does not load the contract's schemas; the types below keep the two lists the same.
 */
export const LANGUAGES = ['en', 'hi', 'mr', 'ta', 'bn', 'ur'] as const;
export type Language = (typeof LANGUAGES)[number];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameAsContract: Same<Language, ParentLanguage> = true;
void sameAsContract;
export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * Each language's name in itself, as a language menu shows it whatever language is in use (a reader
 * finds their own language by its own script), and whether it is written right to left.
 */
export const LANGUAGE_INFO: Readonly<Record<Language, { name: string; rtl: boolean }>> = {
  en: { name: 'English', rtl: false },
  hi: { name: 'हिन्दी', rtl: false },
  mr: { name: 'मराठी', rtl: false },
  ta: { name: 'தமிழ்', rtl: false },
  bn: { name: 'বাংলা', rtl: false },
  ur: { name: 'اردو', rtl: true },
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Which language to show: the account's own choice, else the first of the browser's languages that we
 * speak (by its main part: `hi-IN` is Hindi), else English.
 */
export function resolveLanguage(chosen: string | null | undefined, browser: readonly string[]): Language {
  if (isLanguage(chosen)) return chosen;
  for (const tag of browser) {
    const main = tag.toLowerCase().split('-')[0];
    if (isLanguage(main)) return main;
  }
  return DEFAULT_LANGUAGE;
}

export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language].filter(Boolean);
}
