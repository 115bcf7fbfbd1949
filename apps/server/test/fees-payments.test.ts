import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../src/lib/time';
import { allocateAndRecordPayment, financialYear } from '../src/modules/fees';
import { type Caller, type TestClient, testClient } from './helpers/client';
import { day, feeFamily, type PaymentAnswer, pay, paymentBody, postCharge } from './helpers/fees-ledger';
import { detailOf, uniquePhone } from './helpers/test-app';

/**
 * Counter payments (ADR 051): allocated oldest charge first across the children, the rest kept as
 * the advance; idempotent by client_id; gapless receipt numbers per financial year; reversals.
 */
let api: TestClient;
let admin: Caller;
beforeAll(async () => {
  api = await testClient();
  admin = api.as('admin');
});
afterAll(async () => {
  await api?.close();
});

const count = async (sql: string, params: unknown[] = []) =>
  Number((await api.db.query<{ n: number }>(sql, params))[0]?.n);
const ledgerRows = () => count('SELECT count(*)::int AS n FROM ledger_transactions');
const paymentRows = () => count('SELECT count(*)::int AS n FROM fee_payments');

describe('recording a payment at the counter', () => {
  it("finds a student's family: siblings share one, made on first use", async () => {
    const family = await feeFamily(api, 2);
    const [first, second] = await Promise.all(
      family.children.map(async (id) => {
        const response = await admin.get(`/api/v1/fees/students/${id}/family`);
        expect(response.statusCode, response.body).toBe(200);
        return response.json() as { family_id: number; parent_phone: string; students: { id: number }[] };
      }),
    );
    expect(first).toEqual(second);
    expect(first).toMatchObject({ family_id: family.familyId, parent_phone: family.phone, balance_paise: 0 });
    expect(first?.students.map((s) => s.id).sort()).toEqual([...family.children].sort());
    expect((await admin.get('/api/v1/fees/students/999999/family')).statusCode).toBe(404);
    expect((await admin.get('/api/v1/fees/families/999999')).statusCode).toBe(404);
  });

  it('pays the oldest charge first across the children and keeps the rest as the advance', async () => {
    const { familyId, children } = await feeFamily(api, 2);
    const [older, younger] = children as [number, number];
    await postCharge(api.db, familyId, older, 100_000, day(-10));
    await postCharge(api.db, familyId, younger, 60_000, day(-40));
    const part = await pay(api, familyId, 80_000);
    expect(part.allocations).toEqual([
      { student_id: younger, amount_paise: 60_000 },
      { student_id: older, amount_paise: 20_000 },
    ]);
    expect(part.balance_paise).toBe(80_000);
    expect(part.receipt_number).toMatch(new RegExp(`^R/${financialYear(today())}/\\d{6}$`));
    expect(part.receipt_number.length).toBeLessThanOrEqual(16);

    const more = await pay(api, familyId, 100_000, { mode: 'upi', reference: '412345678901' });
    expect(more.allocations).toEqual([
      { student_id: older, amount_paise: 80_000 },
      { student_id: null, amount_paise: 20_000 },
    ]);
    expect(more.balance_paise).toBe(-20_000);

    // The advance pays the next charge as soon as it is posted: nothing is due until it is used up.
    await postCharge(api.db, familyId, younger, 15_000, day(0));
    const family = (await admin.get(`/api/v1/fees/families/${familyId}`)).json() as { balance_paise: number };
    expect(family.balance_paise).toBe(-5_000);
    const dues = (await admin.get('/api/v1/fees/dues')).json() as { family_id: number }[];
    expect(dues.some((d) => d.family_id === familyId)).toBe(false);

    const entries = await api.db.query<{ account: string; student_id: number | null; amount_paise: number }>(
      `SELECT account, student_id, amount_paise FROM ledger_entries WHERE transaction_id = $1 ORDER BY id`,
      [more.payment_id],
    );
    expect(entries).toEqual([
      { account: 'upi', student_id: null, amount_paise: 100_000 },
      { account: 'receivable', student_id: older, amount_paise: -80_000 },
      { account: 'receivable', student_id: null, amount_paise: -20_000 },
    ]);
  });

  it('answers the same client_id with the first answer and records nothing more, also ten at once', async () => {
    const { familyId, children } = await feeFamily(api);
    await postCharge(api.db, familyId, children[0] ?? null, 50_000, day(-5));
    const body = paymentBody(familyId, 30_000);
    const first = await admin.post('/api/v1/fees/payments', body);
    expect(first.statusCode, first.body).toBe(201);
    const before = { ledger: await ledgerRows(), payments: await paymentRows() };
    const again = await admin.post('/api/v1/fees/payments', body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());

    const other = await admin.post('/api/v1/fees/payments', { ...body, amount_paise: 30_001 });
    expect(other.statusCode).toBe(422);
    expect(detailOf(other)).toMatch(/^client_id: /);
    expect({ ledger: await ledgerRows(), payments: await paymentRows() }).toEqual(before);

    const together = paymentBody(familyId, 5_000);
    const answers = await Promise.all(Array.from({ length: 10 }, () => admin.post('/api/v1/fees/payments', together)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect({ ledger: await ledgerRows(), payments: await paymentRows() }).toEqual({
      ledger: before.ledger + 1,
      payments: before.payments + 1,
    });
    const balance = (await admin.get(`/api/v1/fees/families/${familyId}`)).json() as { balance_paise: number };
    expect(balance.balance_paise).toBe(15_000);
  });

  it('numbers receipts gaplessly: twenty at once are twenty consecutive numbers, and a rollback leaves no gap', async () => {
    const { familyId } = await feeFamily(api);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => admin.post('/api/v1/fees/payments', paymentBody(familyId, 1_000))),
    );
    expect(answers.every((a) => a.statusCode === 201)).toBe(true);
    const serials = answers
      .map((a) => Number((a.json() as PaymentAnswer).receipt_number.slice(-6)))
      .sort((a, b) => a - b);
    const firstSerial = serials[0] ?? 0;
    expect(serials).toEqual(Array.from({ length: 20 }, (_, i) => firstSerial + i));

    await expect(
      api.db.transaction(async (tx) => {
        await allocateAndRecordPayment(tx, {
          idempotencyKey: `counter:${randomUUID()}`,
          familyId,
          amountPaise: 1_000,
          mode: 'cash',
          receivedOn: today(),
          reference: null,
          recordedBy: null,
          request: {},
        });
        throw new Error('the printer jammed');
      }),
    ).rejects.toThrow('the printer jammed');
    const next = await pay(api, familyId, 1_000);
    expect(Number(next.receipt_number.slice(-6))).toBe(firstSerial + 20);
  });

  it('refuses bad amounts, modes, references and dates with 422 naming the field, and writes nothing', async () => {
    const { familyId } = await feeFamily(api);
    const before = { ledger: await ledgerRows(), payments: await paymentRows() };
    const cases: [Record<string, unknown>, string][] = [
      [{ amount_paise: -100 }, 'amount_paise'],
      [{ amount_paise: 0 }, 'amount_paise'],
      [{ amount_paise: 12.5 }, 'amount_paise'],
      [{ amount_paise: 1_000_000_001 }, 'amount_paise'],
      [{ amount_paise: '1000' }, 'amount_paise'],
      [{ amount_paise: Number.MAX_SAFE_INTEGER + 2 }, 'amount_paise'],
      [{ mode: 'barter' }, 'mode'],
      [{ mode: 'online' }, 'mode'],
      [{ mode: 'upi' }, 'reference'],
      [{ mode: 'upi', reference: '12-34' }, 'reference'],
      [{ mode: 'cheque', reference: '12345' }, 'reference'],
      [{ mode: 'bank_transfer', reference: '' }, 'reference'],
      [{ reference: '<script>' }, 'reference'],
      [{ received_on: day(1) }, 'received_on'],
      [{ received_on: day(-400) }, 'received_on'],
      [{ received_on: '2026-02-30' }, 'received_on'],
      [{ client_id: 'not-a-uuid' }, 'client_id'],
      [{ family_id: 'one' }, 'family_id'],
    ];
    for (const [override, field] of cases) {
      const response = await admin.post('/api/v1/fees/payments', paymentBody(familyId, 1_000, override));
      expect(response.statusCode, `${JSON.stringify(override)}: ${response.body}`).toBe(422);
      expect(detailOf(response)).toMatch(new RegExp(`^${field}: `));
    }
    const unknown = await admin.post('/api/v1/fees/payments', paymentBody(987_654, 1_000));
    expect(unknown.statusCode).toBe(404);
    expect({ ledger: await ledgerRows(), payments: await paymentRows() }).toEqual(before);
    // The references each mode accepts.
    await pay(api, familyId, 100, { mode: 'cheque', reference: '004512' });
    await pay(api, familyId, 100, { mode: 'bank_transfer', reference: 'SBIN42612345678' });
    await pay(api, familyId, 100, { mode: 'card', reference: '4242' });
    await pay(api, familyId, 100, { mode: 'cash', received_on: day(-300) });
  });

  it('writes the audit row (balance before and after) and the activity row with the payment', async () => {
    const { familyId, children, phone } = await feeFamily(api, 1, 'Kavya Nair');
    await postCharge(api.db, familyId, children[0] ?? null, 200_000, day(-3));
    const paid = await pay(api, familyId, 125_000);
    const [activity] = await api.db.query<{ description: string; text_code: string }>(
      "SELECT description, text_code FROM activities WHERE action = 'fees.payment_received' ORDER BY id DESC LIMIT 1",
    );
    expect(activity).toEqual({
      text_code: 'fees.payment_received',
      description: `Administrator recorded a payment of ₹1,250.00 from Kavya Nair (${phone}), cash, receipt ${paid.receipt_number}`,
    });
    const audit = await api.db.query<{ before: unknown; after: unknown }>(
      "SELECT before, after FROM audit_log WHERE entity = 'fee_balance' AND record_id = $1 ORDER BY id",
      [String(familyId)],
    );
    expect(audit).toEqual([
      {
        before: { family_id: familyId, balance_paise: 200_000 },
        after: { family_id: familyId, balance_paise: 75_000 },
      },
    ]);
    const created = await count(
      "SELECT count(*)::int AS n FROM audit_log WHERE entity = 'fee_payments' AND action = 'create' AND record_id = $1",
      [String(paid.payment_id)],
    );
    expect(created).toBe(1);
  });
});

