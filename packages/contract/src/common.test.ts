import { describe, expect, it } from 'vitest';
import { createStudentSchema, isoDateSchema, normaliseClassName, normalisePhone } from './index';

describe('normaliseClassName', () => {
  it.each([
    ['7', '7'],
    [' Class 7 ', '7'],
    ['class-8', '8'],
    ['8th', '8'],
    ['9TH', '9'],
    ['Grade 10', '10'],
    ['X', '10'],
    [9, '9'],
    ['10.0', '10'],
  ])('reads %j as class %s', (input, expected) => {
    expect(normaliseClassName(input)).toBe(expected);
  });

  it.each(['6', '11', '7A', '', 'seven', null, 7.5])('refuses %j', (input) => {
    expect(normaliseClassName(input)).toBeUndefined();
  });
});

describe('normalisePhone', () => {
  it.each([
    ['+91 98765 43210', '+919876543210'],
    ['+91-98765-43210', '+919876543210'],
    ['0091 98765 43210', '+919876543210'],
    ['919876543210', '+919876543210'],
    [919876543210, '+919876543210'],
    ['+1 (415) 555-0100', '+14155550100'],
  ])('reads %j as %s', (input, expected) => {
    expect(normalisePhone(input)).toBe(expected);
  });

  it.each(['9876543210', '09876543210', '+12', '+91 98765 4321x', '', '+0123456789', undefined])(
    'refuses %j: no country code or not a phone',
    (input) => {
      expect(normalisePhone(input)).toBeUndefined();
    },
  );
});

describe('isoDateSchema', () => {
  it('takes real dates and refuses impossible or badly written ones', () => {
    expect(isoDateSchema.safeParse('2026-02-28').success).toBe(true);
    expect(isoDateSchema.safeParse('2026-02-30').success).toBe(false);
    expect(isoDateSchema.safeParse('22/11/2026').success).toBe(false);
  });
});

describe('createStudentSchema', () => {
  it('trims names and normalises class and phone', () => {
    const parsed = createStudentSchema.parse({
      full_name: '  Ravi Kumar ',
      class_name: 'Class 7',
      parent_name: ' Sunil ',
      parent_phone: '+91 98765 43210',
      unique_id: 'ignored',
    });
    expect(parsed).toEqual({
      full_name: 'Ravi Kumar',
      class_name: '7',
      parent_name: 'Sunil',
      parent_phone: '+919876543210',
    });
  });

  it('explains a phone without a country code', () => {
    const result = createStudentSchema.safeParse({
      full_name: 'A',
      class_name: '7',
      parent_name: 'B',
      parent_phone: '9876543210',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('must include the country code, e.g. +919876543210');
    expect(result.error?.issues[0]?.path).toEqual(['parent_phone']);
  });
});
