/**
 * The catalogues' rules, for the console's (`i18n/catalogues.test.ts`) and the parent app's
 * (`parent/catalogues.test.ts`) alike: a language has every English key and no other, keeps each
 * text's `{{placeholders}}` exactly, and has each plural text in every form its language needs.
 */
import { expect, it } from 'vitest';

export type Catalogue = { [key: string]: string | Catalogue };

/** `{ a: { b: 'x' } }` → `{ 'a.b': 'x' }` */
export function flatten(tree: Catalogue, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string' ? [[prefix + key, value]] : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );
}

export const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

export function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([^}\s]+)\s*\}\}/g)].map((match) => match[1] as string).sort();
}

/** A text's keys without their plural forms: `marksWaiting_one` and `marksWaiting_other` are `marksWaiting`. */
export function baseKeys(texts: Record<string, string>): Set<string> {
  return new Set(Object.keys(texts).map((key) => key.replace(PLURAL_SUFFIX, '')));
}

/** The three rules for one language's catalogue against English (both flattened), as tests named by `label`. */
export function itKeepsTheRules(
  label: string,
  language: string,
  english: Record<string, string>,
  texts: Record<string, string>,
): void {
  it(`${label}has every English text, and nothing English does not have`, () => {
    const englishBase = baseKeys(english);
    const own = baseKeys(texts);
    expect(
      [...englishBase].filter((key) => !own.has(key)),
      'missing',
    ).toEqual([]);
    expect(
      [...own].filter((key) => !englishBase.has(key)),
      'not in English',
    ).toEqual([]);
    expect(
      Object.entries(texts).filter(([, text]) => text.trim() === ''),
      'empty',
    ).toEqual([]);
  });

  it(`${label}keeps every placeholder, and adds none`, () => {
    for (const [key, text] of Object.entries(texts)) {
      const base = key.replace(PLURAL_SUFFIX, '');
      const source = english[key] ?? english[`${base}_other`] ?? english[base] ?? '';
      expect(placeholders(text), `${language}:${label}${key}`).toEqual(placeholders(source));
    }
  });

  it(`${label}has every plural form the language needs`, () => {
    const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    const plural = [...baseKeys(english)].filter((base) => `${base}_other` in english);
    for (const base of plural) {
      for (const form of forms) expect(texts, `${language}:${label}${base}`).toHaveProperty([`${base}_${form}`]);
    }
  });
}

/** English has `_one` beside each `_other`. */
export function expectEnglishPlurals(english: Record<string, string>): void {
  for (const key of Object.keys(english).filter((key) => key.endsWith('_other')))
    expect(english, key).toHaveProperty([key.replace(/_other$/, '_one')]);
}
