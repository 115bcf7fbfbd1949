import type { Ageing, Collections, Due, FeeFamily, Receipt, ReceiptTax, Statement } from '@tuitiondesk/contract';
import { type FakeRoute, fakeApi } from '../../testing';

/** What the Dues tab's tests read from the fake server: three families that owe, family 12's statement and receipt. */
export const dues: Due[] = [
  {
    family_id: 12,
    parent_name: 'Meena Verma',
    parent_phone: '+919800011111',
    students: [
      { id: 7, full_name: 'Asha Verma', class_name: '7' },
      { id: 9, full_name: 'Ravi Verma', class_name: '9' },
    ],
    balance_paise: 150_000,
    oldest_due_date: '2026-07-05',
    days_overdue: 95,
  },
  {
    family_id: 14,
    parent_name: 'Imran Khan',
    parent_phone: '+919811122222',
    students: [{ id: 11, full_name: 'Sara Khan', class_name: '8' }],
    balance_paise: 70_000,
    oldest_due_date: '2026-10-05',
    days_overdue: 40,
  },
  {
    family_id: 15,
    parent_name: 'Lakshmi Iyer',
    parent_phone: '+919822233333',
    students: [{ id: 13, full_name: 'Vikram Iyer', class_name: '7' }],
    balance_paise: 25_050,
    oldest_due_date: '2026-12-05',
    days_overdue: 0,
  },
];

export const ageing: Ageing = {
  as_of: '2026-11-28',
  buckets: [
    { bucket: '0-30', amount_paise: 25_050, families: 1 },
    { bucket: '31-60', amount_paise: 70_000, families: 1 },
    { bucket: '61-90', amount_paise: 0, families: 0 },
    { bucket: '90+', amount_paise: 150_000, families: 1 },
  ],
  total_paise: 245_050,
  families: 3,
  overdue_paise: 220_000,
  overdue_families: 2,
};

export const collections = (amount: number): Collections => ({
  from: '2026-11-28',
  to: '2026-11-28',
  amount_paise: amount,
  payments: 2,
  reversals: 0,
  by_mode: [{ mode: 'upi', amount_paise: amount, payments: 2, reversals: 0 }],
  by_staff: [{ user_id: 1, name: 'Asha Admin', amount_paise: amount, payments: 2, reversals: 0 }],
});

export const family: FeeFamily = {
  family_id: 12,
  parent_name: 'Meena Verma',
  parent_phone: '+919800011111',
  students: dues[0]?.students ?? [],
  balance_paise: 50_000,
  state_code: null,
  state_name: null,
  billing_name: null,
  billing_address: null,
  billing_gstin: null,
};

export const statement: Statement = {
  family_id: 12,
  balance_paise: 50_000,
  entries: [
    {
      date: '2026-07-05',
      kind: 'charge',
      description: 'Monthly fee July',
      student_id: 7,
      debit_paise: 100_000,
      credit_paise: 0,
      balance_paise: 100_000,
      payment_id: null,
    },
    {
      date: '2026-11-20',
      kind: 'payment',
      description: 'Payment received',
      student_id: 7,
      debit_paise: 0,
      credit_paise: 50_000,
      balance_paise: 50_000,
      payment_id: 501,
    },
  ],
};

export const receipt: Receipt = {
  payment_id: 501,
  receipt_number: 'R/2026-27/000123',
  financial_year: '2026-27',
  centre_name: 'Sunrise Tuition',
  family_id: 12,
  parent_name: 'Meena Verma',
  parent_phone: '+919800011111',
  students: family.students,
  amount_paise: 50_000,
  mode: 'upi',
  reference: '412345678901',
  received_on: '2026-11-20',
  recorded_by: 'Asha Admin',
  allocations: [{ student_id: 7, amount_paise: 50_000 }],
  balance_paise: 50_000,
  reversed: false,
  reversed_on: null,
  reversal_reason: null,
  document: 'receipt',
  tax: null,
  credit_note: null,
};

export function serve(extra: Record<string, FakeRoute> = {}, list: Due[] = dues) {
  return fakeApi({
    'GET /fees/dues': () => [200, list],
    'GET /fees/ageing': () => [200, ageing],
    'GET /fees/collections': (call) => [
      200,
      collections(call.url.searchParams.get('period') === 'month' ? 900_000 : 120_000),
    ],
    'GET /fees/families/12': () => [200, family],
    'GET /fees/families/12/statement': () => [200, statement],
    'GET /fees/receipts/501': () => [200, receipt],
    ...extra,
  });
}

export const MAHARASHTRA_TAX: ReceiptTax = {
  gstin: '27AAPFU0939F1ZV',
  state_code: '27',
  state_name: 'Maharashtra',
  sac: '999293',
  rate_basis_points: 1800,
  taxable_paise: 42_373,
  cgst_paise: 3_814,
  sgst_paise: 3_813,
  igst_paise: 0,
  place_of_supply_code: '27',
  place_of_supply_name: 'Maharashtra',
  supplier_address: '14 MG Road, Pune 411001',
  recipient_name: 'Verma Traders',
  recipient_address: '7 Park Street, Pune 411002',
  recipient_gstin: '27AAGCB7383J1Z6',
  reverse_charge: false,
};
