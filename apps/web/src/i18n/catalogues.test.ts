/**
 * The catalogues' rules: every language has every English key and no other, keeps each text's
 * placeholders exactly (none lost, none added), and has each plural text in every form its language
 * needs; the menu's English names are the routes' own.
 */
import { describe, expect, it } from 'vitest';
import { CONSOLE_ROUTES } from '../app/routes';
import { BUNDLED, ENGLISH, LANGUAGES, NAMESPACES } from '.';

type Catalogue = { [key: string]: string | Catalogue };

const FILES = import.meta.glob<Catalogue>('./locales/*/*.json', { eager: true, import: 'default' });

function catalogue(language: string, namespace: string): Catalogue | undefined {
  return FILES[`./locales/${language}/${namespace}.json`];
}

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

/** A text's keys without their plural forms: `marksWaiting_one` and `marksWaiting_other` are `marksWaiting`. */
function baseKeys(texts: Record<string, string>): Set<string> {
  return new Set(Object.keys(texts).map((key) => key.replace(PLURAL_SUFFIX, '')));
}

const OTHERS = LANGUAGES.filter((language) => language !== 'en');

describe('the catalogues', () => {
  it('has a file for every language and namespace, and no namespace the app does not know', () => {
    for (const language of LANGUAGES) {
      for (const namespace of NAMESPACES)
        expect(catalogue(language, namespace), `${language}/${namespace}`).toBeDefined();
    }
    const known = new Set<string>(NAMESPACES);
    const stray = Object.keys(FILES).filter((path) => !known.has(path.slice(path.lastIndexOf('/') + 1, -5)));
    expect(stray).toEqual([]);
  });

  it('bundles the same English the files hold', () => {
    for (const namespace of BUNDLED) expect(ENGLISH[namespace]).toEqual(catalogue('en', namespace));
  });

  for (const language of OTHERS) {
    describe(language, () => {
      for (const namespace of NAMESPACES) {
        const english = flatten(catalogue('en', namespace) ?? {});
        const texts = flatten(catalogue(language, namespace) ?? {});

        it(`${namespace}: has every English text, and nothing English does not have`, () => {
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

        it(`${namespace}: keeps every placeholder, and adds none`, () => {
          for (const [key, text] of Object.entries(texts)) {
            const base = key.replace(PLURAL_SUFFIX, '');
            const source = english[key] ?? english[`${base}_other`] ?? english[base] ?? '';
            expect(placeholders(text), `${language}/${namespace}:${key}`).toEqual(placeholders(source));
          }
        });

        it(`${namespace}: has every plural form the language needs`, () => {
          const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
          const plural = [...baseKeys(english)].filter((base) => `${base}_other` in english);
          for (const base of plural) {
            for (const form of forms)
              expect(texts, `${language}/${namespace}:${base}`).toHaveProperty([`${base}_${form}`]);
          }
        });
      }
    });
  }

  it("has English's own plural forms for every plural English text", () => {
    for (const namespace of NAMESPACES) {
      const english = flatten(catalogue('en', namespace) ?? {});
      for (const key of Object.keys(english).filter((key) => key.endsWith('_other'))) {
        expect(english, key).toHaveProperty([key.replace(/_other$/, '_one')]);
      }
    }
  });

  it("names every menu page, in English exactly as the route's title", () => {
    const menu = flatten(catalogue('en', 'shell') ?? {});
    for (const route of CONSOLE_ROUTES) expect(menu[`menu.${route.path.slice(1)}`], route.path).toBe(route.title);
    expect(Object.keys(menu).filter((key) => key.startsWith('menu.'))).toHaveLength(CONSOLE_ROUTES.length);
  });
});
