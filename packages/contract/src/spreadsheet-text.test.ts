import { describe, expect, it } from 'vitest';
import { startsLikeFormula } from './spreadsheet-text';

describe('startsLikeFormula: the one rule every export guards text with', () => {
  it.each([
    '=HYPERLINK("http://evil")',
    '+919812345670',
    '-2+3',
    '@SUM(A1:A9)',
    '\tcmd',
    '\r=1',
    '＝1+1',
    '＋91 98123',
    '－1',
    '＠SUM(A1)',
  ])('says %j would run', (text) => {
    expect(startsLikeFormula(text)).toBe(true);
  });

  it.each(['Meera Iyer', 'Asha = top', ' =1', '', '1250.00', 'R/2026-27/000123', 'मीरा'])(
    'leaves %j as text',
    (text) => {
      expect(startsLikeFormula(text)).toBe(false);
    },
  );
});
