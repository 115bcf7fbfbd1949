import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode, errorTextBranches, errorTextParams, formatErrorText } from './error-codes';
import { typedNames } from './testing/typed-names';

const entries = Object.entries(ERROR_CODES) as [ErrorCode, string][];

describe('the error catalogue', () => {
  it('names each code once, dotted and lower case', () => {
    // JSON keeps the last of two equal keys silently: the file itself is read.
    const source = readFileSync(new URL('../texts/errors/en.json', import.meta.url), 'utf8');
    const keys = [...source.matchAll(/^ {2}"([^"]+)":/gm)].map((match) => match[1]);
    expect(keys.length).toBe(entries.length);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [code] of entries) expect(code).toMatch(/^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/);
  });

  it("gives every field's failure a text that starts with the field, and no other code one", () => {
    for (const [code, text] of entries) {
      expect({ code, field: text.startsWith('{field}: ') }).toEqual({ code, field: code.startsWith('validation.') });
    }
  });

  it('reads the same params from each text as its type does, and no branch holds a placeholder', () => {
    for (const [code, text] of entries) {
      expect({ code, names: typedNames(text).sort() }).toEqual({ code, names: errorTextParams(text).sort() });
      for (const branch of errorTextBranches(text))
        expect({ code, branch }).toEqual({ code, branch: branch.replace(/[{}]/g, '') });
    }
  });

  it('fills every text from its params, and refuses a text whose param is missing', () => {
    for (const [code, text] of entries) {
      const params = Object.fromEntries(errorTextParams(text).map((name) => [name, 2]));
      const filled = formatErrorText(text, params);
      expect({ code, filled }).toEqual({ code, filled: expect.not.stringMatching(/[{}]/) });
      if (errorTextParams(text).length > 0) expect(() => formatErrorText(text, {})).toThrow(/needs the param/);
    }
  });

  it('chooses plural and select branches, with # as the number', () => {
    expect(formatErrorText(ERROR_CODES['auth.too_many_attempts'], { minutes: 1 })).toBe(
      'Too many sign-in attempts. Try again in 1 minute.',
    );
    expect(formatErrorText(ERROR_CODES['auth.too_many_attempts'], { minutes: 12 })).toBe(
      'Too many sign-in attempts. Try again in 12 minutes.',
    );
    expect(formatErrorText(ERROR_CODES['leave.already_decided_by'], { status: 'pending', name: 'Anita' })).toBe(
      'This leave request was already waiting for the centre by Anita.',
    );
    expect(formatErrorText('{n, plural, =0 {none} one {# item} other {# items}}', { n: 0 })).toBe('none');
    // Another language's plural rules come with its translation.
    expect(formatErrorText('{n, plural, one {# x} few {# y} other {# z}}', { n: 3 }, () => 'few')).toBe('3 y');
  });
});
