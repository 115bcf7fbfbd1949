import { describe, expect, it } from 'vitest';
import { createStudentSchema, isoDateSchema, normaliseClassName, normalisePhone } from './index';

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
    normaliser: 'normalisePhone',
    normalise: normalisePhone,
    reads: [
      ['+91 98765 43210', '+919876543210'],
      ['+91-98765-43210', '+919876543210'],
      ['0091 98765 43210', '+919876543210'],
      ['919876543210', '+919876543210'],
      [919876543210, '+919876543210'],
      ['+1 (415) 555-0100', '+14155550100'],
    ],
    // No country code, or not a phone.
    refuses: ['9876543210', '09876543210', '+12', '+91 98765 4321x', '', '+0123456789', undefined],
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

  it('trims names and normalises class and phone', () => {
    expect(createStudentSchema.parse({ ...typed, unique_id: 'ignored' })).toEqual({
      full_name: 'Ravi Kumar',
      class_name: '7',
      parent_name: 'Sunil',
      parent_phone: '+919876543210',
    });
  });

  it('explains a phone without a country code', () => {
    const result = createStudentSchema.safeParse({ ...typed, parent_phone: '9876543210' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0]?.message).toBe('must include the country code, e.g. +919876543210');
    expect(result.error?.issues[0]?.path).toEqual(['parent_phone']);
  });
});
