import type { Language } from './languages';

/**
 * The date pickers' month and day names for each language (dayjs's locales), fetched with the
 * language; English is dayjs's own. Loading one registers it without making it dayjs's global.
 */
const LOCALES: Partial<Record<Language, () => Promise<unknown>>> = {
  hi: () => import('dayjs/locale/hi'),
  mr: () => import('dayjs/locale/mr'),
  ta: () => import('dayjs/locale/ta'),
  bn: () => import('dayjs/locale/bn'),
  ur: () => import('dayjs/locale/ur'),
};

const loaded = new Set<string>(['en']);

export async function loadDayjsLocale(language: Language): Promise<void> {
  const load = LOCALES[language];
  if (!load || loaded.has(language)) return;
  try {
    await load();
    loaded.add(language);
  } catch {
    // The pickers stay in English rather than the language failing to show.
  }
}

/** The pickers' locale for a language: its own once fetched, else English. */
export function dayjsLocale(language: string): string {
  return loaded.has(language) ? language : 'en';
}
