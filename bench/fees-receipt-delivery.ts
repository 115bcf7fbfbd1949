// Alone: `npx tsx bench/fees-receipt-delivery.ts` (BENCH_PAYMENTS, default 200; BENCH_CONCURRENCY,
// default 10; BENCH_WEBHOOK_PAYMENTS, default 100; TEST_DATABASE_URL for PostgreSQL). Issue 29's
// target: a payment's receipt reaches the family's device within 10 s (p95). A server on a fresh
// database, listening on loopback in this process with its push worker running (the production poll
// and retry times), families of one child each owing a charge, each with a parent app device
// subscribed through the API to the fake push service (bench/fake-push.ts, an endpoint of its own per
// family). Counter payments are posted over HTTP, BENCH_CONCURRENCY at a time, and each is timed from
// its POST to its family's push arriving at the fake; then payments through Razorpay Payment Links (the
// fake gateway on loopback), timed from the first webhook delivery to the push. Measures only what a
// family sees, so it holds whether the receipt is queued in the payment's transaction or after it.
// Writes bench/results/fees-receipt-delivery-<db>.json; fails (exit 1) if a receipt never arrived.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { familyIdForPhone, postTransaction } from '../apps/server/src/modules/fees';
import { type FakeEvent, startFakeRazorpay } from '../apps/server/test/helpers/fake-razorpay';
import { auth, createTestApp, testConfig } from '../apps/server/test/helpers/test-app';
import { startFakePushService } from './fake-push';
import { resultsDir } from './support';

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const WEBHOOK_PAYMENTS = Number(process.env.BENCH_WEBHOOK_PAYMENTS ?? 100);
const TIMEOUT_MS = 120_000;
const database = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
const log = (text: string) => process.stderr.write(`[fees-receipt-delivery ${database}] ${text}\n`);

const push = await startFakePushService();
const keys = { keyId: 'rzp_test_BenchReceipts1', keySecret: 'bench-key-secret', webhookSecret: 'bench-webhook-secret' };
const gateway = await startFakeRazorpay(keys);
const t = await createTestApp({
  config: {
    push: { ...testConfig().push, allowLoopbackEndpointsForTests: true, pollMs: 2000, retryBaseMs: 30_000 },
    razorpay: { baseUrl: gateway.baseUrl, ...keys, reconcileSeconds: 900, timeoutMs: 5000 },
  },
});
t.ctx.push.start();
const admin = auth(await t.adminToken());
const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
gateway.deliver = async (body, headers) =>
  (
    await fetch(`${base}/api/v1/payments/razorpay/webhook`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    })
  ).status;

async function call<T>(url: string, payload: unknown, headers: Record<string, string> = admin): Promise<T> {
  const response = await fetch(`${base}/api/v1${url}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`POST ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A family of one child owing ₹1,500, its parent app subscribed at the fake's endpoint `/push/<index>`. */
async function family(index: number): Promise<{ familyId: number; endpoint: string }> {
  const phone = `+9196${String(index).padStart(8, '0')}`;
  const [student] = await t.db.query<{ id: number }>(
    `INSERT INTO students (full_name, class_name, parent_name, parent_phone)
     VALUES ($1, '8', $2, $3) RETURNING id`,
    [`Receipt pupil ${index}`, `Receipt parent ${index}`, phone],
  );
  await t.db.query("INSERT INTO parent_access (phone, code_hash, issued_by) VALUES ($1, 'not-a-real-hash', 'Bench')", [
    phone,
  ]);
  const familyId = await t.db.transaction((tx) => familyIdForPhone(tx, phone));
  await t.db.transaction((tx) =>
    postTransaction(tx, {
      idempotencyKey: `bench:receipt:${index}`,
      kind: 'charge',
      familyId,
      occurredOn: new Date().toISOString().slice(0, 10),
      description: 'Tuition',
      createdBy: null,
      postings: [
        { account: 'receivable', amountPaise: 150_000, studentId: Number(student?.id) },
        { account: 'tuition_income', amountPaise: -150_000 },
      ],
    }),
  );
  const endpoint = `/push/${index}`;
  const token = await t.ctx.tokens.signParent({ phone, tokenVersion: 0 });
  await call(
    '/parent/push/subscriptions',
    { endpoint: `${push.base}/${index}`, expirationTime: null, keys: push.keys },
    { authorization: `Bearer ${token}`, 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/131' },
  );
  return { familyId, endpoint };
}

/** Waits until every endpoint has had its push, or TIMEOUT_MS; answers each one's arrival time (or NaN). */
async function arrivalsOf(endpoints: string[]): Promise<number[]> {
  const deadline = performance.now() + TIMEOUT_MS;
  while (endpoints.some((endpoint) => !push.arrivals.has(endpoint)) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return endpoints.map((endpoint) => push.arrivals.get(endpoint) ?? Number.NaN);
}

/** Runs `work` over `items`, `limit` at a time. */
async function inTurn<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: limit }, lane));
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
};
const figures = (latencies: number[]) => {
  const arrived = latencies.filter((value) => Number.isFinite(value));
  return {
    count: latencies.length,
    missing: latencies.length - arrived.length,
    p50_ms: Math.round(percentile(arrived, 0.5)),
    p95_ms: Math.round(percentile(arrived, 0.95)),
    max_ms: Math.round(Math.max(...arrived)),
  };
};

