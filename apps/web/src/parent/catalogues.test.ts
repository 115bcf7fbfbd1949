/**
 * The parent app's catalogues keep the console's rules (i18n/catalogues.test.ts): every language has
 * every English key and no other, keeps each text's placeholders exactly (none lost, none added), and
 * has each plural text in every form its language needs.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../i18n/languages';
import { type Catalogue, expectEnglishPlurals, flatten, itKeepsTheRules } from '../i18n/testing/catalogue-rules';
import { ENGLISH } from './i18n';

const FILES = import.meta.glob<Catalogue>('./locales/*.json', { eager: true, import: 'default' });

const english = flatten(FILES['./locales/en.json'] ?? {});

describe("the parent app's catalogues", () => {
  it('has a file for every language, and none for a language the app does not speak', () => {
    expect(Object.keys(FILES).sort()).toEqual(LANGUAGES.map((language) => `./locales/${language}.json`).sort());
  });

  it('bundles the same English the file holds', () => {
    expect(ENGLISH).toEqual(FILES['./locales/en.json']);
  });

  it("has English's own plural forms for every plural English text", () => {
    expectEnglishPlurals(english);
  });

  for (const language of LANGUAGES.filter((language) => language !== 'en')) {
    describe(language, () => {
      const texts = flatten(FILES[`./locales/${language}.json`] ?? {});

      itKeepsTheRules('', language, english, texts);

      it('keeps the names that are never translated', () => {
        expect(texts['app.brand']).toBe('TuitionDesk');
      });
    });
  }
});
