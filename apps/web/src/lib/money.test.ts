import { afterEach, describe, expect, it } from 'vitest';
import { setCurrentLanguage } from '../i18n/current';
import { formatMoney, paiseToInput, parseRupees, rupeesText } from './money';

afterEach(() => setCurrentLanguage('en'));

describe('parseRupees: rupees typed as text become whole paise, never through a float', () => {
  it.each([
    ['1250', 125_000],
    ['1,250.50', 125_050],
    ['1,00,000', 10_000_000],
    ['₹ 1,25,000', 12_500_000],
    ['₹ 12.5', 1250],
    ['Rs. 12.1', 1210],
    ['12.10', 1210],
    ['4.35', 435],
    ['0.29', 29],
    ['0.07', 7],
    ['.5', 50],
    ['12.', 1200],
    ['100000.00', 10_000_000],
    ['10000000', 1_000_000_000],
  ])('%s is %i paise', (text, paise) => {
    expect(parseRupees(text)).toEqual({ paise });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['0', 'zero'],
    ['0.00', 'zero'],
    ['-5', 'negative'],
    ['- 5', 'negative'],
    ['+5', 'format'],
    ['12.345', 'decimals'],
    ['1e3', 'format'],
    ['12a', 'format'],
    ['12,5.5.5', 'format'],
    ['abc', 'format'],
    ['.', 'format'],
    ['10000000.01', 'tooBig'],
    ['999999999999', 'tooBig'],
    ['99999999999999999', 'tooBig'],
  ])('%j is refused (%s)', (text, problem) => {
    expect(parseRupees(text)).toEqual({ problem });
  });

  it('takes 0 where it may be none (a late fee), never a negative', () => {
    expect(parseRupees('0', { allowZero: true })).toEqual({ paise: 0 });
    expect(parseRupees('-1', { allowZero: true })).toEqual({ problem: 'negative' });
  });
});

describe('money shown', () => {
  it('writes paise as rupees with two decimals and Indian grouping, in the language in use', () => {
    expect(formatMoney(125_050, 'en')).toBe('₹1,250.50');
    expect(formatMoney(10_000_000, 'en')).toBe('₹1,00,000.00');
    expect(formatMoney(-25_000, 'en')).toBe('-₹250.00');
    expect(formatMoney(125_050, 'hi')).toBe('₹1,250.50');
    setCurrentLanguage('hi');
    expect(formatMoney(125_000)).toBe('₹1,250.00');
  });

  it('keeps the exact decimal text of any amount, and gives paise back for editing', () => {
    expect(rupeesText(1_000_000_001)).toBe('10000000.01');
    expect(rupeesText(-5)).toBe('-0.05');
    expect(paiseToInput(125050)).toBe('1250.50');
    expect(paiseToInput(150000)).toBe('1500');
    expect(paiseToInput(7)).toBe('0.07');
  });
});
