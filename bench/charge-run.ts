// Alone: `npx tsx bench/charge-run.ts` (BENCH_STUDENTS, default 5000; BENCH_ROUNDS, default 3;
// TEST_DATABASE_URL for PostgreSQL). Issue 29's target: the charge run for the large centre (5,000
// students) under 5 s (ADR 052). Each round on a fresh database: students two to a family, a monthly
// plan on every class with a sibling discount, a per-day plan on one class with a month of approved
// attendance; the month before is run by hand through the API, then again (nothing to post). Medians
// of the rounds; on the embedded database also the process's CPU time, which is the run's time on an
// idle machine (the database runs on this thread) and is less swayed than the wall clock by other work
// on a shared one. Writes bench/results/charge-run-<db>.json; fails (exit 1) if a second run posted
// anything or the ledger does not balance.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp } from '../apps/server/test/helpers/test-app';
import { median, resultsDir } from './support';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const database = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
const log = (text: string) => process.stderr.write(`[charge-run ${database}] ${text}\n`);

/** Wall and CPU milliseconds of `work`. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { value, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

async function round() {
  const t = await createTestApp();
  const admin = { authorization: `Bearer ${await t.adminToken()}` };
  const call = async (method: 'POST' | 'PUT', url: string, payload: unknown) => {
    const response = await t.app.inject({ method, url: `/api/v1${url}`, headers: admin, payload: payload as object });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const now = new Date();
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  await t.db.query(
    `INSERT INTO students (full_name, class_name, parent_name, parent_phone, created_at)
     SELECT 'Bench pupil ' || g, (ARRAY['7', '8', '9', '10'])[1 + g % 4], 'Bench parent',
            '+9197' || lpad((g / 2)::text, 8, '0'), now() - interval '2 years'
       FROM generate_series(1, $1::int) g`,
    [STUDENTS],
  );
  await t.db.query(
    `INSERT INTO attendance (student_id, date, class_name, status, marked_by, approved_by, approved_at)
     SELECT s.id, d::date, s.class_name, CASE WHEN extract(day FROM d)::int % 5 = 0 THEN 'absent' ELSE 'present' END,
            'Bench', 'Bench', now()
       FROM students s CROSS JOIN generate_series($1::date, ($1::date + interval '1 month' - interval '1 day'), interval '1 day') d
      WHERE s.class_name = '10'`,
    [`${month}-01`],
  );
  await call('POST', '/fees/plans', {
    name: 'Bench tuition',
    kind: 'monthly',
    amount_paise: 150_000,
    class_names: ['7', '8', '9', '10'],
  });
  await call('POST', '/fees/plans', { name: 'Bench lab', kind: 'per_day', amount_paise: 5_000, class_names: ['10'] });
  await call('PUT', '/fees/discounts', { sibling: { mode: 'percent', value: 10 } });

  const load = os.loadavg()[0] ?? 0;
  const first = await timed(async () => (await call('POST', '/fees/charges/run', { month })).created as number);
  const again = await timed(async () => (await call('POST', '/fees/charges/run', { month })).created as number);
  const unbalanced = await t.db.query(
    'SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING sum(amount_paise) <> 0',
  );
  await t.close();
  return {
    month,
    load: Number(load.toFixed(1)),
    transactions: first.value,
    first_ms: Math.round(first.wallMs),
    first_cpu_ms: Math.round(first.cpuMs),
    again_posted: again.value,
    again_ms: Math.round(again.wallMs),
    again_cpu_ms: Math.round(again.cpuMs),
    unbalanced: unbalanced.length,
  };
}

const rounds = [];
for (let index = 0; index < ROUNDS; index += 1) {
  rounds.push(await round());
  const last = rounds.at(-1);
  log(
    `round ${index + 1}: ${last?.transactions} transactions in ${last?.first_ms} ms (CPU ${last?.first_cpu_ms} ms), ` +
      `again ${last?.again_ms} ms, load ${last?.load}`,
  );
}
const summary = {
  database,
  students: STUDENTS,
  transactions: rounds[0]?.transactions,
  first_ms: median(rounds.map((r) => r.first_ms)),
  first_cpu_ms: median(rounds.map((r) => r.first_cpu_ms)),
  again_ms: median(rounds.map((r) => r.again_ms)),
  again_cpu_ms: median(rounds.map((r) => r.again_cpu_ms)),
  rounds,
};
writeFileSync(path.join(resultsDir(), `charge-run-${database}.json`), `${JSON.stringify(summary, null, 2)}\n`);
const seconds = (ms: number) => (ms / 1000).toFixed(2);
process.stdout.write(
  `charge run, ${STUDENTS} students on ${database}: ${summary.transactions} transactions in ${seconds(summary.first_ms)} s ` +
    `median of ${ROUNDS} (CPU ${seconds(summary.first_cpu_ms)} s; target under 5 s); again: ${seconds(summary.again_ms)} s\n`,
);
const wrong = rounds.filter((r) => r.again_posted !== 0 || r.unbalanced > 0);
if (wrong.length > 0) {
  process.stderr.write(`FAILED: ${JSON.stringify(wrong)}\n`);
  process.exit(1);
}
