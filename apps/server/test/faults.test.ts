/**
 * Faults injected into the real server process (`node --import tsx src/server.ts`):
 * - its PostgreSQL server stopped as if it crashed (immediate) in the middle of reads and writes,
 *   then started again: the process stays up, answers 503 with a detail meanwhile, recovers by
 *   itself, and no write is half-applied or, once acknowledged, lost;
 * - the process killed (SIGKILL) in the middle of a 5,000-row import and of a 5,000-record approval,
 *   on the embedded database and on PostgreSQL: after a restart each is wholly applied or not at all;
 * - SIGTERM during an import: the import finishes, new requests are refused, the process exits 0,
 *   and the data directory opens again with everything in it.
 *
 * PostgreSQL here is a private server (initdb in a temporary directory), never the machine's own.
 */

import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE } from '../src/lib/errors';
import { addDays, today } from '../src/lib/time';
import { type PrivatePostgres, postgresBinDir, startPrivatePostgres } from './helpers/private-postgres';
import {
  choosePassword,
  cleanUpProcesses,
  login,
  type ServerProcess,
  START_TIMEOUT,
  startServer,
  stopServer,
  tempDir,
} from './helpers/server-process';
import { multipartBody, workbook } from './helpers/workbooks';

const ADMIN_PASSWORD = 'fault-start-password';
const ROWS = 5000;
const TIMEOUT = { timeout: 8 * START_TIMEOUT };

/** What the run did, printed at the end for the record. */
const figures = { requests: 0, faults: 0, unexpected5xx: 0, rowsLost: 0, half: 0 };

let privatePostgres: PrivatePostgres | undefined;
const hasPostgres = postgresBinDir() !== undefined;
if (!hasPostgres && process.env.CI) throw new Error('CI needs the PostgreSQL server binaries for the fault tests');

afterAll(async () => {
  await cleanUpProcesses();
  await privatePostgres?.destroy();
  console.log(
    `fault tests: ${figures.requests} requests, ${figures.faults} faults injected, ` +
      `${figures.unexpected5xx} unexpected 5xx, ${figures.rowsLost} acknowledged rows lost, ${figures.half} half-applied writes`,
  );
});

interface Answer {
  status: number;
  body: Record<string, unknown> & { detail?: unknown };
  retryAfter: string | null;
}

