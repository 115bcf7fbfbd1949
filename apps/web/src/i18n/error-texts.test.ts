/**
 * The server's errors in every language: each language has a text for every code of the contract's
 * catalogue, of the client's own and of the finer ones a phone's problem kind names, with the same
 * placeholders and no other, each plural with the forms its language needs; and a coded error shows
 * in the language in use, else as the English detail.
 */
import { ERROR_CODES, errorTextBranches, errorTextParams, formatErrorText } from '@tuitiondesk/contract/error-codes';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, errorText } from '../lib/api-error';
import { showLanguage } from '.';
import { LANGUAGES } from './languages';
import { itKeepsTheCodes } from './testing/coded-text-rules';

const FILES = import.meta.glob<Record<string, string>>(
  ['../../../../packages/contract/texts/errors/*.json', '../../../../packages/contract/texts/client-errors/*.json'],
  { eager: true, import: 'default' },
);
/** A language's texts of the server's codes and the client's own, as `loadErrorTexts` fetches them. */
function texts(language: string): Record<string, string> {
  return Object.assign(
    {},
    ...Object.entries(FILES)
      .filter(([path]) => path.endsWith(`/${language}.json`))
      .map(([, file]) => file),
  );
}
const ENGLISH: Record<string, string> = { ...texts('en'), ...ERROR_CODES };

afterEach(() => showLanguage('en'));

for (const language of LANGUAGES.filter((language) => language !== 'en')) {
  describe(`${language}: the server's errors`, () => {
    itKeepsTheCodes(language, texts(language), {
      english: ENGLISH,
      params: errorTextParams,
      branches: errorTextBranches,
      fill: formatErrorText,
    });
  });
}

describe('a coded error on screen', () => {
  const notFound = new ApiError(404, 'Student with id 42 was not found', {
    detail: 'Student with id 42 was not found',
    code: 'student.not_found_by_id',
    params: { id: 42 },
  });

  it('shows the English detail in English', () => {
    expect(errorText(notFound, 'Failed to fetch students')).toBe('Student with id 42 was not found');
  });

  it('shows the translation in the language in use, filled with its params', async () => {
    await showLanguage('hi');
    const shown = errorText(notFound, 'fallback');
    expect(shown).toContain('42');
    expect(shown).not.toBe('Student with id 42 was not found');
  });

  it('shows the English detail for a code it has no text for, and the fallback when there is neither', async () => {
    await showLanguage('hi');
    const newer = new ApiError(409, 'Something new happened', {
      detail: 'Something new happened',
      code: 'future.thing',
    });
    expect(errorText(newer, 'fallback')).toBe('Something new happened');
    expect(errorText(new ApiError(500, undefined), 'कुछ गलत हुआ')).toBe('कुछ गलत हुआ');
    expect(errorText(new Error('boom'), 'कुछ गलत हुआ')).toBe('कुछ गलत हुआ');
  });

  it('words a phone problem by its kind and numbers, not by the English message it carries', async () => {
    const phone = (params: Record<string, string | number>, message: string) =>
      new ApiError(422, `phone: ${message}`, {
        detail: `phone: ${message}`,
        code: 'validation.phone',
        params: { field: 'phone', message, ...params },
      });
    const short = phone(
      { kind: 'local', digits: 9, country_code: '+91' },
      'Enter the phone number with 10 digits (this one has 9), or with its country code, e.g. +91 98123 45670',
    );
    const zero = phone(
      { kind: 'international', digits: 10 },
      'A country code never starts with 0: check the phone number after the +, e.g. +91 98123 45670',
    );
    const long = phone(
      { kind: 'international', digits: 17 },
      'After the + come the country code and the number, 8 to 15 digits in all (this one has 17): check the phone number',
    );
    const blank = phone({ kind: 'local', digits: 0, country_code: '+91' }, 'Enter the phone number');
    expect(errorText(short, 'fallback')).toBe(short.detail);
    await showLanguage('hi');
    expect(errorText(short, 'fallback')).toBe(
      'phone: फ़ोन नंबर उसके पूरे अंकों के साथ दर्ज करें (इसमें 9 अंक हैं), या देश कोड (+91) के साथ',
    );
    expect(errorText(blank, 'fallback')).toBe('phone: फ़ोन नंबर उसके पूरे अंकों के साथ दर्ज करें, या देश कोड (+91) के साथ');
    expect(errorText(zero, 'fallback')).toContain('0 से शुरू नहीं');
    expect(errorText(long, 'fallback')).toContain('(इसमें 17 हैं)');
    // A kind this client does not know: the code's own text, which is the English message.
    const newer = phone({ kind: 'something-new' }, 'Something new about this number');
    expect(errorText(newer, 'fallback')).toBe('phone: Something new about this number');
  });
});
