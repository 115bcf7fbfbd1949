import { describe, expect, it } from 'vitest';
import {
  createStudentSchema,
  isoDateSchema,
  normaliseClassName,
  normaliseCountryCode,
  normalisePhone,
  phoneProblemText,
  phoneSchema,
  readPhone,
  updatePhoneSettingsSchema,
} from './index';

/** Each normaliser: what it reads, as what, and what it refuses (undefined). */
describe.each([
  {
    normaliser: 'normaliseClassName',
    normalise: normaliseClassName,
    reads: [
      ['7', '7'],
      [' Class 7 ', '7'],
      ['class-8', '8'],
      ['8th', '8'],
      ['9TH', '9'],
      ['Grade 10', '10'],
      ['X', '10'],
      [9, '9'],
      ['10.0', '10'],
    ],
    refuses: ['6', '11', '7A', '', 'seven', null, 7.5],
  },
  {
    // Without a default country code (a phone given by WhatsApp, say), as before: a code is needed.
    normaliser: 'normalisePhone',
    normalise: (value: unknown) => normalisePhone(value),
    reads: [
      ['+91 98765 43210', '+919876543210'],
      ['+91-98765-43210', '+919876543210'],
      ['0091 98765 43210', '+919876543210'],
      ['919876543210', '+919876543210'],
      [919876543210, '+919876543210'],
      ['+1 (415) 555-0100', '+14155550100'],
    ],
    refuses: ['9876543210', '09876543210', '+12', '+91 98765 4321x', '', '+0123456789', undefined],
  },
  {
    normaliser: 'normalisePhone with the centre default +91',
    normalise: (value: unknown) => normalisePhone(value, '+91'),
    reads: [
      // The ways people in India write one mobile number.
      ['98123 45670', '+919812345670'],
      ['098123-45670', '+919812345670'],
      ['+91 98123 45670', '+919812345670'],
      ['0091 9812345670', '+919812345670'],
      ['(981) 234-5670', '+919812345670'],
      ['9812345670', '+919812345670'],
      ['98123.45670', '+919812345670'],
      [' 98123\u00a045670 ', '+919812345670'],
      [9812345670, '+919812345670'],
      // A landline with its area code and trunk 0.
      ['022 2345 6789', '+912223456789'],
      // A spreadsheet dropped the +; a local number that happens to start 91 stays local.
      ['919812345670', '+919812345670'],
      [919812345670, '+919812345670'],
      ['9198123456', '+919198123456'],
      // Other countries' numbers, written with their code, as today.
      ['+1 (415) 555-0100', '+14155550100'],
      ['+44 7400 123456', '+447400123456'],
      ['+91 98123 4567', '+91981234567'],
    ],
    refuses: [
      '98123 4567',
      '98123 456701',
      '0 98123 4567',
      '00 98123 45670 12345 6',
      '+12',
      '+0123456789',
      '98123 4567O',
      'call me',
      '',
      '   ',
      null,
      undefined,
      9812345.5,
      '112',
    ],
  },
  {
    normaliser: 'normalisePhone with a default code of unknown length (+977)',
    normalise: (value: unknown) => normalisePhone(value, '+977'),
    reads: [
      ['984 1234567', '+9779841234567'],
      ['01-4412345', '+97714412345'],
      ['+91 98123 45670', '+919812345670'],
    ],
    refuses: ['12345', '0', '1234567890123456'],
  },
] satisfies {
  normaliser: string;
  normalise: (value: unknown) => string | undefined;
  reads: [unknown, string][];
  refuses: unknown[];
}[])('$normaliser', ({ normalise, reads, refuses }) => {
  it.each(reads)('reads %j as %s', (input, expected) => {
    expect(normalise(input)).toBe(expected);
  });

  it.each(refuses.map((input) => [input]))('refuses %j', (input) => {
    expect(normalise(input)).toBeUndefined();
  });
});

describe('isoDateSchema', () => {
  it('takes real dates and refuses impossible or badly written ones', () => {
    expect(isoDateSchema.safeParse('2026-02-28').success).toBe(true);
    expect(isoDateSchema.safeParse('2026-02-30').success).toBe(false);
    expect(isoDateSchema.safeParse('22/11/2026').success).toBe(false);
  });
});