const seeding = performance.now();
const families: { familyId: number; endpoint: string }[] = [];
for (let index = 0; index < PAYMENTS + WEBHOOK_PAYMENTS; index += 1) families.push(await family(index));
log(`seeded ${families.length} families in ${((performance.now() - seeding) / 1000).toFixed(0)} s`);

// Counter payments, BENCH_CONCURRENCY at a time, as several desks would take them.
const counter = families.slice(0, PAYMENTS);
const load = os.loadavg()[0] ?? 0;
const posted: number[] = [];
const answered: number[] = [];
const today = new Date().toISOString().slice(0, 10);
await inTurn([...counter.keys()], CONCURRENCY, async (index) => {
  const started = performance.now();
  posted[index] = started;
  await call('/fees/payments', {
    family_id: counter[index]?.familyId,
    amount_paise: 150_000,
    mode: 'cash',
    received_on: today,
    client_id: randomUUID(),
  });
  answered[index] = performance.now() - started;
});
const counterArrivals = await arrivalsOf(counter.map((f) => f.endpoint));
const counterFigures = {
  ...figures(counterArrivals.map((at, index) => at - (posted[index] as number))),
  answer_p50_ms: Math.round(percentile(answered, 0.5)),
  answer_p95_ms: Math.round(percentile(answered, 0.95)),
};
log(`counter: ${JSON.stringify(counterFigures)}`);

// Payment Links paid at Razorpay: each family's events (payment captured, link paid) delivered to the
// webhook, BENCH_CONCURRENCY families at a time, timed from the first delivery.
const online = families.slice(PAYMENTS);
const paid: FakeEvent[][] = [];
for (const { familyId } of online) {
  const link = await call<{ link_id: string }>(`/fees/families/${familyId}/payment-link`, {});
  paid.push(gateway.eventsFor(gateway.pay(link.link_id)));
}
const sent: number[] = [];
await inTurn([...online.keys()], CONCURRENCY, async (index) => {
  sent[index] = performance.now();
  for (const event of paid[index] ?? []) {
    const status = await gateway.send(event);
    if (status !== 200) throw new Error(`the webhook answered ${status}`);
  }
});
const webhookArrivals = await arrivalsOf(online.map((f) => f.endpoint));
const webhookFigures = figures(webhookArrivals.map((at, index) => at - (sent[index] as number)));
log(`webhook: ${JSON.stringify(webhookFigures)}`);

await t.ctx.push.stop(2000);
await t.close();
await gateway.close();
await push.close();

const summary = {
  database,
  concurrency: CONCURRENCY,
  load: Number(load.toFixed(1)),
  counter: counterFigures,
  webhook: webhookFigures,
  malformed_pushes: push.state.malformed,
};
writeFileSync(
  path.join(resultsDir(), `fees-receipt-delivery-${database}.json`),
  `${JSON.stringify(summary, null, 2)}\n`,
);
process.stdout.write(
  `receipt delivered on ${database}: ${PAYMENTS} counter payments ${CONCURRENCY} at a time, POST to push p50 ` +
    `${counterFigures.p50_ms} ms, p95 ${counterFigures.p95_ms} ms (target under 10 s); ${WEBHOOK_PAYMENTS} Razorpay ` +
    `payments, webhook to push p50 ${webhookFigures.p50_ms} ms, p95 ${webhookFigures.p95_ms} ms\n`,
);
if (counterFigures.missing > 0 || webhookFigures.missing > 0 || push.state.malformed > 0) {
  process.stderr.write('FAILED: some receipts never arrived, or a push was malformed\n');
  process.exit(1);
}
