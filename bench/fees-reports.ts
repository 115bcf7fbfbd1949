// Alone: `npx tsx bench/fees-reports.ts` (TEST_DATABASE_URL=postgres://… for PostgreSQL, the target's
// database; BENCH_STUDENTS, default 5000; BENCH_ROUNDS, default 5; BENCH_SECONDS, default 5).
// Issue 29's targets for the fee reports: the dues list at p99 under 100 ms at 32 connections on
// PostgreSQL, and the statement of a family with 3 years of history under 50 ms. The large centre's
// students, two to a family, get a monthly plan and three months of charges (the charge run, through
// the API); a third of the families pay part. One family of three children has 36 months of charges,
// a payment each month and a bounced cheque a year. The server listens on loopback in this process
// and autocannon, in a process of its own, asks it: the dues list at 32 connections in rounds (medians of the rounds, and the
// worst p99), the statement at 1 connection. Writes bench/results/fees-reports-<db>.json.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { allocateAndRecordPayment, postTransaction } from '../apps/server/src/modules/fees';
import { ADMIN_PASSWORD, auth, createTestApp, login } from '../apps/server/test/helpers/test-app';
import { figure } from './api/measure';
import { median, resultsDir } from './support';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const database = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
const log = (text: string) => process.stderr.write(`[fees-reports ${database}] ${text}\n`);

const t = await createTestApp();
const admin = auth(await t.adminToken());
async function call<T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<T> {
  const response = await t.app.inject({ method, url: `/api/v1${url}`, headers: admin, payload: payload as object });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json() as T;
}

const monthOf = (offset: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 7);
};

const seeding = performance.now();
await t.db.query(
  `INSERT INTO students (full_name, class_name, parent_name, parent_phone, created_at)
   SELECT 'Bench pupil ' || g, (ARRAY['7', '8', '9', '10'])[1 + g % 4], 'Bench parent ' || (g / 2),
          '+9197' || lpad((g / 2)::text, 8, '0'), now() - interval '4 years'
     FROM generate_series(1, $1::int) g`,
  [STUDENTS],
);
// The long family: three children on a phone of their own, in the centre for four years.
const longPhone = '+919612345678';
await t.db.query(
  `INSERT INTO students (full_name, class_name, parent_name, parent_phone, created_at)
   SELECT 'Long pupil ' || g, (ARRAY['8', '9', '10'])[g], 'Long parent', $1, now() - interval '4 years'
     FROM generate_series(1, 3) g`,
  [longPhone],
);
await call('POST', '/fees/plans', {
  name: 'Bench tuition',
  kind: 'monthly',
  amount_paise: 150_000,
  class_names: ['7', '8', '9', '10'],
});
await call('PUT', '/fees/discounts', { sibling: { mode: 'percent', value: 10 } });
for (const offset of [-3, -2, -1]) await call('POST', '/fees/charges/run', { month: monthOf(offset) });

// A third of the families pay part of what they owe, at the counter.
const dues = await call<{ family_id: number; balance_paise: number; parent_phone: string }[]>('GET', '/fees/dues');
const today = new Date().toISOString().slice(0, 10);
for (const [index, due] of dues.entries()) {
  if (index % 3 !== 0 || due.parent_phone === longPhone) continue;
  await call('POST', '/fees/payments', {
    family_id: due.family_id,
    amount_paise: Math.floor(due.balance_paise / 2),
    mode: 'cash',
    received_on: today,
    client_id: randomUUID(),
  });
}

// The long family's three years before the last three months: its charges and a cheque each month
// posted straight to the ledger (the counter takes no payment over a year old), a bounced cheque a year
// reversed through the API.
const longFamily = dues.find((due) => due.parent_phone === longPhone);
if (!longFamily) throw new Error('the long family owes nothing: seeding went wrong');
const longStudents = (
  await t.db.query<{ id: number }>('SELECT id FROM students WHERE parent_phone = $1 ORDER BY id', [longPhone])
).map((row) => Number(row.id));
for (let month = 36; month >= 4; month -= 1) {
  for (const studentId of longStudents) {
    await t.db.transaction((tx) =>
      postTransaction(tx, {
        idempotencyKey: `bench:long:${month}:${studentId}`,
        kind: 'charge',
        familyId: longFamily.family_id,
        occurredOn: `${monthOf(-month)}-05`,
        description: `Tuition ${monthOf(-month)}`,
        createdBy: null,
        postings: [
          { account: 'receivable', amountPaise: 150_000, studentId },
          { account: 'tuition_income', amountPaise: -150_000 },
        ],
      }),
    );
  }
  const reference = String(100_000 + month);
  const paid = await t.db.transaction((tx) =>
    allocateAndRecordPayment(tx, {
      idempotencyKey: `bench:long-payment:${month}`,
      familyId: longFamily.family_id,
      amountPaise: 450_000,
      mode: 'cheque',
      receivedOn: `${monthOf(-month)}-10`,
      reference,
      recordedBy: null,
      request: { month, reference },
    }),
  );
  if (month % 12 === 0) await call('POST', `/fees/payments/${paid.payment_id}/reverse`, { reason: 'Cheque bounced' });
}
const statementEntries = (await call<{ entries: unknown[] }>('GET', `/fees/families/${longFamily.family_id}/statement`))
  .entries.length;
