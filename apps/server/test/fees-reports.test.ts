import { describe, expect, it } from 'vitest';
import { firstDayOfMonth, today } from '../src/lib/time';
import { testClientForBlock } from './helpers/client';
import { day, feeFamily, pay, postCharge } from './helpers/fees-ledger';
import { detailOf } from './helpers/test-app';

/**
 * The fees reports (ADR 051), each read from the ledger: dues (oldest debt first), a family's
 * statement with its running balance, ageing by days past due, and collections by mode and staff.
 * This file's database holds only what its tests post, so totals are exact.
 */
const api = testClientForBlock();
const admin = () => api().as('admin');

interface Due {
  family_id: number;
  parent_name: string;
  parent_phone: string;
  students: { id: number; full_name: string; class_name: string }[];
  balance_paise: number;
  oldest_due_date: string;
  days_overdue: number;
}
interface Ageing {
  as_of: string;
  buckets: { bucket: string; amount_paise: number; families: number }[];
  total_paise: number;
  families: number;
  overdue_paise: number;
  overdue_families: number;
}
interface Collections {
  from: string;
  to: string;
  amount_paise: number;
  payments: number;
  reversals: number;
  by_mode: { mode: string; amount_paise: number; payments: number; reversals: number }[];
  by_staff: {
    user_id: number | null;
    name: string | null;
    amount_paise: number;
    payments: number;
    reversals: number;
  }[];
}

