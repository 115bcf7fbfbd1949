// The API at the size of a large centre (5,000 students, 200 teachers, a year of attendance), each
// call measured with autocannon at 1 and 32 connections beside the limit: a bare Fastify route
// answering the same bytes with no database. Also approve 200, imports, memory.
//   node bench/api.mjs                       embedded database (PGlite)
//   BENCH_DATABASE_URL=postgres://… node bench/api.mjs   a fresh database on that PostgreSQL server
// BENCH_SECONDS (default 5) per measurement. Prints a table and writes bench/results/api-<db>.json.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import autocannon from 'autocannon';
import pg from 'pg';
import { deviceKeys, startFakePushService } from './fake-push.mjs';
import { ADMIN_PASSWORD, freePort, launchChromium, median, resultsDir, root, startServer } from './support.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const serverUrl = process.env.BENCH_DATABASE_URL ?? '';
const kind = serverUrl ? 'postgres' : 'pglite';
const API = '/api/v1';

function log(text) {
  process.stderr.write(`[bench ${kind}] ${text}\n`);
}

/** A fresh database: a PGlite data directory, or a new database on the PostgreSQL server. */
async function freshDatabase() {
  if (!serverUrl) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tuitiondesk-bench-large-'));
    return { dataDir, databaseUrl: '', drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `tuitiondesk_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    dataDir: mkdtempSync(path.join(tmpdir(), 'tuitiondesk-bench-pg-')),
    databaseUrl: url.toString(),
    drop: async () => {
      const cleaner = new pg.Client({ connectionString: serverUrl });
      await cleaner.connect();
      await cleaner.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleaner.end();
    },
  };
}

function seed(database, push) {
  const started = performance.now();
  const result = spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['src/scripts/seed-large.ts'], {
    cwd: path.join(root, 'apps/server'),
    env: {
      ...process.env,
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.databaseUrl,
      ADMIN_PASSWORD: 'bench-initial-password',
      LOG_LEVEL: 'silent',
      SEED_PUSH_ENDPOINT: push.base,
      SEED_PUSH_P256DH: push.keys.p256dh,
      SEED_PUSH_AUTH: push.keys.auth,
    },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`seeding failed: ${result.stderr}`);
  return { seconds: (performance.now() - started) / 1000, counts: JSON.parse(result.stdout.trim().split('\n').pop()) };
}

/** Resident memory of a process, in MB (Linux). */
function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

function sampleRss(pid) {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, rssMb(pid));
    },
  };
}

function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: SECONDS, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Waits until the server answers its health check quickly: requests left over from a run must not weigh on the next. */
async function settle(base) {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    const ok = await fetch(`${base}${API}/health`, { signal: AbortSignal.timeout(10_000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok && performance.now() - started < 100) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not settle within 5 minutes');
}

function figure(result) {
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** From clicking Sign In to the dashboard, then from the Students menu item to the table's first row. */
async function consoleTimings(base) {
  const browser = await launchChromium();
  try {
    const runs = [];
    for (let i = 0; i < 3; i += 1) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${base}/login`);
      await page.getByLabel(/^Username/).fill('admin');
      await page.getByLabel(/^Password/).fill(ADMIN_PASSWORD);
      const signInStarted = performance.now();
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL('**/dashboard', { timeout: 60_000 });
      const signedIn = performance.now();
      await page.getByRole('link', { name: 'Students' }).first().click();
      await page.getByRole('row').nth(1).waitFor({ timeout: 60_000 });
      const tableShown = performance.now();
      runs.push({ sign_in_ms: signedIn - signInStarted, students_table_ms: tableShown - signedIn });
      await context.close();
    }
    return {
      runs,
      sign_in_ms: median(runs.map((run) => run.sign_in_ms)),
      students_table_ms: median(runs.map((run) => run.students_table_ms)),
      sign_in_to_table_ms: median(runs.map((run) => run.sign_in_ms + run.students_table_ms)),
    };
  } finally {
    await browser.close();
  }
}

const database = await freshDatabase();
const push = await startFakePushService();
push.keys = deviceKeys();
log('seeding 5,000 students, 200 teachers, a year of attendance, a push device per parent…');
const seeded = seed(database, push);
log(`seeded in ${seeded.seconds.toFixed(1)} s: ${JSON.stringify(seeded.counts)}`);

