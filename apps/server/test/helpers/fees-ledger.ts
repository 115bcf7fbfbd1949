import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Queryable } from '../../src/db/database';
import { addDays, today } from '../../src/lib/time';
import { familyIdForPhone, postTransaction } from '../../src/modules/fees';
import type { TestClient } from './client';
import { uniquePhone } from './test-app';

/** A day `offset` days from today in the centre's zone. */
export const day = (offset: number) => addDays(today(), offset);

export interface FeeFamilyFixture {
  familyId: number;
  phone: string;
  /** The children's student ids, in the order made. */
  children: number[];
}

/** A family of `children` students on one new phone, with its fee account. */
export async function feeFamily(api: TestClient, children = 1, parentName = 'Meera Iyer'): Promise<FeeFamilyFixture> {
  const phone = uniquePhone();
  const ids: number[] = [];
  for (let i = 0; i < children; i += 1) {
    const student = await api.student({
      full_name: `Child ${i + 1} ${phone.slice(-4)}`,
      parent_phone: phone,
      parent_name: parentName,
    });
    ids.push(student.id);
  }
  const familyId = await api.db.transaction((tx) => familyIdForPhone(tx, phone));
  return { familyId, phone, children: ids };
}

let charges = 0;

/** A tuition charge of `paise` for a child, due `dueOn`, posted straight into the ledger as the charge run would. */
export async function postCharge(
  db: { transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> },
  familyId: number,
  studentId: number | null,
  paise: number,
  dueOn: string,
): Promise<number> {
  charges += 1;
  const posted = await db.transaction((tx) =>
    postTransaction(tx, {
      idempotencyKey: `test-charge:${process.pid}:${charges}:${randomUUID()}`,
      kind: 'charge',
      familyId,
      occurredOn: dueOn,
      dueOn,
      description: 'Tuition',
      createdBy: null,
      postings: [
        { account: 'receivable', amountPaise: paise, studentId },
        { account: 'tuition_income', amountPaise: -paise },
      ],
    }),
  );
  return posted.id;
}

export interface PaymentAnswer {
  payment_id: number;
  receipt_number: string;
  allocations: { student_id: number | null; amount_paise: number }[];
  balance_paise: number;
}

/** A counter payment body with a new client id (overrides win). */
export function paymentBody(familyId: number, paise: number, overrides: Record<string, unknown> = {}) {
  return {
    family_id: familyId,
    amount_paise: paise,
    mode: 'cash',
    received_on: today(),
    client_id: randomUUID(),
    ...overrides,
  };
}

/** Records a counter payment as the admin and answers it; anything but 201 fails the test. */
export async function pay(api: TestClient, familyId: number, paise: number, overrides: Record<string, unknown> = {}) {
  const response = await api.as('admin').post('/api/v1/fees/payments', paymentBody(familyId, paise, overrides));
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as PaymentAnswer;
}