async function call(
  server: ServerProcess,
  method: string,
  url: string,
  token: string | undefined,
  body?: unknown,
): Promise<Answer> {
  figures.requests += 1;
  const isMultipart = body instanceof Buffer;
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let payload: string | Uint8Array | undefined;
  if (isMultipart) {
    const multipart = multipartBody([{ field: 'file', filename: 'students.xlsx', content: body }]);
    Object.assign(headers, multipart.headers);
    payload = new Uint8Array(multipart.payload);
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(`${server.url}/api/v1${url}`, {
    method,
    headers,
    body: payload,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let parsed: Answer['body'] = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { raw: text };
  }
  if (response.status >= 500 && response.status !== 503) figures.unexpected5xx += 1;
  return { status: response.status, body: parsed, retryAfter: response.headers.get('retry-after') };
}

const OWN_PASSWORD = 'Harbour-Lantern-Fault-9';

/** The admin signs in; on a new database it first chooses its own password, as the person would. */
async function signIn(server: ServerProcess, isFirst = false): Promise<string> {
  const password = isFirst ? ADMIN_PASSWORD : OWN_PASSWORD;
  const answer = await login(server, 'admin', password);
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  const token = answer.body.access_token as string;
  return isFirst ? choosePassword(server, token, password, OWN_PASSWORD) : token;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A 10-digit Indian mobile number per batch and row, so every student of every batch is distinct. */
const phone = (batch: number, row: number) => `+919${batch}${String(row).padStart(8, '0')}`;

function studentsWorkbook(batch: string, batchNumber: number, rows = ROWS): Buffer {
  const data: (string | number)[][] = [['First Name', 'Last Name', 'Class', 'Parent Mobile', 'Parent Name']];
  for (let row = 0; row < rows; row += 1) {
    data.push([`${batch}`, `Student ${row}`, String(7 + (row % 4)), phone(batchNumber, row), `Parent ${row}`]);
  }
  return workbook(data);
}

/** Students of a batch (their first name) on record, through the API. */
async function countBatch(server: ServerProcess, token: string, batch: string): Promise<number> {
  const answer = await call(server, 'GET', '/students/', token);
  expect(answer.status).toBe(200);
  const list = answer.body as unknown as { full_name: string }[];
  return list.filter((student) => student.full_name.startsWith(`${batch} `)).length;
}

async function pendingOn(server: ServerProcess, token: string, date: string): Promise<number> {
  const answer = await call(server, 'GET', `/attendance/pending-approval?attendance_date=${date}`, token);
  expect(answer.status).toBe(200);
  return (answer.body as unknown as unknown[]).length;
}

/**
 * Starts `request`, kills the process with SIGKILL `afterMs` later, and answers whether the answer
 * had arrived first (then the work must be wholly there).
 */
async function killDuring(server: ServerProcess, request: Promise<Answer>, afterMs: number): Promise<boolean> {
  let answered = false;
  const settled = request.then(
    () => {
      answered = true;
    },
    () => {},
  );
  await sleep(afterMs);
  server.child.kill('SIGKILL');
  await server.exited;
  await settled;
  figures.faults += 1;
  return answered;
}

/**
 * SIGKILL in the middle of an import and of an approval, on one database: each is wholly applied or
 * not at all after the restart. At least one kill must land while the work is in flight.
 */
async function killScenario(env: Record<string, string>): Promise<void> {
  let server = await startServer(env);
  let token = await signIn(server, true);

  // A first import, timed, so the kills below fall inside the work.
  const started = Date.now();
  const first = await call(server, 'POST', '/import/students/import', token, studentsWorkbook('Alpha', 1));
  const importMs = Date.now() - started;
  expect(first.status).toBe(200);
  expect(first.body.imported_count).toBe(ROWS);

  let killedInFlight = 0;
  for (const [index, fraction] of [0.4, 0.75].entries()) {
    const batch = `Kill${index}`;
    const file = studentsWorkbook(batch, 2 + index);
    const answered = await killDuring(
      server,
      call(server, 'POST', '/import/students/import', token, file),
      Math.round(importMs * fraction),
    );
    server = await startServer(env);
    token = await signIn(server);
    const count = await countBatch(server, token, batch);
    if (count !== 0 && count !== ROWS) figures.half += 1;
    if (answered && count !== ROWS) figures.rowsLost += ROWS - count;
    expect({ batch, count: count === 0 || count === ROWS ? 'all or nothing' : count }).toEqual({
      batch,
      count: 'all or nothing',
    });
    if (answered) expect(count).toBe(ROWS);
    else killedInFlight += 1;
  }

  // The first batch, marked on three days (a tenth absent, so approval also writes absence alerts).
  const students = (await call(server, 'GET', '/students/', token)).body as unknown as {
    id: number;
    full_name: string;
  }[];
  const alpha = students.filter((student) => student.full_name.startsWith('Alpha '));
  expect(alpha).toHaveLength(ROWS);
  const days = [1, 2, 3].map((back) => addDays(today(), -back));
  for (const date of days) {
    const marked = await call(server, 'POST', '/attendance/mark', token, {
      date,
      records: alpha.map((student, row) => ({ student_id: student.id, status: row % 10 === 0 ? 'absent' : 'present' })),
    });
    expect(marked.status).toBe(200);
  }
  const idsOn = async (date: string) =>
    (
      (await call(server, 'GET', `/attendance/pending-approval?attendance_date=${date}`, token)).body as unknown as {
        id: number;
      }[]
    ).map((record) => record.id);

  const [timedDay, ...killDays] = days as [string, ...string[]];
  const approveStarted = Date.now();
  const approved = await call(server, 'POST', '/attendance/approve', token, { attendance_ids: await idsOn(timedDay) });
  const approveMs = Date.now() - approveStarted;
  expect(approved.body.approved_count).toBe(ROWS);

  for (const [index, date] of killDays.entries()) {
    const ids = await idsOn(date);
    expect(ids).toHaveLength(ROWS);
    const answered = await killDuring(
      server,
      call(server, 'POST', '/attendance/approve', token, { attendance_ids: ids }),
      Math.round(approveMs * (index === 0 ? 0.3 : 0.7)),
    );
    server = await startServer(env);
    token = await signIn(server);
    const pending = await pendingOn(server, token, date);
    if (pending !== 0 && pending !== ROWS) figures.half += 1;
    expect({ date, pending: pending === 0 || pending === ROWS ? 'all or nothing' : pending }).toEqual({
      date,
      pending: 'all or nothing',
    });
    if (answered) expect(pending).toBe(0);
    else killedInFlight += 1;
  }
  // Absence alerts go with their approval: one per absent record of each approved day, none else.
  const history = (await call(server, 'GET', '/communications/history?limit=5000', token)).body as unknown as unknown[];
  const approvedDays = (await Promise.all(days.map((date) => pendingOn(server, token, date)))).filter(
    (pending) => pending === 0,
  ).length;
  expect(history.length).toBe(approvedDays * (ROWS / 10));

  expect(killedInFlight).toBeGreaterThan(0);
  expect(await stopServer(server)).toBe(0);
}

describe('the server killed (SIGKILL) in the middle of its work', TIMEOUT, () => {
  it('on the embedded database: a 5,000-row import and a 5,000-record approval are each all or nothing', async () => {
    await killScenario({ DATA_DIR: tempDir(), ADMIN_PASSWORD });
  });

  it.skipIf(!hasPostgres)(
    'on PostgreSQL: a 5,000-row import and a 5,000-record approval are each all or nothing',
    async () => {
      privatePostgres ??= await startPrivatePostgres();
      await createDatabase(privatePostgres.url, 'kill_test');
      await killScenario({ DATABASE_URL: databaseUrl(privatePostgres.url, 'kill_test'), ADMIN_PASSWORD });
    },
  );
});

async function createDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

describe('PostgreSQL restarted under a load of reads and writes', TIMEOUT, () => {
  it.skipIf(!hasPostgres)(
    'stays up, answers 503 with a detail while the database is away, recovers by itself, and loses or splits no write',
    async () => {
      privatePostgres ??= await startPrivatePostgres();
      await createDatabase(privatePostgres.url, 'restart_test');
      const url = databaseUrl(privatePostgres.url, 'restart_test');
      const server = await startServer({ DATABASE_URL: url, ADMIN_PASSWORD });
      const token = await signIn(server, true);

      const roster: number[] = [];
      for (let row = 0; row < 10; row += 1) {
        const created = await call(server, 'POST', '/students/', token, {
          full_name: `Roster ${row}`,
          class_name: '8',
          parent_name: `Parent ${row}`,
          parent_phone: phone(7, row),
        });
        expect(created.status).toBe(201);
        roster.push(created.body.id as number);
      }

      type Op = 'list' | 'create' | 'mark' | 'dashboard';
      const log: { op: Op; n: number; answer: Answer }[] = [];
      let stop = false;
      let next = 0;
      const worker = async () => {
        while (!stop) {
          const n = next++;
          const op = (['list', 'create', 'mark', 'dashboard'] as const)[n % 4] as Op;
          let answer: Answer;
          try {
            if (op === 'list') answer = await call(server, 'GET', '/students/', token);
            else if (op === 'dashboard') answer = await call(server, 'GET', '/dashboard/summary', token);
            else if (op === 'create')
              answer = await call(server, 'POST', '/students/', token, {
                full_name: `Load ${n}`,
                class_name: '9',
                parent_name: 'Load Parent',
                parent_phone: phone(8, n),
              });
            else
              answer = await call(server, 'POST', '/attendance/mark', token, {
                date: addDays(today(), -(n + 1)),
                records: roster.map((id, row) => ({ student_id: id, status: row % 3 === 0 ? 'late' : 'present' })),
              });
          } catch (error) {
            // The process itself went away: recorded, and reported below with what it printed.
            answer = { status: -1, body: { detail: String((error as Error).cause ?? error) }, retryAfter: null };
          }
          log.push({ op, n, answer });
          await sleep(15);
        }
      };
      const workers = Array.from({ length: 4 }, worker);

      const succeeded = () => log.filter((entry) => entry.answer.status < 300).length;
      while (succeeded() < 40) await sleep(50);
      await privatePostgres.stop('immediate');
      figures.faults += 1;
      const downAt = log.length;
      await sleep(2500);
      await privatePostgres.start();
      const upAt = log.length;
      const deadline = Date.now() + 60_000;
      while (!log.slice(upAt).some((entry) => entry.op === 'create' && entry.answer.status === 201)) {
        if (Date.now() > deadline || server.child.exitCode !== null) {
          stop = true;
          throw new Error(`the server did not recover within 60 s of the restart:\n${server.output().stderr}`);
        }
        await sleep(100);
      }
      await sleep(500);
      stop = true;
      await Promise.all(workers);

      expect({ exitCode: server.child.exitCode, stderr: server.output().stderr }).toMatchObject({ exitCode: null });
      const statuses = new Set(log.map((entry) => entry.answer.status));
      expect([...statuses].sort()).toEqual(expect.arrayContaining([503]));
      expect([...statuses].filter((status) => ![200, 201, 503].includes(status))).toEqual([]);
      const unavailable = log.filter((entry) => entry.answer.status === 503);
      expect(unavailable.length).toBeGreaterThan(0);
      for (const entry of unavailable) {
        expect(entry.answer.body.detail).toBe(DATABASE_UNAVAILABLE);
        expect(entry.answer.retryAfter).toBe('5');
      }
      // While it was down, health said so in the same words.
      expect(log.slice(downAt, upAt).some((entry) => entry.answer.status === 503)).toBe(true);
      const health = await call(server, 'GET', '/health', undefined);
      expect(health).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });

      // What the database holds afterwards.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const created = await client.query<{ full_name: string }>(
          "SELECT full_name FROM students WHERE full_name LIKE 'Load %'",
        );
        const names = new Set(created.rows.map((row) => row.full_name));
        for (const entry of log.filter((e) => e.op === 'create' && e.answer.status === 201)) {
          if (!names.has(`Load ${entry.n}`)) figures.rowsLost += 1;
          expect(names.has(`Load ${entry.n}`)).toBe(true);
        }
        // Each student and its activity row are written together, or neither.
        const activities = await client.query<{ count: number }>(
          "SELECT count(*)::int AS count FROM activities WHERE action = 'student.created' AND description LIKE '%Load %'",
        );
        expect(activities.rows[0]?.count).toBe(names.size);

        // Each marking of the ten is all ten rows or none.
        const marked = await client.query<{ date: string; count: number }>(
          "SELECT to_char(date, 'YYYY-MM-DD') AS date, count(*)::int AS count FROM attendance WHERE student_id = ANY($1::int[]) GROUP BY date",
          [roster],
        );
        const split = marked.rows.filter((row) => row.count !== roster.length);
        figures.half += split.length;
        expect(split).toEqual([]);
        const days = new Set(marked.rows.map((row) => row.date));
        for (const entry of log.filter((e) => e.op === 'mark' && e.answer.status === 200)) {
          const date = addDays(today(), -(entry.n + 1));
          if (!days.has(date)) figures.rowsLost += roster.length;
          expect(days.has(date)).toBe(true);
        }
      } finally {
        await client.end();
      }
      console.log(
        `PostgreSQL restart: ${log.length} requests under load, ${unavailable.length} answered 503 while it was away`,
      );
      expect(await stopServer(server)).toBe(0);
    },
  );
});