const get = async <T>(url: string) => {
  const response = await admin().get(url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
};

describe('the fees reports', () => {
  it('lists the families that owe, oldest debt first, with days overdue from the oldest unpaid charge', async () => {
    const recent = await feeFamily(api(), 1, 'Recent Owner');
    const old = await feeFamily(api(), 2, 'Old Owner');
    const paidUp = await feeFamily(api(), 1, 'Paid Up');
    const ahead = await feeFamily(api(), 1, 'Paid Ahead');
    await postCharge(api().db, recent.familyId, recent.children[0] ?? null, 30_000, day(-5));
    await postCharge(api().db, old.familyId, old.children[0] ?? null, 50_000, day(-70));
    await postCharge(api().db, old.familyId, old.children[1] ?? null, 40_000, day(-40));
    await postCharge(api().db, paidUp.familyId, paidUp.children[0] ?? null, 20_000, day(-10));
    await pay(api(), paidUp.familyId, 20_000);
    await pay(api(), ahead.familyId, 10_000);
    // The oldest charge is paid: days overdue count from the oldest one still unpaid.
    await pay(api(), old.familyId, 50_000);

    const dues = await get<Due[]>('/api/v1/fees/dues');
    expect(dues.map((d) => d.family_id)).toEqual([old.familyId, recent.familyId]);
    expect(dues[0]).toMatchObject({
      parent_name: 'Old Owner',
      parent_phone: old.phone,
      balance_paise: 40_000,
      oldest_due_date: day(-40),
      days_overdue: 40,
    });
    expect(dues[0]?.students.map((s) => s.id).sort()).toEqual([...old.children].sort());
    expect(dues[1]).toMatchObject({ balance_paise: 30_000, oldest_due_date: day(-5), days_overdue: 5 });

    // A charge not yet due: the family owes, 0 days overdue.
    const future = await feeFamily(api());
    await postCharge(api().db, future.familyId, future.children[0] ?? null, 5_000, day(3));
    const withFuture = await get<Due[]>('/api/v1/fees/dues');
    expect(withFuture.at(-1)).toMatchObject({ family_id: future.familyId, days_overdue: 0, oldest_due_date: day(3) });
  });

  it("gives a family's statement oldest first with the running balance, agreeing with its balance", async () => {
    const family = await feeFamily(api(), 2);
    const [a, b] = family.children as [number, number];
    await postCharge(api().db, family.familyId, a, 100_000, day(-30));
    await postCharge(api().db, family.familyId, b, 70_000, day(-20));
    const paid = await pay(api(), family.familyId, 120_000, { received_on: day(-10) });
    await admin().post(`/api/v1/fees/payments/${paid.payment_id}/reverse`, { reason: 'Cheque bounced' });
    const statement = await get<{
      family_id: number;
      balance_paise: number;
      entries: {
        date: string;
        kind: string;
        student_id: number | null;
        debit_paise: number;
        credit_paise: number;
        balance_paise: number;
      }[];
    }>(`/api/v1/fees/families/${family.familyId}/statement`);
    expect(statement.family_id).toBe(family.familyId);
    expect(
      statement.entries.map((e) => [e.date, e.kind, e.student_id, e.debit_paise, e.credit_paise, e.balance_paise]),
    ).toEqual([
      [day(-30), 'charge', a, 100_000, 0, 100_000],
      [day(-20), 'charge', b, 70_000, 0, 170_000],
      [day(-10), 'payment', a, 0, 100_000, 70_000],
      [day(-10), 'payment', b, 0, 20_000, 50_000],
      [today(), 'reversal', a, 100_000, 0, 150_000],
      [today(), 'reversal', b, 20_000, 0, 170_000],
    ]);
    expect(statement.balance_paise).toBe(170_000);
    const summary = await get<{ balance_paise: number }>(`/api/v1/fees/families/${family.familyId}`);
    expect(summary.balance_paise).toBe(170_000);
    expect((await admin().get('/api/v1/fees/families/999999/statement')).statusCode).toBe(404);
    expect((await admin().get('/api/v1/fees/families/0/statement')).statusCode).toBe(422);
  });

  it('ages what is owed by days past due, and its total is the dues total', async () => {
    const before = await get<Ageing>('/api/v1/fees/ageing');
    const family = await feeFamily(api());
    const child = family.children[0] ?? null;
    await postCharge(api().db, family.familyId, child, 1_000, day(-100));
    await postCharge(api().db, family.familyId, child, 2_000, day(-75));
    await postCharge(api().db, family.familyId, child, 4_000, day(-45));
    await postCharge(api().db, family.familyId, child, 8_000, day(-31));
    await postCharge(api().db, family.familyId, child, 16_000, day(-30));
    // Pays the 90+ charge and half the 61-90 one.
    await pay(api(), family.familyId, 2_000);
    const after = await get<Ageing>('/api/v1/fees/ageing');
    const delta = Object.fromEntries(
      after.buckets.map((bucket, i) => [
        bucket.bucket,
        [
          bucket.amount_paise - (before.buckets[i]?.amount_paise ?? 0),
          bucket.families - (before.buckets[i]?.families ?? 0),
        ],
      ]),
    );
    expect(delta).toEqual({ '0-30': [16_000, 1], '31-60': [12_000, 1], '61-90': [1_000, 1], '90+': [0, 0] });
    expect(after.families).toBe(before.families + 1);
    // Everything left of those is past its due date (the charge due 30 days ago too); a charge not yet
    // due counts in 0-30 and in the total, never as overdue.
    await postCharge(api().db, family.familyId, child, 32_000, day(3));
    const withFuture = await get<Ageing>('/api/v1/fees/ageing');
    expect(withFuture.overdue_paise - before.overdue_paise).toBe(16_000 + 12_000 + 1_000);
    expect(withFuture.overdue_families - before.overdue_families).toBe(1);
    expect(withFuture.total_paise - after.total_paise).toBe(32_000);
    const dues = await get<Due[]>('/api/v1/fees/dues');
    expect(withFuture.total_paise).toBe(dues.reduce((sum, d) => sum + d.balance_paise, 0));
    expect(withFuture.families).toBe(dues.length);
  });

  it('totals collections by mode and by staff member, less reversals, for today, this month or a range', async () => {
    const before = await get<Collections>('/api/v1/fees/collections?period=today');
    const family = await feeFamily(api());
    await pay(api(), family.familyId, 11_000);
    await pay(api(), family.familyId, 22_000, { mode: 'upi', reference: '512345678901' });
    const bounced = await pay(api(), family.familyId, 33_000, { mode: 'cheque', reference: '778899' });
    await admin().post(`/api/v1/fees/payments/${bounced.payment_id}/reverse`, { reason: 'Bounced' });
    const after = await get<Collections>('/api/v1/fees/collections?period=today');
    expect(after.from).toBe(today());
    expect(after.to).toBe(today());
    expect(after.amount_paise - before.amount_paise).toBe(33_000);
    expect(after.payments - before.payments).toBe(3);
    expect(after.reversals - before.reversals).toBe(1);
    const mode = (c: Collections, m: string) => c.by_mode.find((x) => x.mode === m)?.amount_paise ?? 0;
    expect(mode(after, 'cash') - mode(before, 'cash')).toBe(11_000);
    expect(mode(after, 'upi') - mode(before, 'upi')).toBe(22_000);
    expect(mode(after, 'cheque') - mode(before, 'cheque')).toBe(0);
    expect(after.by_staff.find((s) => s.name === 'Administrator')?.amount_paise).toBe(
      after.by_mode.reduce((sum, m) => sum + m.amount_paise, 0),
    );
    expect(after.by_mode.reduce((sum, m) => sum + m.amount_paise, 0)).toBe(after.amount_paise);

    // A payment counts on the day it was received: one of 40 days ago is in that day's range, not this month's.
    const monthBefore = await get<Collections>('/api/v1/fees/collections?period=month');
    expect(monthBefore.from).toBe(firstDayOfMonth(today()));
    await pay(api(), family.familyId, 44_000, { received_on: day(-40) });
    const monthAfter = await get<Collections>('/api/v1/fees/collections?period=month');
    expect(monthAfter.amount_paise).toBe(monthBefore.amount_paise);
    const thatDay = await get<Collections>(`/api/v1/fees/collections?from=${day(-40)}`);
    expect(thatDay).toMatchObject({ from: day(-40), to: day(-40), amount_paise: 44_000, payments: 1 });
    const range = await get<Collections>(`/api/v1/fees/collections?from=${day(-400)}&to=${day(-370)}`);
    expect(range).toMatchObject({ amount_paise: 0, payments: 0, by_mode: [], by_staff: [] });
  });

  it('refuses a period given twice, a range backwards or too long, and bad dates', async () => {
    const cases: [string, string][] = [
      [`period=today&from=${today()}`, 'period'],
      ['period=week', 'period'],
      [`from=${day(0)}&to=${day(-1)}`, 'to'],
      [`from=${day(-400)}&to=${day(0)}`, 'to'],
      ['from=2026-13-01', 'from'],
    ];
    for (const [query, field] of cases) {
      const response = await admin().get(`/api/v1/fees/collections?${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(detailOf(response)).toMatch(new RegExp(`^${field}: `));
    }
  });
});