describe("a family's account and its phone", () => {
  it('follows the family to a new phone, and keeps its money without the phone when the phone is erased', async () => {
    const family = await feeFamily(api, 1);
    const child = family.children[0] as number;
    await postCharge(api.db, family.familyId, child, 70_000, day(-3));
    await pay(api, family.familyId, 20_000);
    const moved = uniquePhone();
    const edited = await admin.put(`/api/v1/students/${child}`, { parent_phone: moved });
    expect(edited.statusCode, edited.body).toBe(200);
    const after = (await admin.get(`/api/v1/fees/students/${child}/family`)).json() as {
      family_id: number;
      parent_phone: string;
      balance_paise: number;
    };
    expect(after).toMatchObject({ family_id: family.familyId, parent_phone: moved, balance_paise: 50_000 });

    // Erased (as the scrub of a student who left leaves the record): the account keeps its id and money.
    await api.db.query(
      `UPDATE students SET left_on = $2, scrubbed_at = now(), parent_phone = '', full_name = 'Former student'
        WHERE id = $1`,
      [child, today()],
    );
    const rows = await api.db.query('SELECT phone FROM fee_families WHERE id = $1', [family.familyId]);
    expect(rows).toEqual([{ phone: null }]);
    const statement = (await admin.get(`/api/v1/fees/families/${family.familyId}/statement`)).json() as {
      balance_paise: number;
      entries: unknown[];
    };
    expect(statement.balance_paise).toBe(50_000);
    expect(statement.entries).toHaveLength(2);
    // The fees' audit rows never held the phone, so erasure has nothing to remove from them.
    const inFees = await api.db.query(
      "SELECT id FROM audit_log WHERE entity IN ('fee_payments', 'ledger_transactions', 'fee_balance') AND (after::text LIKE $1 OR before::text LIKE $1)",
      [`%${family.phone.slice(1)}%`],
    );
    expect(inFees).toEqual([]);
  });
});