const server = await startServer({
  dataDir: database.dataDir,
  databaseUrl: database.databaseUrl,
  env: { PUSH_ALLOW_LOOPBACK_ENDPOINTS_FOR_TESTS: 'true' },
});
const auth = { authorization: `Bearer ${server.token}` };
const results = {
  kind,
  seconds: SECONDS,
  seeded,
  calls: [],
  approve: null,
  send: null,
  console: null,
  imports: [],
  memory: {},
};
let bare;
try {
  // The seed leaves its last school day pending approval: that is "a day".
  const pendingAll = await fetch(`${server.base}${API}/attendance/pending-approval`, { headers: auth }).then((r) =>
    r.json(),
  );
  const day = pendingAll[0]?.date;
  if (!day) throw new Error('the seeded database has no pending day');
  const shift = (days) => {
    const date = new Date(`${day}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() - days);
    return date.toISOString().slice(0, 10);
  };
  const form = new URLSearchParams({ username: 'admin', password: ADMIN_PASSWORD }).toString();
  const calls = [
    { name: 'sign-in', method: 'POST', path: `${API}/auth/login`, body: form, form: true },
    { name: 'students', method: 'GET', path: `${API}/students/` },
    { name: 'teachers', method: 'GET', path: `${API}/teachers/` },
    { name: 'pending (a day)', method: 'GET', path: `${API}/attendance/pending-approval?attendance_date=${day}` },
    { name: 'pending (all days)', method: 'GET', path: `${API}/attendance/pending-approval` },
    {
      name: 'history (7 days)',
      method: 'GET',
      path: `${API}/attendance/history?start_date=${shift(6)}&end_date=${day}`,
    },
    {
      name: 'history (31 days)',
      method: 'GET',
      path: `${API}/attendance/history?start_date=${shift(30)}&end_date=${day}`,
    },
    {
      name: 'history page (7 days)',
      method: 'GET',
      path: `${API}/attendance/history/page?start_date=${shift(6)}&end_date=${day}&limit=25`,
    },
    {
      name: 'history page (31 days)',
      method: 'GET',
      path: `${API}/attendance/history/page?start_date=${shift(30)}&end_date=${day}&limit=25&offset=100`,
    },
    {
      name: 'history page (31 d, search)',
      method: 'GET',
      path: `${API}/attendance/history/page?start_date=${shift(30)}&end_date=${day}&search=kabir&status=absent`,
    },
    { name: 'summary', method: 'GET', path: `${API}/attendance/summary` },
    { name: 'teacher attendance (a day)', method: 'GET', path: `${API}/teacher-attendance/date/${day}` },
    { name: 'communications history', method: 'GET', path: `${API}/communications/history` },
    { name: 'recent activities', method: 'GET', path: `${API}/activities/recent?limit=10` },
    { name: 'dashboard', method: 'GET', path: `${API}/dashboard/summary` },
  ];

  // What each call answers: its bytes become the bare server's answer.
  const payloads = {};
  for (const [index, call] of calls.entries()) {
    const response = await fetch(`${server.base}${call.path}`, {
      method: call.method,
      headers: call.form ? { 'content-type': 'application/x-www-form-urlencoded' } : auth,
      body: call.body,
    });
    const body = await response.text();
    if (!response.ok) throw new Error(`${call.name} answered ${response.status}: ${body.slice(0, 200)}`);
    call.bytes = Buffer.byteLength(body);
    payloads[`c${index}`] = {
      method: call.method,
      contentType: response.headers.get('content-type'),
      body,
    };
  }
  const payloadFile = path.join(database.dataDir, 'payloads.json');
  writeFileSync(payloadFile, JSON.stringify(payloads));
  const barePort = await freePort();
  bare = spawn(process.execPath, [path.join(root, 'bench/bare-server.mjs'), payloadFile, String(barePort)], {
    stdio: 'inherit',
  });
  for (let i = 0; ; i += 1) {
    if (i > 100) throw new Error('the bare server did not start');
    if (
      await fetch(`http://127.0.0.1:${barePort}/bare/c1`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  results.memory.rest_mb = rssMb(server.pid);
  const memory = sampleRss(server.pid);
  for (const [index, call] of calls.entries()) {
    const entry = { name: call.name, bytes: call.bytes };
    for (const connections of [1, 32]) {
      const headers = call.form ? { 'content-type': 'application/x-www-form-urlencoded' } : auth;
      const ours = await cannon({
        url: `${server.base}${call.path}`,
        method: call.method,
        headers,
        body: call.body,
        connections,
        timeout: 60,
      });
      await settle(server.base);
      const limit = await cannon({
        url: `http://127.0.0.1:${barePort}/bare/c${index}`,
        method: call.method,
        headers: call.form ? headers : {},
        body: call.body,
        connections,
        timeout: 60,
      });
      entry[`c${connections}`] = { ours: figure(ours), bare: figure(limit) };
      log(
        `${call.name} @${connections}: p50 ${ours.latency.p50} ms, p99 ${ours.latency.p99} ms, ${Math.round(ours.requests.average)} req/s (bare p99 ${limit.latency.p99} ms, ${Math.round(limit.requests.average)} req/s)`,
      );
    }
    results.calls.push(entry);
  }
  results.memory.load_peak_mb = memory.stop();
  await settle(server.base);

  // The console in Chromium, on this data.
  results.console = await consoleTimings(server.base);
  log(
    `console: sign-in ${results.console.sign_in_ms.toFixed(0)} ms, then students table ${results.console.students_table_ms.toFixed(0)} ms`,
  );

  // Send to all parents: one device each on the fake push service.
  const devices = seeded.counts.push_subscriptions;
  const sendStarted = performance.now();
  const sent = await fetch(`${server.base}${API}/messages/send-to-parents`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ subject: 'Holiday', message: 'The centre is closed on Friday.', recipients: 'all_parents' }),
  });
  const sentBody = await sent.json();
  const answered = performance.now();
  if (!sent.ok) throw new Error(`send answered ${sent.status}: ${JSON.stringify(sentBody)}`);
  const lastPush = await push.waitFor(devices, 300_000);
  results.send = {
    recipients: sentBody.recipients_count,
    devices,
    answer_ms: answered - sendStarted,
    drained_s: (lastPush - sendStarted) / 1000,
    malformed: push.state.malformed,
  };
  log(
    `send to ${sentBody.recipients_count} parents: answered in ${results.send.answer_ms.toFixed(0)} ms, ${devices} pushes delivered in ${results.send.drained_s.toFixed(1)} s`,
  );

  // Approving 200 pending records, one call at a time, 20 times.
  const pending = await fetch(`${server.base}${API}/attendance/pending-approval?attendance_date=${day}`, {
    headers: auth,
  }).then((r) => r.json());
  const approveTimes = [];
  for (let i = 0; i < 20 && (i + 1) * 200 <= pending.length; i += 1) {
    const ids = pending.slice(i * 200, (i + 1) * 200).map((record) => record.id);
    const started = performance.now();
    const response = await fetch(`${server.base}${API}/attendance/approve`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ attendance_ids: ids }),
    });
    await response.text();
    if (!response.ok) throw new Error(`approve answered ${response.status}`);
    approveTimes.push(performance.now() - started);
  }
  results.approve = {
    runs: approveTimes.length,
    median_ms: median(approveTimes),
    max_ms: Math.max(...approveTimes),
  };
  log(`approve 200: median ${results.approve.median_ms.toFixed(1)} ms, max ${results.approve.max_ms.toFixed(1)} ms`);

  // Imports: a 5,000-row student workbook and a 500-row teacher workbook.
  for (const { kind: what, rows } of [
    { kind: 'students', rows: 5000 },
    { kind: 'teachers', rows: 500 },
  ]) {
    const sheet = [];
    if (what === 'students') {
      sheet.push(['full_name', 'class_name', 'parent_phone', 'parent_name']);
      for (let i = 0; i < rows; i += 1)
        sheet.push([`Imported Pupil ${i}`, String(7 + (i % 4)), `+9196${String(i).padStart(8, '0')}`, `Guardian ${i}`]);
    } else {
      sheet.push(['first_name', 'last_name', 'email', 'phone_number', 'subjects', 'classes_assigned']);
      for (let i = 0; i < rows; i += 1)
        sheet.push([
          'Imported',
          `Tutor${i}`,
          `imported.tutor${i}@centre.example`,
          `+9195${String(i).padStart(8, '0')}`,
          'Mathematics',
          '7, 8',
        ]);
    }
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(sheet), what);
    const body = new FormData();
    body.append('file', new Blob([XLSX.write(book, { type: 'buffer', bookType: 'xlsx' })]), `${what}.xlsx`);
    const sampler = sampleRss(server.pid);
    const started = performance.now();
    const response = await fetch(`${server.base}${API}/import/${what}/import`, {
      method: 'POST',
      headers: auth,
      body,
    });
    const answer = await response.json();
    const seconds = (performance.now() - started) / 1000;
    const peak = sampler.stop();
    const imported = answer.imported_count ?? answer.imported ?? 0;
    results.imports.push({ kind: what, rows, imported, seconds, peak_rss_mb: peak });
    log(`import ${rows} ${what}: ${seconds.toFixed(2)} s, ${imported} imported, peak RSS ${peak.toFixed(0)} MB`);
    if (!response.ok) throw new Error(`import answered ${response.status}: ${JSON.stringify(answer).slice(0, 200)}`);
  }
  results.memory.after_mb = rssMb(server.pid);
} finally {
  bare?.kill('SIGTERM');
  await server.stop();
  await push.close();
  await database.drop();
}

writeFileSync(path.join(resultsDir(), `api-${kind}.json`), `${JSON.stringify(results, null, 2)}\n`);

const pad = (text, width) => String(text).padEnd(width);
console.log(`\nAPI at 5,000 students / 1.5 M attendance records, ${kind}, ${SECONDS} s per figure`);
console.log(
  `${pad('call', 28)}${pad('KB', 8)}${pad('1 conn p50/p99 ms', 20)}${pad('bare p99', 10)}${pad('32 conn p50/p99 ms', 21)}${pad('req/s', 8)}${pad('bare req/s', 11)}`,
);
for (const call of results.calls) {
  console.log(
    `${pad(call.name, 28)}${pad((call.bytes / 1024).toFixed(1), 8)}${pad(`${call.c1.ours.p50}/${call.c1.ours.p99}`, 20)}${pad(call.c1.bare.p99, 10)}${pad(`${call.c32.ours.p50}/${call.c32.ours.p99}`, 21)}${pad(Math.round(call.c32.ours.rps), 8)}${pad(Math.round(call.c32.bare.rps), 11)}`,
  );
}
console.log(
  JSON.stringify({
    approve: results.approve,
    send: results.send,
    console: results.console,
    imports: results.imports,
    memory: results.memory,
  }),
);
