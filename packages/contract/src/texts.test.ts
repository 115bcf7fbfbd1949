import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { activityTextParams } from './activity-texts';
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

  it('have every English key in every language, no other, each with the same placeholders', () => {
    for (const area of readdirSync(TEXTS)) {
      const english = read('en', area);
      for (const language of LANGUAGES.filter((language) => language !== 'en')) {
        const texts = read(language, area);
        expect(Object.keys(texts).sort(), `${area}/${language}`).toEqual(Object.keys(english).sort());
        for (const [key, text] of Object.entries(texts)) {
          expect(activityTextParams(text).sort(), `${area}/${language}: ${key}`).toEqual(
            activityTextParams(english[key] ?? '').sort(),
          );
        }
      }
    }
  });
});
