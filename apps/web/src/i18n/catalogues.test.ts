/**
 * The catalogues' rules: every language has every English key and no other, keeps each text's
 * placeholders exactly (none lost, none added), and has each plural text in every form its language
 * needs; the menu's English names are the routes' own.
 */
import { describe, expect, it } from 'vitest';
import { CONSOLE_ROUTES } from '../app/routes';
import { BUNDLED, ENGLISH, LANGUAGES, NAMESPACES } from '.';
import { CONSOLE_NAMESPACES } from './namespaces.gen';
import { type Catalogue, expectEnglishPlurals, flatten, itKeepsTheRules } from './testing/catalogue-rules';

const FILES = import.meta.glob<Catalogue>('./locales/*/*.json', { eager: true, import: 'default' });

function catalogue(language: string, namespace: string): Catalogue | undefined {
  return FILES[`./locales/${language}/${namespace}.json`];
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

  it("types the keys from every namespace's English: run `npm run texts` after adding a namespace", () => {
    expect([...CONSOLE_NAMESPACES].sort()).toEqual([...NAMESPACES].sort());
  });

  it('bundles the same English the files hold', () => {
    for (const namespace of BUNDLED) expect(ENGLISH[namespace]).toEqual(catalogue('en', namespace));
  });

  for (const language of OTHERS) {
    describe(language, () => {
      for (const namespace of NAMESPACES) {
        itKeepsTheRules(
          `${namespace}: `,
          language,
          flatten(catalogue('en', namespace) ?? {}),
          flatten(catalogue(language, namespace) ?? {}),
        );
      }
    });
  }

  it("has English's own plural forms for every plural English text", () => {
    for (const namespace of NAMESPACES) expectEnglishPlurals(flatten(catalogue('en', namespace) ?? {}));
  });

  it("names every menu page, in English exactly as the route's title", () => {
    const menu = flatten(catalogue('en', 'shell') ?? {});
    for (const route of CONSOLE_ROUTES) expect(menu[`menu.${route.path.slice(1)}`], route.path).toBe(route.title);
    expect(Object.keys(menu).filter((key) => key.startsWith('menu.'))).toHaveLength(CONSOLE_ROUTES.length);
  });
});
