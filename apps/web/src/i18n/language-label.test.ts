import { PARENT_LANGUAGE_LABELS, PARENT_LANGUAGES } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n, showLanguage } from '.';
import { languageLabel } from './language-label';

afterEach(() => showLanguage('en'));

describe("a family's language as staff read it", () => {
  it("is the contract's label in English", () => {
    for (const code of PARENT_LANGUAGES)
      expect(languageLabel((key) => i18n.t(key, { ns: 'common' }), code)).toBe(PARENT_LANGUAGE_LABELS[code]);
  });

  it('is the own name with the name in the language in use, once where they are the same', async () => {
    await showLanguage('hi');
    expect(languageLabel((key) => i18n.t(key, { ns: 'common' }), 'hi')).toBe('हिन्दी');
    expect(languageLabel((key) => i18n.t(key, { ns: 'common' }), 'ta')).toBe('தமிழ் (तमिल)');
    expect(languageLabel((key) => i18n.t(key, { ns: 'common' }), 'en')).toBe('अंग्रेज़ी');
    await showLanguage('ur');
    expect(languageLabel((key) => i18n.t(key, { ns: 'common' }), 'ur')).toBe('اردو');
    expect(languageLabel((key) => i18n.t(key, { ns: 'common' }), 'bn')).toBe('বাংলা (بنگالی)');
  });
});
