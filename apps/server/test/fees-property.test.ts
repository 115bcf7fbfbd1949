import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../src/lib/activity-log';
import { ConflictError } from '../src/lib/errors';
import { today } from '../src/lib/time';
import { recordCounterPayment, reversePayment } from '../src/modules/fees';
import { type TestClient, testClient } from './helpers/client';
import { day, type FeeFamilyFixture, feeFamily, postCharge } from './helpers/fees-ledger';

/**
 * The ledger's promise (ADR 051), as a property: after any mix of charges (posted straight into the
 * ledger, as the charge run does), counter payments (advances among them), replays of a payment's
 * client_id and reversals, every transaction sums to zero; each family's statement balance, its dues
 * balance, the sum of its receivable entries and an independent model of it agree; the dues' oldest
 * date, days overdue and the ageing follow the model's oldest-due-first allocation; ageing's total is
 * the dues' total; collections are payments less reversals.
 */
let api: TestClient;
const families: FeeFamilyFixture[] = [];
const FAMILIES = 8;
beforeAll(async () => {
  api = await testClient();
  for (let i = 0; i < FAMILIES; i += 1) families.push(await feeFamily(api, 1 + (i % 3)));
});
afterAll(async () => {
  await api?.close();
});

type Op =
  | { kind: 'charge'; family: number; child: number; paise: number; dueOffset: number }
  | { kind: 'pay'; family: number; paise: number; receivedOffset: number; mode: number }
  | { kind: 'replay'; pick: number }
  | { kind: 'reverse'; pick: number };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('charge' as const),
      family: fc.nat(FAMILIES - 1),
      child: fc.nat(2),
      paise: fc.integer({ min: 1, max: 300_000 }),
      dueOffset: fc.integer({ min: -200, max: 15 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      family: fc.nat(FAMILIES - 1),
      paise: fc.integer({ min: 1, max: 400_000 }),
      receivedOffset: fc.integer({ min: -300, max: 0 }),
      mode: fc.nat(4),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replay' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat() }) },
);

const MODES = [
  { mode: 'cash', reference: null },
  { mode: 'upi', reference: '312345678901' },
  { mode: 'cheque', reference: '123456' },
  { mode: 'bank_transfer', reference: 'UTR0042' },
  { mode: 'card', reference: null },
] as const;

/** The model: what the ledger must say, worked out without it. */
interface ModelCharge {
  family: number;
  studentId: number;
  paise: number;
  dueOn: string;
  order: number;
}
interface ModelPayment {
  family: number;
  paymentId: number;
  paise: number;
  reversed: boolean;
  body: Record<string, unknown>;
  answer: unknown;
}
const charges: ModelCharge[] = [];
const payments: ModelPayment[] = [];
let order = 0;

function modelOpen(family: number): { studentId: number; dueOn: string; owed: number }[] {
  let credit = payments.filter((p) => p.family === family && !p.reversed).reduce((sum, p) => sum + p.paise, 0);
  const open: { studentId: number; dueOn: string; owed: number }[] = [];
  const debits = charges
    .filter((c) => c.family === family)
    .sort((a, b) => a.dueOn.localeCompare(b.dueOn) || a.order - b.order);
  for (const charge of debits) {
    const paid = Math.min(credit, charge.paise);
    credit -= paid;
    if (charge.paise > paid) open.push({ studentId: charge.studentId, dueOn: charge.dueOn, owed: charge.paise - paid });
  }
  return open;
}
function modelBalance(family: number): number {
  const charged = charges.filter((c) => c.family === family).reduce((sum, c) => sum + c.paise, 0);
  const paid = payments.filter((p) => p.family === family && !p.reversed).reduce((sum, p) => sum + p.paise, 0);
  return charged - paid;
}
const daysSince = (date: string) =>
  Math.round((Date.parse(`${today()}T00:00:00Z`) - Date.parse(`${date}T00:00:00Z`)) / 86_400_000);
const bucketOf = (days: number) => (days <= 30 ? '0-30' : days <= 60 ? '31-60' : days <= 90 ? '61-90' : '90+');

const ADMIN: Actor = { id: 1, full_name: 'Administrator' };

async function apply(op: Op): Promise<void> {
  if (op.kind === 'charge') {
    const family = families[op.family] as FeeFamilyFixture;
    const studentId = family.children[op.child % family.children.length] as number;
    const dueOn = day(op.dueOffset);
    await postCharge(api.db, family.familyId, studentId, op.paise, dueOn);
    order += 1;
    charges.push({ family: family.familyId, studentId, paise: op.paise, dueOn, order });
    return;
  }
  if (op.kind === 'pay') {
    const family = families[op.family] as FeeFamilyFixture;
    const expected = modelOpen(family.familyId);
    const { mode, reference } = MODES[op.mode] as (typeof MODES)[number];
    const body = {
      family_id: family.familyId,
      amount_paise: op.paise,
      mode,
      reference,
      received_on: day(op.receivedOffset),
      client_id: randomUUID(),
    };
    // Straight to the service (the HTTP layer is payments' own test): thousands of operations in seconds.
    const { answer, created } = await recordCounterPayment(api.ctx, ADMIN, body);
    expect(created).toBe(true);
    payments.push({
      family: family.familyId,
      paymentId: answer.payment_id,
      paise: op.paise,
      reversed: false,
      body,
      answer,
    });
    // Oldest due first across the children; the rest is the advance.
    let left = op.paise;
    const byStudent = new Map<number | null, number>();
    for (const charge of expected) {
      const paid = Math.min(left, charge.owed);
      if (paid === 0) break;
      byStudent.set(charge.studentId, (byStudent.get(charge.studentId) ?? 0) + paid);
      left -= paid;
    }
    if (left > 0) byStudent.set(null, left);
    expect(new Map(answer.allocations.map((a) => [a.student_id, a.amount_paise]))).toEqual(byStudent);
    expect(answer.balance_paise).toBe(modelBalance(family.familyId));
    return;
  }
  const payment = payments[op.pick % Math.max(payments.length, 1)];
  if (!payment) return;
  if (op.kind === 'replay') {
    const again = await recordCounterPayment(
      api.ctx,
      ADMIN,
      payment.body as Parameters<typeof recordCounterPayment>[2],
    );
    expect(again).toEqual({ answer: payment.answer, created: false });
    return;
  }
  const reversal = reversePayment(api.ctx, ADMIN, payment.paymentId, 'Property walk');
  if (payment.reversed) await expect(reversal).rejects.toThrow(ConflictError);
  else expect(await reversal).toMatchObject({ payment_id: payment.paymentId, reversed: true });
  payment.reversed = true;
}

async function checkInvariants(): Promise<void> {
  const admin = api.as('admin');
  const unbalanced = await api.db.query(
    'SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING sum(amount_paise) <> 0 OR count(*) < 2',
  );
  expect(unbalanced).toEqual([]);
  const receivable = new Map(
    (
      await api.db.query<{ family_id: number; balance: number }>(
        `SELECT t.family_id, sum(e.amount_paise)::bigint AS balance FROM ledger_entries e
           JOIN ledger_transactions t ON t.id = e.transaction_id WHERE e.account = 'receivable' GROUP BY t.family_id`,
      )
    ).map((r) => [Number(r.family_id), Number(r.balance)]),
  );
  const dues = (await admin.get('/api/v1/fees/dues')).json() as {
    family_id: number;
    balance_paise: number;
    oldest_due_date: string;
    days_overdue: number;
  }[];
  const duesByFamily = new Map(dues.map((d) => [d.family_id, d]));
  const expectedBuckets = new Map<string, { amount: number; families: Set<number> }>();
  for (const family of families) {
    const id = family.familyId;
    const balance = modelBalance(id);
    const statement = (await admin.get(`/api/v1/fees/families/${id}/statement`)).json() as {
      balance_paise: number;
      entries: { balance_paise: number }[];
    };
    expect(statement.balance_paise).toBe(balance);
    expect(statement.entries.at(-1)?.balance_paise ?? 0).toBe(balance);
    expect(receivable.get(id) ?? 0).toBe(balance);
    const open = modelOpen(id);
    const due = duesByFamily.get(id);
    if (balance > 0) {
      expect(due).toMatchObject({
        balance_paise: balance,
        oldest_due_date: open[0]?.dueOn,
        days_overdue: Math.max(0, daysSince(open[0]?.dueOn ?? today())),
      });
      expect(open.reduce((sum, c) => sum + c.owed, 0)).toBe(balance);
    } else {
      expect(due).toBeUndefined();
      expect(open).toEqual([]);
    }
    for (const charge of open) {
      const bucket = bucketOf(daysSince(charge.dueOn));
      const entry = expectedBuckets.get(bucket) ?? { amount: 0, families: new Set<number>() };
      entry.amount += charge.owed;
      entry.families.add(id);
      expectedBuckets.set(bucket, entry);
    }
  }
  const ageing = (await admin.get('/api/v1/fees/ageing')).json() as {
    buckets: { bucket: string; amount_paise: number; families: number }[];
    total_paise: number;
    families: number;
  };
  for (const bucket of ageing.buckets) {
    const expected = expectedBuckets.get(bucket.bucket);
    expect([bucket.bucket, bucket.amount_paise, bucket.families]).toEqual([
      bucket.bucket,
      expected?.amount ?? 0,
      expected?.families.size ?? 0,
    ]);
  }
  expect(ageing.total_paise).toBe(dues.reduce((sum, d) => sum + d.balance_paise, 0));
  expect(ageing.families).toBe(dues.length);
  const collections = (await admin.get(`/api/v1/fees/collections?from=${day(-365)}&to=${today()}`)).json() as {
    amount_paise: number;
    payments: number;
    reversals: number;
  };
  const received = payments.reduce((sum, p) => sum + p.paise, 0);
  const reversed = payments.filter((p) => p.reversed).reduce((sum, p) => sum + p.paise, 0);
  expect(collections).toEqual(
    expect.objectContaining({
      amount_paise: received - reversed,
      payments: payments.length,
      reversals: payments.filter((p) => p.reversed).length,
    }),
  );
}

describe('the ledger under random operations', () => {
  it('keeps every report in agreement with the ledger and with a model of it', { timeout: 240_000 }, async () => {
    // Thousands on PostgreSQL; on the embedded database, where each write costs 10-80 ms on a busy
    // machine, as many as fit the file's ~20 s budget (FEES_PROPERTY_RUNS and _OPS ask for more).
    const onServer = process.env.TEST_DATABASE_URL !== undefined;
    const runs = Number(process.env.FEES_PROPERTY_RUNS ?? (onServer ? 4 : 3));
    const length = Number(process.env.FEES_PROPERTY_OPS ?? (onServer ? 300 : 120));
    let applied = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: length, maxLength: length }), async (ops) => {
        for (const op of ops) {
          await apply(op);
          applied += 1;
        }
        await checkInvariants();
      }),
      { numRuns: runs, seed: Number(process.env.FEES_PROPERTY_SEED ?? 20261128), endOnFailure: true },
    );
    expect(applied).toBe(runs * length);
    expect(payments.length).toBeGreaterThan(0);
    expect(charges.length).toBeGreaterThan(0);
  });
});
