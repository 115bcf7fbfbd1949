import { describe, expect, it } from 'vitest';
import { formatAccessCode, normaliseAccessCode, parentSignInLink } from './parents';

describe('access codes', () => {
  it('reads what people type: any case, spaces, dashes, O for 0 and I or L for 1', () => {
    expect(normaliseAccessCode('abcd-ef23')).toBe('ABCDEF23');
    expect(normaliseAccessCode(' AB CD EF 23 ')).toBe('ABCDEF23');
    expect(normaliseAccessCode('oOiL-2345')).toBe('0011' + '2345');
  });

  it('refuses what cannot be a code', () => {
    expect(normaliseAccessCode('ABCDEF2')).toBeUndefined();
    expect(normaliseAccessCode('ABCDEF234')).toBeUndefined();
    expect(normaliseAccessCode('ABCDEFU3')).toBeUndefined();
    expect(normaliseAccessCode('')).toBeUndefined();
  });

  it('formats a raw or an already formatted code the same way', () => {
    expect(formatAccessCode('ABCDEF23')).toBe('ABCD-EF23');
    expect(formatAccessCode('ABCD-EF23')).toBe('ABCD-EF23');
  });

  it('puts phone and code in the fragment of the parent link, never in the query', () => {
    const link = parentSignInLink('https://centre.example/', '+919876543210', 'ABCD-EF23');
    expect(link).toBe('https://centre.example/parent/#phone=%2B919876543210&code=ABCD-EF23');
    expect(new URL(link).search).toBe('');
  });
});
