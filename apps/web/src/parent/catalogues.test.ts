/**
 * The parent app's catalogues keep the console's rules (i18n/catalogues.test.ts): every language has
 * every English key and no other, keeps each text's placeholders exactly (none lost, none added), and
 * has each plural text in every form its language needs.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../i18n/languages';
import { ENGLISH } from './i18n';

type Catalogue = { [key: string]: string | Catalogue };

const FILES = import.meta.glob<Catalogue>('./locales/*.json', { eager: true, import: 'default' });

/** `{ a: { b: 'x' } }` → `{ 'a.b': 'x' }` */
function flatten(tree: Catalogue, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string' ? [[prefix + key, value]] : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([^}\s]+)\s*\}\}/g)].map((match) => match[1] as string).sort();
}

function baseKeys(texts: Record<string, string>): Set<string> {
  return new Set(Object.keys(texts).map((key) => key.replace(PLURAL_SUFFIX, '')));
}

const english = flatten(FILES['./locales/en.json'] ?? {});

describe("the parent app's catalogues", () => {
  it('has a file for every language, and none for a language the app does not speak', () => {
    expect(Object.keys(FILES).sort()).toEqual(LANGUAGES.map((language) => `./locales/${language}.json`).sort());
  });

  it('bundles the same English the file holds', () => {
    expect(ENGLISH).toEqual(FILES['./locales/en.json']);
  });

  it("has English's own plural forms for every plural English text", () => {
    for (const key of Object.keys(english).filter((key) => key.endsWith('_other')))
      expect(english, key).toHaveProperty([key.replace(/_other$/, '_one')]);
  });

  for (const language of LANGUAGES.filter((language) => language !== 'en')) {
    describe(language, () => {
      const texts = flatten(FILES[`./locales/${language}.json`] ?? {});

      it('has every English text, and nothing English does not have', () => {
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

      it('keeps every placeholder, and adds none', () => {
        for (const [key, text] of Object.entries(texts)) {
          const base = key.replace(PLURAL_SUFFIX, '');
          const source = english[key] ?? english[`${base}_other`] ?? english[base] ?? '';
          expect(placeholders(text), `${language}:${key}`).toEqual(placeholders(source));
        }
      });

      it('has every plural form the language needs', () => {
        const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
        const plural = [...baseKeys(english)].filter((base) => `${base}_other` in english);
        for (const base of plural) {
          for (const form of forms) expect(texts, `${language}:${base}`).toHaveProperty([`${base}_${form}`]);
        }
      });

      it('keeps the names that are never translated', () => {
        expect(texts['app.brand']).toBe('TuitionDesk');
      });
    });
  }
});
