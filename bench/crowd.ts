// Small answers under a crowd: at 32 connections on the large centre, the dashboard (named by the
// minute too, so its answer expires as each minute turns) beside other small answers the console
// polls, in several rounds; figures are the medians of the rounds. Each round measures the dashboard
// twice: across the turn of a minute (the run starts half its length before it) and within a minute.
// Each run follows a second of the same crowd, not counted.
//   npx tsx bench/crowd.ts                                     embedded database
//   BENCH_DATABASE_URL=postgres://… npx tsx bench/crowd.ts     a fresh database on that PostgreSQL server
// BENCH_ROUNDS (default 5) and BENCH_SECONDS (default 5) per figure. BENCH_SERVERS=label=path,… measures
// those builds of the server (default: current=apps/server/dist/server.js, after `npm run build`),
// taking turns on the same seeded database, each going first in turn, so that a change is compared
// before and after under the same load of a shared machine. Writes bench/results/crowd-<db>.json.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../scripts/kit/port';
import { choosePassword, ROOT, SERVER_DIR, WEB_DIST } from '../scripts/kit/server';
import { freshDatabase, seedLargeCentre } from './api/database';
import { cannon, figure, settle } from './api/measure';
import { API } from './api/reads';
import { startFakePushService } from './fake-push';
import type { CrowdFigures, CrowdRun } from './figures';
import { ADMIN_PASSWORD, INITIAL_PASSWORD, median, resultsDir } from './support';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 32;
const WARM_UP_SECONDS = 1;
const serverUrl = process.env.BENCH_DATABASE_URL ?? '';
const kind = serverUrl ? 'postgres' : 'pglite';
const SERVERS = (process.env.BENCH_SERVERS ?? `current=${path.join(SERVER_DIR, 'dist/server.js')}`)
  .split(',')
  .map((entry) => {
    const [label, program] = entry.split('=');
    if (!label || !program) throw new Error(`BENCH_SERVERS: "${entry}" is not label=path`);
    return { label, program: path.resolve(ROOT, program) };
  });

const log = (text: string) => process.stderr.write(`[crowd ${kind}] ${text}\n`);

/** A build of the server on the seeded database, its admin signed in. */
async function startProgram(program: string, dataDir: string, databaseUrl: string, firstStart: boolean) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [program], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      WEB_DIST_DIR: WEB_DIST,
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: INITIAL_PASSWORD,
    },
    stdio: 'inherit',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${program} exited early (${child.exitCode})`);
    if (Date.now() > deadline) throw new Error(`${program} did not answer within 120 s`);
    const up = await fetch(`${base}${API}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  let token: string;
  if (firstStart) token = await choosePassword(base, 'admin', INITIAL_PASSWORD, ADMIN_PASSWORD);
  else {
    const login = await fetch(`${base}${API}/auth/login`, {
      method: 'POST',
      body: new URLSearchParams({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    token = ((await login.json()) as { access_token: string }).access_token;
  }
  return {
    base,
    token,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Sleeps until `seconds` before the next turn of a minute (the next one but one if that is too close). */
async function untilBeforeTheMinute(seconds: number): Promise<void> {
  const toTurn = 60_000 - (Date.now() % 60_000);
  const wait = toTurn - seconds * 1000;
  await new Promise((resolve) => setTimeout(resolve, wait > 0 ? wait : wait + 60_000));
}

const database = await freshDatabase(serverUrl);
const push = await startFakePushService();
log('seeding the large centre (5,000 students, 200 teachers, a year of attendance)…');
const seeded = seedLargeCentre(database, push);
log(`seeded in ${seeded.seconds.toFixed(0)} s`);

const runs: CrowdRun[] = [];
try {
  let firstStart = true;
  let day = '';
  for (let round = 1; round <= ROUNDS; round += 1) {
    // Each build goes first in turn: a load that grows or falls through a round favours none.
    const turn = (round - 1) % SERVERS.length;
    for (const { label, program } of [...SERVERS.slice(turn), ...SERVERS.slice(0, turn)]) {
      const server = await startProgram(program, database.dataDir, database.databaseUrl, firstStart);
      firstStart = false;
      try {
        const auth = { authorization: `Bearer ${server.token}`, 'accept-encoding': 'gzip, deflate, br' };
        if (day === '') {
          const pending = (await fetch(`${server.base}${API}/attendance/pending-approval`, { headers: auth }).then(
            (r) => r.json(),
          )) as { date: string }[];
          day = pending[0]?.date ?? '';
          if (!day) throw new Error('the seeded database has no pending day');
        }
        const measure = async (call: string, url: string, acrossTheMinute = false) => {
          const options = { url: `${server.base}${API}${url}`, headers: auth, connections: CONNECTIONS, timeout: 60 };
          if (acrossTheMinute) await untilBeforeTheMinute(SECONDS / 2 + WARM_UP_SECONDS);
          // A second of the same crowd first, not counted: the figures are of a server that has
          // answered it before, its connections to the database open (an idle pool closes them).
          await cannon(WARM_UP_SECONDS, options);
          const load = os.loadavg()[0] ?? 0;
          const result = await cannon(SECONDS, options);
          const run: CrowdRun = { server: label, round, call, load_1m: load, ...figure(result) };
          runs.push(run);
          log(
            `round ${round}, ${label}: ${call}: ${Math.round(run.rps)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms (load ${load.toFixed(2)})`,
          );
          await settle(server.base);
        };
        await measure('summary', '/attendance/summary');
        await measure('recent activities', '/activities/recent?limit=10');
        await measure('teacher attendance (a day)', `/teacher-attendance/date/${day}`);
        await measure('dashboard, across a minute', '/dashboard/summary', true);
        await measure('dashboard, within a minute', '/dashboard/summary');
      } finally {
        await server.stop();
      }
    }
  }
} finally {
  await push.close();
  await database.drop();
}

const figures: CrowdFigures = {
  kind,
  seconds: SECONDS,
  connections: CONNECTIONS,
  rounds: ROUNDS,
  cpus: os.cpus().length,
  runs,
  medians: [],
};
for (const { label } of SERVERS) {
  for (const call of [...new Set(runs.map((run) => run.call))]) {
    const mine = runs.filter((run) => run.server === label && run.call === call);
    figures.medians.push({
      server: label,
      call,
      rps: median(mine.map((run) => run.rps)),
      p50: median(mine.map((run) => run.p50)),
      p99: median(mine.map((run) => run.p99)),
      worst_p99: Math.max(...mine.map((run) => run.p99)),
      least_rps: Math.min(...mine.map((run) => run.rps)),
      load_1m: median(mine.map((run) => run.load_1m)),
      errors: mine.reduce((sum, run) => sum + run.errors + run.non2xx, 0),
    });
  }
}
writeFileSync(path.join(resultsDir(), `crowd-${kind}.json`), `${JSON.stringify(figures, null, 2)}\n`);
console.log(`\n${CONNECTIONS} connections, ${SECONDS} s a figure, medians of ${ROUNDS} rounds (${kind}):`);
console.log('| Server | Call | req/s (least) | p50 | p99 (worst) | load | errors |');
for (const entry of figures.medians)
  console.log(
    `| ${entry.server} | ${entry.call} | ${Math.round(entry.rps)} (${Math.round(entry.least_rps)}) | ${entry.p50} | ${entry.p99} (${entry.worst_p99}) | ${entry.load_1m.toFixed(2)} | ${entry.errors} |`,
  );
