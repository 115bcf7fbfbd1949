/**
 * The parent app's texts (`packages/contract/texts/parent/<lang>.json`, ADR 041) keep the rules of the
 * texts the server sends by code (i18n/testing/coded-text-rules.ts): every language has every English
 * key and no other, keeps each text's placeholders exactly (none lost, none added), and has each
 * plural in every form its language needs.
 */
import { errorTextBranches, errorTextParams, formatErrorText } from '@tuitiondesk/contract/error-codes';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../i18n/languages';
import { itKeepsTheCodes } from '../i18n/testing/coded-text-rules';
import { ENGLISH } from './i18n';

const FILES = import.meta.glob<Record<string, string>>('../../../../packages/contract/texts/parent/*.json', {
  eager: true,
  import: 'default',
});

function texts(language: string): Record<string, string> | undefined {
  return FILES[`../../../../packages/contract/texts/parent/${language}.json`];
}

const english = texts('en') ?? {};

describe("the parent app's texts", () => {
  it('has a file for every language, and none for a language the app does not speak', () => {
    expect(Object.keys(FILES).sort()).toEqual(
      LANGUAGES.map((language) => `../../../../packages/contract/texts/parent/${language}.json`).sort(),
    );
  });

  it('bundles the same English the file holds', () => {
    expect(ENGLISH).toEqual(english);
  });

  it("has English's own plural forms for every plural English text", () => {
    for (const [key, text] of Object.entries(english)) {
      if (!/\{\s*\w+\s*,\s*plural\s*,/.test(text)) continue;
      expect(text, key).toMatch(/\bone\s*\{/);
      expect(text, key).toMatch(/\bother\s*\{/);
    }
  });

  for (const language of LANGUAGES.filter((language) => language !== 'en')) {
    describe(language, () => {
      const own = texts(language) ?? {};

      itKeepsTheCodes(language, own, {
        english,
        params: errorTextParams,
        branches: errorTextBranches,
        fill: formatErrorText,
      });

      it('keeps the names that are never translated', () => {
        expect(own['app.brand']).toBe('TuitionDesk');
      });
    });
  }
});
