// Alone: `npx tsx bench/razorpay-replay.ts` (BENCH_EVENTS, default 1000; TEST_DATABASE_URL for PostgreSQL).
// Issue 29's target: replaying 1,000 gateway events three times in shuffled order leaves every balance
// as the first application left it (ADR 053). Families each owe a charge and get a Payment Link from a
// fake Razorpay on loopback; most pay (some in two parts), some links expire; every event is delivered
// to the webhook once, then twice more in other orders (the second time with the same event ids, the
// third with new ones, so only the payment ids stop repeats), eight at a time. Prints the figures and
// fails (exit 1) if any balance, payment or ledger row changed after the first application.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { familyBalance, familyIdForPhone, postTransaction } from '../apps/server/src/modules/fees';
import { type FakeEvent, startFakeRazorpay } from '../apps/server/test/helpers/fake-razorpay';
import { auth, createTestApp, uniquePhone } from '../apps/server/test/helpers/test-app';
import { resultsDir } from './support';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const keys = { keyId: 'rzp_test_BenchReplay01', keySecret: 'bench-key-secret', webhookSecret: 'bench-webhook-secret' };
const fake = await startFakeRazorpay(keys);
const t = await createTestApp({
  config: { razorpay: { baseUrl: fake.baseUrl, ...keys, reconcileSeconds: 900, timeoutMs: 5000 } },
});
const admin = auth(await t.adminToken());
fake.deliver = async (body, headers) =>
  (await t.app.inject({ method: 'POST', url: '/api/v1/payments/razorpay/webhook', payload: body, headers })).statusCode;

const started = Date.now();
const families: number[] = [];
const events: FakeEvent[] = [];
for (let i = 0; events.length < EVENTS; i += 1) {
  const phone = uniquePhone();
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/students/',
    headers: admin,
    payload: {
      full_name: `Replay Pupil ${i}`,
      class_name: '7',
      parent_name: `Replay Parent ${i}`,
      parent_phone: phone,
    },
  });
  const studentId = created.json().id as number;
  const familyId = await t.db.transaction((tx) => familyIdForPhone(tx, phone));
  const owed = 50_000 + (i % 50) * 1_000;
  await t.db.transaction((tx) =>
    postTransaction(tx, {
      idempotencyKey: `bench:replay:${randomUUID()}`,
      kind: 'charge',
      familyId,
      occurredOn: '2026-11-01',
      description: 'Tuition',
      createdBy: null,
      postings: [
        { account: 'receivable', amountPaise: owed, studentId },
        { account: 'tuition_income', amountPaise: -owed },
      ],
    }),
  );
  const link = await t.app.inject({
    method: 'POST',
    url: `/api/v1/fees/families/${familyId}/payment-link`,
    headers: admin,
    payload: {},
  });
  const linkId = link.json().link_id as string;
  families.push(familyId);
  if (i % 7 === 6) {
    events.push(fake.linkEvent(linkId, 'payment_link.expired'));
    continue;
  }
  if (i % 3 === 0) events.push(...fake.eventsFor(fake.pay(linkId, { amount: 20_000 })));
  events.push(...fake.eventsFor(fake.pay(linkId)));
}
const seeded = Date.now();

let seed = 29;
const shuffled = (list: FakeEvent[]) => {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = Math.floor((seed / 2_147_483_648) * (i + 1));
    [copy[i], copy[j]] = [copy[j] as FakeEvent, copy[i] as FakeEvent];
  }
  return copy;
};
const deliver = async (list: FakeEvent[], suffix: string) => {
  const begun = Date.now();
  for (let i = 0; i < list.length; i += 8) {
    const answers = await Promise.all(
      list.slice(i, i + 8).map((event) => fake.send(event, { eventId: `${event.id}${suffix}` })),
    );
    if (answers.some((status) => status !== 200)) throw new Error(`the webhook answered ${answers.join(', ')}`);
  }
  return Date.now() - begun;
};
const state = async () => ({
  balances: await Promise.all(families.map((id) => familyBalance(t.db, id))),
  payments: Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM gateway_payments'))[0]?.n),
  entries: Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_entries'))[0]?.n),
});

const firstMs = await deliver(shuffled(events), '');
const first = await state();
const secondMs = await deliver(shuffled(events), '');
const thirdMs = await deliver(shuffled(events), 'again');
const last = await state();
const unchanged = JSON.stringify(first) === JSON.stringify(last);
const owing = first.balances.filter((balance) => balance > 0).length;
console.log(
  `razorpay-replay: events=${events.length} families=${families.length} deliveries=${events.length * 3} ` +
    `payments=${first.payments} still_owing=${owing} setup_s=${((seeded - started) / 1000).toFixed(1)} ` +
    `first_ms_per_event=${(firstMs / events.length).toFixed(1)} repeat_ms_per_event=${((secondMs + thirdMs) / (2 * events.length)).toFixed(1)} ` +
    `unchanged=${unchanged}`,
);
writeFileSync(
  path.join(resultsDir(), `razorpay-replay-${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'}.json`),
  `${JSON.stringify(
    {
      events: events.length,
      families: families.length,
      payments: first.payments,
      still_owing: owing,
      first_ms_per_event: Number((firstMs / events.length).toFixed(1)),
      repeat_ms_per_event: Number(((secondMs + thirdMs) / (2 * events.length)).toFixed(1)),
      unchanged,
    },
    null,
    2,
  )}\n`,
);
await t.close();
await fake.close();
process.exitCode = unchanged ? 0 : 1;
