// Alone: `npx tsx bench/charge-run.ts` (BENCH_STUDENTS, default 5000; TEST_DATABASE_URL for PostgreSQL).
// Issue 29's target: the charge run for the large centre (5,000 students) under 5 s (ADR 052). Students
// two to a family, a monthly plan on every class with a sibling discount, a per-day plan on one class
// with a month of approved attendance; the month before is run by hand through the API, then again
// (nothing to post). Prints the figures and fails (exit 1) if the second run posted anything or the
// ledger does not balance.
import { createTestApp } from '../apps/server/test/helpers/test-app';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 5000);
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

let started = performance.now();
const first = (await call('POST', '/fees/charges/run', { month })).created as number;
const firstMs = performance.now() - started;
started = performance.now();
const again = (await call('POST', '/fees/charges/run', { month })).created as number;
const againMs = performance.now() - started;
const unbalanced = await t.db.query(
  'SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING sum(amount_paise) <> 0',
);
await t.close();

const database = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
process.stdout.write(
  `charge run, ${STUDENTS} students on ${database} (${month}): ${first} transactions in ${(firstMs / 1000).toFixed(1)} s ` +
    `(target under 5 s); again: ${again} in ${(againMs / 1000).toFixed(2)} s\n`,
);
if (again !== 0 || unbalanced.length > 0) {
  process.stderr.write(`FAILED: the second run posted ${again}; ${unbalanced.length} transactions do not balance\n`);
  process.exit(1);
}
