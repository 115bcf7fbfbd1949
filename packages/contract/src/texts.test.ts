import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as TYPED from './texts.gen';

/**
 * The texts' one place (ADR 041): `texts/<area>/<lang>.json`, one file per area and language, and the
 * typed English the contract exports is the English file's, as `npm run texts` last wrote it.
 */
const TEXTS = new URL('../texts/', import.meta.url);
const LANGUAGES = ['en', 'hi', 'mr', 'ta', 'bn', 'ur'];
const AREAS: Record<string, string> = {
  ENGLISH_ERRORS: 'errors',
  ENGLISH_ACTIVITIES: 'activities',
  ENGLISH_FAMILY_TEXTS: 'families',
};

function read(language: string, area: string): Record<string, string> {
  return JSON.parse(readFileSync(new URL(`${area}/${language}.json`, TEXTS), 'utf8'));
}

describe('the texts', () => {
  it('have a file in every area for every language, and none for a language the apps do not speak', () => {
    for (const area of readdirSync(TEXTS)) {
      const files = readdirSync(new URL(`${area}/`, TEXTS)).sort();
      expect(files, area).toEqual(LANGUAGES.map((language) => `${language}.json`).sort());
    }
  });

  it('export the English files as they are: run `npm run texts` after changing one', () => {
    for (const [name, texts] of Object.entries(TYPED)) {
      expect(AREAS[name], name).toBeDefined();
      expect(texts, name).toEqual(read('en', AREAS[name] as string));
    }
  });
});
