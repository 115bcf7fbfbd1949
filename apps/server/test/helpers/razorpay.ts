import { afterAll, beforeAll } from 'vitest';
import { familyBalance, familyIdForPhone, postTransaction } from '../../src/modules/fees';
import type { RazorpayConfig } from '../../src/razorpay-config';
import { clientOf, type TestClient } from './client';
import { type FakeRazorpay, RAZORPAY_TEST, startFakeRazorpay, WEBHOOK_URL } from './fake-razorpay';
import { createTestApp, uniquePhone } from './test-app';

// In fake-razorpay.ts, which the browser tests import without the server's modules.
export { RAZORPAY_TEST, WEBHOOK_URL };

export function razorpayConfig(fake: FakeRazorpay, overrides: Partial<RazorpayConfig> = {}): RazorpayConfig {
  // The fake shares the test's event loop with PGlite, whose work holds it: a timeout with room for that.
  return { baseUrl: fake.baseUrl, ...RAZORPAY_TEST, reconcileSeconds: 900, timeoutMs: 5000, ...overrides };
}

export interface RazorpayTestBed {
  api: TestClient;
  fake: FakeRazorpay;
}

/**
 * An app with online payment on against a fake Razorpay on loopback, for the test file: opened before
 * its tests, closed after them. The fake's events go to the app's webhook.
 */
export function razorpayTestBed(): () => RazorpayTestBed {
  let bed: RazorpayTestBed | undefined;
  beforeAll(async () => {
    const fake = await startFakeRazorpay(RAZORPAY_TEST);
    const api = clientOf(await createTestApp({ config: { razorpay: razorpayConfig(fake) } }));
    fake.deliver = async (body, headers) =>
      (await api.app.inject({ method: 'POST', url: WEBHOOK_URL, payload: body, headers })).statusCode;
    bed = { api, fake };
  });
  afterAll(async () => {
    await bed?.api.close();
    await bed?.fake.close();
  });
  return () => {
    if (!bed) throw new Error('the test bed opens before the tests');
    return bed;
  };
}

let charges = 0;

export interface OwingFamily {
  familyId: number;
  studentId: number;
  phone: string;
}

/** A new student on a new phone, its family's fee account, and a charge of `paise` posted to it. */
export async function owingFamily(api: TestClient, paise: number): Promise<OwingFamily> {
  const phone = uniquePhone();
  const student = await api.student({ parent_phone: phone, full_name: 'Meera Iyer', parent_name: 'Lakshmi Iyer' });
  const familyId = await api.db.transaction((tx) => familyIdForPhone(tx, phone));
  if (paise > 0) {
    charges += 1;
    const idempotencyKey = `test:razorpay-charge:${process.pid}:${charges}`;
    await api.db.transaction((tx) =>
      postTransaction(tx, {
        idempotencyKey,
        kind: 'charge',
        familyId,
        occurredOn: '2026-11-01',
        dueOn: '2026-11-10',
        description: 'Tuition, November',
        createdBy: null,
        postings: [
          { account: 'receivable', amountPaise: paise, studentId: student.id },
          { account: 'tuition_income', amountPaise: -paise },
        ],
      }),
    );
  }
  return { familyId, studentId: student.id, phone };
}

export const balanceOf = (api: TestClient, familyId: number) => familyBalance(api.db, familyId);

export async function countRows(api: TestClient, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params);
  return Number(row?.n ?? 0);
}

/** Asks for the family's link as the admin. */
export function askForLink(api: TestClient, familyId: number, body: unknown = {}) {
  return api.as('admin').post(`/api/v1/fees/families/${familyId}/payment-link`, body);
}
