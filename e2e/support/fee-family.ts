import { expect } from 'vitest';
import { api, uniquePhone } from './browser';

/** A new child of class 9 and its parent, on a phone of their own: the family's fee account id. */
export async function newFeeFamily(names: { child: string; parent: string }): Promise<number> {
  const student = await api<{ id: number }>('/students/', {
    json: { full_name: names.child, class_name: '9', parent_name: names.parent, parent_phone: uniquePhone() },
  });
  return (await api<{ family_id: number }>(`/fees/students/${student.id}/family`)).family_id;
}

/** A family the fee reminder browser tests start from. */
export interface OwingFamily {
  childId: number;
  familyId: number;
  /** The parent app's sign-in: the phone on record and the access code issued. */
  phone: string;
  code: string;
  /** The centre's today (yyyy-MM-dd), the day the fee falls due. */
  today: string;
}

/**
 * A child and its parent with the parent app, owing a one-time fee of ₹1,500 due on the centre's
 * today (charged by this month's run), so that a reminder round run by hand reminds the family.
 */
export async function familyOwingToday(names: { child: string; parent: string }): Promise<OwingFamily> {
  const { today } = await api<{ today: string }>('/settings/centre');
  const child = await api<{ id: number }>('/students/', {
    json: { full_name: names.child, class_name: '7', parent_name: names.parent, parent_phone: uniquePhone() },
  });
  const access = await api<{ code: string; phone: string }>(`/students/${child.id}/parent-access`, { method: 'POST' });
  await api('/fees/plans', {
    json: {
      name: `Exam fee ${child.id}`,
      kind: 'one_time',
      amount_paise: 150_000,
      student_ids: [child.id],
      instalments: [{ due_on: today, amount_paise: 150_000 }],
    },
  });
  await api('/fees/charges/run', { json: { month: today.slice(0, 7) } });
  const family = await api<{ family_id: number; balance_paise: number }>(`/fees/students/${child.id}/family`);
  expect(family.balance_paise).toBe(150_000);
  return { childId: child.id, familyId: family.family_id, phone: access.phone, code: access.code, today };
}
