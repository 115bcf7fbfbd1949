import type { Language } from './languages';

/**
 * The activity feed's texts per language (`packages/contract/texts/activities/<lang>.json`), fetched with the language by
 * `showLanguage`. Apart from the formatter (`activity-texts.ts`, with the date helpers), so that the
 * sign-in route, which loads this, carries nothing of it.
 */
type Texts = Readonly<Record<string, string>>;

const FILES = import.meta.glob<{ default: Texts }>([
  '../../../../packages/contract/texts/activities/*.json',
  '!../../../../packages/contract/texts/activities/en.json',
]);
const loaded = new Map<string, Texts>();

/** Fetches a language's activity texts once; English and a failed fetch leave the stored English. */
export async function loadActivityTexts(language: Language): Promise<void> {
  const load = FILES[`../../../../packages/contract/texts/activities/${language}.json`];
  if (!load || loaded.has(language)) return;
  try {
    loaded.set(language, (await load()).default);
  } catch {
    // The stored description is still there, in English.
  }
}

/** A language's activity texts, once fetched. */
export function activityTextsIn(language: string): Texts | undefined {
  return loaded.get(language);
}
