/**
 * The activity feed in every language: each language has a text for every code of the contract's
 * activity catalogue, with the same placeholders (a day stays a day) and no other, each plural with
 * the forms its language needs; and an activity shows in the language in use, else as its stored English.
 */
import {
  ACTIVITY_TEXTS,
  activityTextBranches,
  activityTextParams,
  formatActivityText,
} from '@tuitiondesk/contract/activity-texts';
import { afterEach, describe, expect, it } from 'vitest';
import { showLanguage } from '.';
import { translatedActivity } from './activity-texts';
import { LANGUAGES } from './languages';
import { itKeepsTheCodes } from './testing/coded-text-rules';

const FILES = import.meta.glob<Record<string, string>>('../../../../packages/contract/texts/activities/*.json', {
  eager: true,
  import: 'default',
});
const ENGLISH: Record<string, string> = ACTIVITY_TEXTS;

const dates = (text: string) => [...text.matchAll(/\{(\w+), date\}/g)].map((match) => match[1]).sort();
const selects = (text: string) =>
  [...text.matchAll(/\{(\w+), select,((?:[^{}]|\{[^{}]*\})*)\}/g)]
    .map((match) => `${match[1]}: ${[...(match[2] ?? '').matchAll(/(\w+)\s*\{/g)].map((key) => key[1]).join(' ')}`)
    .sort();

afterEach(() => showLanguage('en'));

for (const language of LANGUAGES.filter((language) => language !== 'en')) {
  describe(`${language}: the activity feed`, () => {
    const texts = FILES[`../../../../packages/contract/texts/activities/${language}.json`] ?? {};
    itKeepsTheCodes(language, texts, {
      english: ENGLISH,
      params: activityTextParams,
      branches: activityTextBranches,
      fill: (text, params) => formatActivityText(text, params, { day: () => 'DAY' }),
    });

    it('keeps each day a day and each select its values', () => {
      for (const [code, text] of Object.entries(texts)) {
        const english = ENGLISH[code] ?? '';
        expect(dates(text), code).toEqual(dates(english));
        expect(selects(text), code).toEqual(selects(english));
      }
    });
  });
}

describe('an activity on screen', () => {
  const params = { actor: 'Mrs Rao', count: 3, classes: '8, 9', class_count: 2, date: '2026-11-23' };

  it('has no translation in English: the stored description is the English', () => {
    expect(translatedActivity('attendance.marked', params)).toBeUndefined();
  });

  it('says the erasure\'s "[removed]" in the language in use, as the audit log does', async () => {
    await showLanguage('hi');
    expect(translatedActivity('messages.whatsapp_off_by_reply', { actor: '[removed]', phone: '[removed]' })).toBe(
      '[हटाया गया] ([हटाया गया]) ने STOP लिखकर व्हाट्सऐप संदेश बंद किए',
    );
  });

  it('fills the translation in the language in use, days in its form, names as written', async () => {
    await showLanguage('hi');
    expect(translatedActivity('attendance.marked', params)).toBe(
      'Mrs Rao ने कक्षा 8, 9 के 3 विद्यार्थियों की 23 नवंबर 2026 की उपस्थिति दर्ज की',
    );
    await showLanguage('ur');
    expect(translatedActivity('attendance.marked', { ...params, count: 1, classes: '9', class_count: 1 })).toBe(
      'Mrs Rao نے جماعت 9 کے 1 طالب علم کی 23 نومبر، 2026 کی حاضری درج کی',
    );
  });

  it('leaves an older row (no code), an unknown code and params that do not fill it to the stored English', async () => {
    await showLanguage('hi');
    expect(translatedActivity(null, null)).toBeUndefined();
    expect(translatedActivity('attendance.something_new', params)).toBeUndefined();
    expect(translatedActivity('attendance.marked', { actor: 'Mrs Rao' })).toBeUndefined();
  });
});