const owing = (await call<unknown[]>('GET', '/fees/dues')).length;
log(
  `seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s: ${owing} families owe; the long family's statement has ${statementEntries} entries`,
);

const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
// As a browser asks: compressed (the kept answer is sent as kept), signed in afresh for each run. The
// load comes from autocannon in a process of its own, so its client work does not share the server's
// thread. A run at one connection is a fixed number of requests: Node answers 503 past 1,000 on one socket.
const AUTOCANNON = path.join(path.dirname(fileURLToPath(import.meta.url)), '../node_modules/autocannon/autocannon.js');
const ask = async (url: string, connections: number): Promise<autocannon.Result> => {
  const token = await login(t.app, 'admin', ADMIN_PASSWORD);
  const args = [AUTOCANNON, '-j', '-c', String(connections), '-t', '60'];
  args.push(...(connections === 1 ? ['-a', '500'] : ['-d', String(SECONDS)]));
  args.push(
    '-H',
    `authorization=Bearer ${token}`,
    '-H',
    'accept-encoding=gzip, deflate, br',
    `${address}/api/v1${url}`,
  );
  const run = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
  const result = JSON.parse(run) as autocannon.Result;
  if (result.non2xx > 0) log(`${url}: answers other than 2xx: ${JSON.stringify(result.statusCodeStats)}`);
  return result;
};
await ask('/fees/dues', 32); // warm-up, not counted

const dueRuns = [];
const statementRuns = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const load = os.loadavg()[0] ?? 0;
  dueRuns.push({ ...figure(await ask('/fees/dues', 32)), load });
  statementRuns.push({ ...figure(await ask(`/fees/families/${longFamily.family_id}/statement`, 1)), load });
  log(
    `round ${round + 1}: dues p99 ${dueRuns.at(-1)?.p99} ms, statement p50 ${statementRuns.at(-1)?.p50} ms (load ${load.toFixed(1)})`,
  );
}
await t.close();

const summary = {
  database,
  students: STUDENTS,
  families_owing: owing,
  statement_entries: statementEntries,
  dues_32: {
    p50: median(dueRuns.map((run) => run.p50)),
    p99: median(dueRuns.map((run) => run.p99)),
    worst_p99: Math.max(...dueRuns.map((run) => run.p99)),
    rps: median(dueRuns.map((run) => run.rps)),
    non2xx: dueRuns.reduce((sum, run) => sum + run.non2xx + run.errors, 0),
  },
  statement_1: {
    p50: median(statementRuns.map((run) => run.p50)),
    p99: median(statementRuns.map((run) => run.p99)),
    non2xx: statementRuns.reduce((sum, run) => sum + run.non2xx + run.errors, 0),
  },
  runs: { dues: dueRuns, statement: statementRuns },
};
writeFileSync(path.join(resultsDir(), `fees-reports-${database}.json`), `${JSON.stringify(summary, null, 2)}\n`);
process.stdout.write(
  `fees reports on ${database}, ${STUDENTS} students (${owing} families owe): dues at 32 connections p99 ` +
    `${summary.dues_32.p99} ms median of ${ROUNDS} (worst ${summary.dues_32.worst_p99} ms; target under 100 ms), ` +
    `${summary.dues_32.rps.toFixed(0)} req/s; a ${statementEntries}-entry statement p50 ${summary.statement_1.p50} ms, ` +
    `p99 ${summary.statement_1.p99} ms (target under 50 ms)\n`,
);
if (summary.dues_32.non2xx > 0 || summary.statement_1.non2xx > 0) {
  process.stderr.write('FAILED: some answers were not 2xx\n');
  process.exit(1);
}