describe('reversing a payment', () => {
  it('posts one reversal, keeps the receipt marked reversed, and the family owes again', async () => {
    const { familyId, children } = await feeFamily(api);
    await postCharge(api.db, familyId, children[0] ?? null, 90_000, day(-20));
    const paid = await pay(api, familyId, 90_000, { mode: 'cheque', reference: '001122' });
    expect(paid.balance_paise).toBe(0);
    const reversed = await admin.post(`/api/v1/fees/payments/${paid.payment_id}/reverse`, { reason: 'Cheque bounced' });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(reversed.json()).toMatchObject({
      payment_id: paid.payment_id,
      receipt_number: paid.receipt_number,
      reversed: true,
      reversed_on: today(),
      reversal_reason: 'Cheque bounced',
      mode: 'cheque',
      reference: '001122',
    });
    const family = (await admin.get(`/api/v1/fees/families/${familyId}`)).json() as { balance_paise: number };
    expect(family.balance_paise).toBe(90_000);
    const receipt = await admin.get(`/api/v1/fees/receipts/${paid.payment_id}`);
    expect(receipt.json()).toMatchObject({ reversed: true, amount_paise: 90_000 });

    const twice = await admin.post(`/api/v1/fees/payments/${paid.payment_id}/reverse`, { reason: 'again' });
    expect(twice.statusCode).toBe(409);
    expect(detailOf(twice)).toBe(`Payment ${paid.receipt_number} was already reversed on ${today()}`);
    const dues = (await admin.get('/api/v1/fees/dues')).json() as { family_id: number; days_overdue: number }[];
    expect(dues.find((d) => d.family_id === familyId)?.days_overdue).toBe(20);
  });

  it('reverses once when asked twice at once; unknown payments are 404 and a blank reason 422', async () => {
    const { familyId } = await feeFamily(api);
    const paid = await pay(api, familyId, 10_000);
    const before = await ledgerRows();
    const answers = await Promise.all(
      [1, 2, 3].map(() => admin.post(`/api/v1/fees/payments/${paid.payment_id}/reverse`, { reason: 'Mistake' })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await ledgerRows()).toBe(before + 1);
    expect((await admin.post('/api/v1/fees/payments/99999999/reverse', { reason: 'x' })).statusCode).toBe(404);
    expect((await admin.get('/api/v1/fees/receipts/99999999')).statusCode).toBe(404);
    const blank = await admin.post(`/api/v1/fees/payments/${paid.payment_id}/reverse`, { reason: '  ' });
    expect(blank.statusCode).toBe(422);
    expect(detailOf(blank)).toMatch(/^reason: /);
  });

  it('answers the receipt with the centre, family, children, allocations and no reversal', async () => {
    const { familyId, children, phone } = await feeFamily(api, 2, 'Farah Khan');
    await postCharge(api.db, familyId, children[1] ?? null, 30_000, day(-2));
    const paid = await pay(api, familyId, 45_000, { mode: 'bank_transfer', reference: 'UTR2026112800' });
    const receipt = await admin.get(`/api/v1/fees/receipts/${paid.payment_id}`);
    expect(receipt.statusCode).toBe(200);
    expect(receipt.json()).toMatchObject({
      payment_id: paid.payment_id,
      receipt_number: paid.receipt_number,
      financial_year: financialYear(today()),
      family_id: familyId,
      parent_name: 'Farah Khan',
      parent_phone: phone,
      amount_paise: 45_000,
      mode: 'bank_transfer',
      reference: 'UTR2026112800',
      received_on: today(),
      recorded_by: 'Administrator',
      allocations: [
        { student_id: children[1], amount_paise: 30_000 },
        { student_id: null, amount_paise: 15_000 },
      ],
      balance_paise: -15_000,
      reversed: false,
      reversed_on: null,
      reversal_reason: null,
    });
    expect((receipt.json() as { students: unknown[]; centre_name: string }).students).toHaveLength(2);
  });
});

describe('who may use fees', () => {
  it('gives teachers 403 on every fees route', async () => {
    const { familyId } = await feeFamily(api);
    const paid = await pay(api, familyId, 1_000);
    const teacher = api.as('teacher');
    const calls = [
      teacher.post('/api/v1/fees/payments', paymentBody(familyId, 1_000)),
      teacher.post(`/api/v1/fees/payments/${paid.payment_id}/reverse`, { reason: 'x' }),
      teacher.get(`/api/v1/fees/receipts/${paid.payment_id}`),
      teacher.get(`/api/v1/fees/families/${familyId}`),
      teacher.get(`/api/v1/fees/families/${familyId}/statement`),
      teacher.get('/api/v1/fees/students/1/family'),
      teacher.get('/api/v1/fees/dues'),
      teacher.get('/api/v1/fees/ageing'),
      teacher.get('/api/v1/fees/collections'),
    ];
    expect((await Promise.all(calls)).map((r) => r.statusCode)).toEqual(calls.map(() => 403));
  });
});