describe('SIGTERM in the middle of an import', TIMEOUT, () => {
  it('finishes the import, refuses new requests, exits 0, and the data directory opens again with it all', async () => {
    const env = { DATA_DIR: tempDir(), ADMIN_PASSWORD };
    let server = await startServer(env);
    let token = await signIn(server, true);

    const inFlight = call(server, 'POST', '/import/students/import', token, studentsWorkbook('Term', 5));
    // Past the upload, into the work: the students list of an empty centre answers in milliseconds.
    await sleep(300);
    server.child.kill('SIGTERM');
    figures.faults += 1;
    // The signal is handled between two pieces of the import's work: on a loaded machine that can take
    // more than a moment, so the health check is asked until it stops answering 200 (at most 20 s); a
    // connection the closing server ends (UND_ERR_SOCKET) is a refusal too.
    const health = () =>
      call(server, 'GET', '/health', undefined).then(
        (answer) => answer.status,
        (error: Error) => (error.cause as { code?: string } | undefined)?.code ?? error.message,
      );
    let refused = await health();
    for (const deadline = Date.now() + 20_000; refused === 200 && Date.now() < deadline; refused = await health()) {
      await sleep(25);
    }
    expect([503, 'ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET']).toContain(refused);

    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body.imported_count).toBe(ROWS);
    expect(await server.exited).toBe(0);
    expect(server.output().stderr).toBe('');

    server = await startServer(env);
    token = await signIn(server);
    expect(await countBatch(server, token, 'Term')).toBe(ROWS);
    expect(await stopServer(server)).toBe(0);
  });
});
