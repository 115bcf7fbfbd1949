// The API at the size of a large centre (5,000 students, 200 teachers, a year of attendance), each
// call measured with autocannon at 1 and 32 connections beside the limit: a bare Fastify route
// answering the same bytes with no database. Also the console in Chromium, a send to every parent,
// approve 200, imports, memory, and a simulated console (BENCH_STAFF people polling every 30 s for
// BENCH_POLL_SECONDS while one marks attendance every second).
//   npx tsx bench/api.ts                       embedded database (PGlite)
//   BENCH_DATABASE_URL=postgres://… npx tsx bench/api.ts   a fresh database on that PostgreSQL server
// BENCH_SECONDS (default 5) per measurement. Prints a table and writes bench/results/api-<db>.json.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { consoleTimings } from './api/console';
import { freshDatabase, seedLargeCentre } from './api/database';
import { rssMb, sampleRss, settle } from './api/measure';
import { simulatedConsole } from './api/polling';
import { API, measureReads, readCalls } from './api/reads';
import { printResults } from './api/table';
import { approveInHundreds, importWorkbook, sendToAllParents } from './api/writes';
import { startFakePushService } from './fake-push';
import type { ApiResults } from './figures';
import { ADMIN_PASSWORD, resultsDir, startBenchServer } from './support';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const POLLING_STAFF = Number(process.env.BENCH_STAFF ?? 50);
const POLLING_SECONDS = Number(process.env.BENCH_POLL_SECONDS ?? 60);
const serverUrl = process.env.BENCH_DATABASE_URL ?? '';
const kind = serverUrl ? 'postgres' : 'pglite';

function log(text: string): void {
  process.stderr.write(`[bench ${kind}] ${text}\n`);
}

const database = await freshDatabase(serverUrl);
const push = await startFakePushService();
log('seeding 5,000 students, 200 teachers, a year of attendance, a push device per parent…');
const seeded = seedLargeCentre(database, push);
log(`seeded in ${seeded.seconds.toFixed(1)} s: ${JSON.stringify(seeded.counts)}`);

const server = await startBenchServer({
  dataDir: database.dataDir,
  databaseUrl: database.databaseUrl,
  env: { PUSH_ALLOW_LOOPBACK_ENDPOINTS_FOR_TESTS: 'true' },
});
const results: ApiResults = {
  kind,
  seconds: SECONDS,
  seeded,
  calls: [],
  approve: null,
  send: null,
  console: null,
  imports: [],
  memory: {},
  polling: null,
};
try {
  // The seed leaves its last school day pending approval: that is "a day".
  const pendingAll = (await fetch(`${server.base}${API}/attendance/pending-approval`, {
    headers: { authorization: `Bearer ${server.token}` },
  }).then((r) => r.json())) as { date: string; student_id: number }[];
  const day = pendingAll[0]?.date;
  if (!day) throw new Error('the seeded database has no pending day');
  const signInForm = new URLSearchParams({ username: 'admin', password: ADMIN_PASSWORD }).toString();

  results.memory.rest_mb = rssMb(server.pid);
  const memory = sampleRss(server.pid);
  results.calls = await measureReads(server, readCalls(day, signInForm), {
    seconds: SECONDS,
    dir: database.dataDir,
    log,
  });
  results.memory.load_peak_mb = memory.stop();
  await settle(server.base);

  results.console = await consoleTimings(server.base);
  log(
    `console: sign-in ${results.console.sign_in_ms.toFixed(0)} ms, then students table ${results.console.students_table_ms.toFixed(0)} ms`,
  );

  results.polling = await simulatedConsole(server, {
    day,
    staff: POLLING_STAFF,
    seconds: POLLING_SECONDS,
    intervalMs: 30_000,
    studentIds: pendingAll.slice(0, 200).map((record) => record.student_id),
  });
  log(
    `simulated console, ${POLLING_STAFF} staff polling every 30 s while one marks a record a second, ${POLLING_SECONDS} s: ${results.polling.polls} polls, ${(100 * results.polling.not_modified_share).toFixed(0)} % answered 304, server CPU ${(100 * results.polling.server_cpu_share).toFixed(0)} % of a core`,
  );
  await settle(server.base);

  results.send = await sendToAllParents(server, push, seeded.counts.push_subscriptions);
  log(
    `send to ${results.send.recipients} parents: answered in ${results.send.answer_ms.toFixed(0)} ms, ${results.send.devices} pushes delivered in ${results.send.drained_s.toFixed(1)} s`,
  );

  results.approve = await approveInHundreds(server, day);
  log(`approve 200: median ${results.approve.median_ms.toFixed(1)} ms, max ${results.approve.max_ms.toFixed(1)} ms`);

  for (const [what, rows] of [
    ['students', 5000],
    ['teachers', 500],
  ] as const) {
    const imported = await importWorkbook(server, what, rows);
    results.imports.push(imported);
    log(
      `import ${rows} ${what}: ${imported.seconds.toFixed(2)} s, ${imported.imported} imported, peak RSS ${imported.peak_rss_mb.toFixed(0)} MB`,
    );
  }
  results.memory.after_mb = rssMb(server.pid);
} finally {
  await server.stop();
  await push.close();
  await database.drop();
}

writeFileSync(path.join(resultsDir(), `api-${kind}.json`), `${JSON.stringify(results, null, 2)}\n`);
printResults(results);
