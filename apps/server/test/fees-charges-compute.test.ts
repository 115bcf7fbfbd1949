import { describe, expect, it } from 'vitest';
import {
  daysInMonth,
  daysWithCentre,
  discountOf,
  dueOn,
  monthlyCharge,
  packagesStarted,
  prorate,
  shiftMonth,
  tuitionDiscount,
} from '../src/modules/fees/charges-compute';

// The charge run's arithmetic (ADR 052), without a database.
describe('months', () => {
  it('knows each month’s length, leap Februaries too, and steps across years', () => {
    expect(daysInMonth('2026-02')).toBe(28);
    expect(daysInMonth('2028-02')).toBe(29);
    expect(daysInMonth('2026-11')).toBe(30);
    expect(daysInMonth('2026-12')).toBe(31);
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2027-01', -1)).toBe('2026-12');
    expect(dueOn('2026-11', 5)).toBe('2026-11-05');
  });

  it('counts the days a student was with the centre, the day they joined and the day they left included', () => {
    expect(daysWithCentre('2026-11', '2026-01-10', null)).toBe(30);
    expect(daysWithCentre('2026-11', '2026-11-16', null)).toBe(15);
    expect(daysWithCentre('2026-11', '2026-11-01', '2026-11-10')).toBe(10);
    expect(daysWithCentre('2026-11', '2026-11-10', '2026-11-10')).toBe(1);
    expect(daysWithCentre('2026-11', '2026-12-01', null)).toBe(0);
    expect(daysWithCentre('2026-11', '2026-01-01', '2026-10-31')).toBe(0);
  });
});

describe('proration', () => {
  it('charges the whole month to a student there all month and nothing to one never there', () => {
    expect(prorate(150_000, 30, 30)).toBe(150_000);
    expect(prorate(150_000, 0, 30)).toBe(0);
  });

  it('rounds to the nearest paisa, a half paisa up, the same every time', () => {
    expect(prorate(100_000, 15, 30)).toBe(50_000);
    expect(prorate(100, 1, 3)).toBe(33); // 33.33
    expect(prorate(100, 2, 3)).toBe(67); // 66.67
    expect(prorate(1, 1, 2)).toBe(1); // 0.5 goes up
    expect(prorate(3, 1, 2)).toBe(2); // 1.5 goes up
    expect(prorate(1_000_000_000, 17, 31)).toBe(548_387_097); // 548387096.77, no float drift at ₹1 crore
  });

  it('prorates a monthly plan for a mid-month join and a mid-month leave', () => {
    expect(monthlyCharge(300_000, '2026-11', '2026-11-21', null)).toEqual({ amount: 100_000, days: 10 });
    expect(monthlyCharge(310_000, '2026-12', '2026-01-01', '2026-12-10')).toEqual({ amount: 100_000, days: 10 });
  });
});

describe('discounts', () => {
  it('takes a percent rounded down to the paisa, or a flat sum never beyond the charge', () => {
    expect(discountOf(99_999, { mode: 'percent', value: 10 })).toBe(9_999);
    expect(discountOf(50_000, { mode: 'flat', value: 20_000 })).toBe(20_000);
    expect(discountOf(10_000, { mode: 'flat', value: 20_000 })).toBe(10_000);
    expect(discountOf(10_000, { mode: 'none', value: 50 })).toBe(0);
    expect(discountOf(10_000, { mode: 'percent', value: 0 })).toBe(0);
  });

  it('gives the larger of a staff child’s and a later sibling’s, never both', () => {
    const rules = { sibling: { mode: 'percent', value: 10 }, staffChild: { mode: 'flat', value: 5_000 } } as const;
    expect(tuitionDiscount(100_000, { isStaffChild: true, isLaterSibling: true, ...rules })).toBe(10_000);
    expect(tuitionDiscount(30_000, { isStaffChild: true, isLaterSibling: true, ...rules })).toBe(5_000);
    expect(tuitionDiscount(30_000, { isStaffChild: false, isLaterSibling: false, ...rules })).toBe(0);
  });
});

describe('packages', () => {
  it('starts the first package on joining and the next when the sessions before are used up', () => {
    expect(packagesStarted(0, 10)).toBe(1);
    expect(packagesStarted(10, 10)).toBe(1);
    expect(packagesStarted(11, 10)).toBe(2);
    expect(packagesStarted(25, 10)).toBe(3);
  });
});