describe('createStudentSchema', () => {
  /** A student as someone typed them in: stray spaces, a class and a phone written loosely. */
  const typed = {
    full_name: '  Ravi Kumar ',
    class_name: 'Class 7',
    parent_name: ' Sunil ',
    parent_phone: '+91 98765 43210',
  };

  // The class is read against the centre's own list by the server (ADR 043): the schema keeps it as written.
  it('trims names, keeping the class and the phone as written', () => {
    expect(createStudentSchema.parse({ ...typed, unique_id: 'ignored' })).toEqual({
      full_name: 'Ravi Kumar',
      class_name: 'Class 7',
      parent_name: 'Sunil',
      parent_phone: '+91 98765 43210',
    });
  });

  it('keeps the phone as written: the server reads it with the centre default country code', () => {
    expect(createStudentSchema.parse({ ...typed, parent_phone: '98765 43210' }).parent_phone).toBe('98765 43210');
    expect(createStudentSchema.parse({ ...typed, parent_phone: 9876543210 }).parent_phone).toBe('9876543210');
  });

  it('refuses a phone that is not text or a whole number, naming the field', () => {
    const result = createStudentSchema.safeParse({ ...typed, parent_phone: { number: 1 } });
    expect(result.error?.issues[0]?.path).toEqual(['parent_phone']);
    expect(result.error?.issues[0]?.message).toBe('must be a phone number written as text, e.g. +91 98123 45670');
  });
});

describe('phone refusals say what to fix', () => {
  const text = (value: unknown, code?: string, whose?: 'the' | 'your') => {
    const reading = readPhone(value, code);
    if (!('problem' in reading)) throw new Error(`${String(value)} was read as ${reading.phone}`);
    return phoneProblemText(reading.problem, whose);
  };

  it('counts the digits of a local number that is too short or too long', () => {
    expect(text('98123 4567', '+91')).toBe(
      'Enter the phone number with 10 digits (this one has 9), or with its country code, e.g. +91 98123 45670',
    );
    expect(text('098123 456701', '+91')).toBe(
      'Enter the phone number with 10 digits (this one has 11), or with its country code, e.g. +91 98123 45670',
    );
    expect(text('', '+91')).toBe(
      'Enter the phone number with 10 digits, or with its country code, e.g. +91 98123 45670',
    );
    expect(text('7400 1234', '+44')).toBe(
      'Enter the phone number with 9 or 10 digits (this one has 8), or with its country code, e.g. +44 7400 123456',
    );
    expect(text('123', '+977')).toBe(
      'Enter the phone number with all its digits (this one has 3), or with its country code, e.g. +977 and the number',
    );
  });

  it('names the characters to remove', () => {
    expect(text('98123 4567O', '+91')).toBe(
      'Remove "O" from the phone number: digits only, with spaces, dashes or brackets if you like',
    );
    expect(text('98123 45670 ext 12', '+91')).toBe(
      'Remove "ext" from the phone number: digits only, with spaces, dashes or brackets if you like',
    );
    expect(text('+91 98123 4567x or y', '+91')).toBe(
      'Remove "x", "or", "y" from the phone number: digits only, with spaces, dashes or brackets if you like',
    );
  });

  it('asks for the number itself when it has no digits', () => {
    expect(text('call me', '+91')).toBe(
      'Enter the phone number with 10 digits, or with its country code, e.g. +91 98123 45670',
    );
    expect(text('call me')).toBe('Enter the phone number with its country code, e.g. +91 98123 45670');
  });

  it('checks what follows + or 00', () => {
    expect(text('+12', '+91')).toBe(
      'After the + come the country code and the number, 8 to 15 digits in all (this one has 2): check the phone number',
    );
    expect(text('+0123456789', '+91')).toBe(
      'A country code never starts with 0: check the phone number after the +, e.g. +91 98123 45670',
    );
  });

  it('speaks to a parent about their own number', () => {
    expect(text('98123', '+91', 'your')).toBe(
      'Enter your phone number with 10 digits (this one has 5), or with its country code, e.g. +91 98123 45670',
    );
  });

  it('asks for the country code where no default applies', () => {
    expect(text('9812345670')).toBe('Enter the phone number with its country code, e.g. +91 98123 45670');
  });

  it('puts the words on the field through the schema of a country code', () => {
    const result = phoneSchema('+91').safeParse('98123');
    expect(result.error?.issues[0]?.message).toMatch(/^Enter the phone number with 10 digits \(this one has 5\)/);
    expect(phoneSchema('+91').parse('98123 45670')).toBe('+919812345670');
  });
});

describe('country codes', () => {
  it.each([
    ['+91', '+91'],
    ['91', '+91'],
    [' + 44 ', '+44'],
    ['0091', '+91'],
    ['+1', '+1'],
    ['+971', '+971'],
  ])('reads %j as %s', (input, expected) => {
    expect(normaliseCountryCode(input)).toBe(expected);
    expect(updatePhoneSettingsSchema.parse({ default_country_code: input })).toEqual({
      default_country_code: expected,
    });
  });

  it.each(['', '+', '+0', '+9715', '+91a', 'India', '+ 9 1 2 3'])('refuses %j', (input) => {
    const result = updatePhoneSettingsSchema.safeParse({ default_country_code: input });
    expect(result.error?.issues[0]?.message).toBe(
      'must be + and the 1 to 3 digits of a country calling code, e.g. +91 for India or +44 for the UK',
    );
  });
});
