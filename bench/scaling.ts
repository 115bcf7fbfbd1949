// The reads whose cost must not grow with the number of records (the dashboard, the summary, a day's
// pending records, the history page's counts), measured on a large centre with a year of attendance
// (about 1.5 M records) and again with four years (about 6 M): with the counts kept in rollups, p99
// at the larger size stays within 1.5× of the smaller one.
//   BENCH_DATABASE_URL=postgres://… npx tsx bench/scaling.ts   (DATABASE_URL also works; the embedded
//   database when neither is set). BENCH_SECONDS (default 3) per figure. The server keeps no answers
//   (ANSWER_CACHE_MB=0), so every call does its reads.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { freshDatabase, seedLargeCentre } from './api/database';
import { measureReads, readCalls } from './api/reads';
import { startFakePushService } from './fake-push';
import type { ScalingFigures } from './figures';
import { resultsDir, startBenchServer } from './support';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? '';
const kind = serverUrl ? 'postgres' : 'pglite';
const CALLS = ['dashboard', 'summary', 'pending (a day)', 'history page (7 days)', 'history page (31 days)'];
/** Calendar days of attendance: a year, and four. */
const SIZES = [365, 1460];

const log = (text: string) => process.stderr.write(`[scaling ${kind}] ${text}\n`);
const figures: ScalingFigures = { kind, seconds: SECONDS, sizes: [] };

for (const days of SIZES) {
  const database = await freshDatabase(serverUrl);
  const push = await startFakePushService();
  try {
    log(`seeding 5,000 students with ${days} days of attendance…`);
    const seeded = seedLargeCentre(database, push, { SEED_DAYS: String(days) });
    log(`seeded ${seeded.counts.attendance.toLocaleString('en')} records in ${seeded.seconds.toFixed(0)} s`);
    const server = await startBenchServer({
      dataDir: database.dataDir,
      databaseUrl: database.databaseUrl,
      // No kept answers: every call does its reads (versions, then the kept counts), which is what
      // must not grow with the records; a kept answer would hide it.
      env: { PUSH_ALLOW_LOOPBACK_ENDPOINTS_FOR_TESTS: 'true', ANSWER_CACHE_MB: '0' },
    });
    try {
      const pending = (await fetch(`${server.base}/api/v1/attendance/pending-approval`, {
        headers: { authorization: `Bearer ${server.token}` },
      }).then((r) => r.json())) as { date: string }[];
      const day = pending[0]?.date;
      if (!day) throw new Error('the seeded database has no pending day');
      const calls = readCalls(day, '').filter((call) => CALLS.includes(call.name));
      const measured = await measureReads(server, calls, { seconds: SECONDS, dir: database.dataDir, log });
      figures.sizes.push({ attendance: seeded.counts.attendance, seed_seconds: seeded.seconds, calls: measured });
    } finally {
      await server.stop();
    }
  } finally {
    await push.close();
    await database.drop();
  }
}

writeFileSync(path.join(resultsDir(), `scaling-${kind}.json`), `${JSON.stringify(figures, null, 2)}\n`);
const [small, large] = figures.sizes;
for (const call of small?.calls ?? []) {
  const other = large?.calls.find((entry) => entry.name === call.name);
  if (!other) continue;
  console.log(
    `${call.name.padEnd(28)} p99 @1: ${call.c1.ours.p99} → ${other.c1.ours.p99} ms (${(other.c1.ours.p99 / Math.max(call.c1.ours.p99, 1)).toFixed(2)}×), @32: ${call.c32.ours.p99} → ${other.c32.ours.p99} ms (${(other.c32.ours.p99 / Math.max(call.c32.ours.p99, 1)).toFixed(2)}×)`,
  );
}
