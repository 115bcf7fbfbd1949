// The reads of the large centre, each measured at 1 and 32 connections beside the limit: a bare
// Fastify route (bench/bare-server.ts) answering the very bytes the server answered.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { freePort } from '../../scripts/kit/port';
import { ROOT } from '../../scripts/kit/server';
import type { Payload } from '../bare-server';
import type { CallResult } from '../figures';
import type { BenchServer } from '../support';
import { cannon, figure, rssMb, sampleRss, settle } from './measure';

export const API = '/api/v1';

interface Call {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  /** Sign-in's form-encoded body; the other calls are sent with the admin's token. */
  body?: string;
  form?: true;
}

/** Every read the console makes on a large centre's day (`day`: the pending one); sign-in first, with `signInForm`. */
export function readCalls(day: string, signInForm: string): Call[] {
  const shift = (days: number) => {
    const date = new Date(`${day}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() - days);
    return date.toISOString().slice(0, 10);
  };
  const history = (days: number, query = '') =>
    `start_date=${shift(days - 1)}&end_date=${day}${query === '' ? '' : `&${query}`}`;
  const get = (name: string, url: string): Call => ({ name, method: 'GET', path: `${API}${url}` });
  return [
    { name: 'sign-in', method: 'POST', path: `${API}/auth/login`, body: signInForm, form: true },
    get('students', '/students/'),
    get('teachers', '/teachers/'),
    get('pending (a day)', `/attendance/pending-approval?attendance_date=${day}`),
    get('pending (all days)', '/attendance/pending-approval'),
    get('history (7 days)', `/attendance/history?${history(7)}`),
    get('history (31 days)', `/attendance/history?${history(31)}`),
    get('history page (7 days)', `/attendance/history/page?${history(7, 'limit=25')}`),
    get('history page (31 days)', `/attendance/history/page?${history(31, 'limit=25&offset=100')}`),
    get('history page (31 d, search)', `/attendance/history/page?${history(31, 'search=kabir&status=absent')}`),
    get('summary', '/attendance/summary'),
    get('teacher attendance (a day)', `/teacher-attendance/date/${day}`),
    get('communications history', '/communications/history'),
    get('recent activities', '/activities/recent?limit=10'),
    get('dashboard', '/dashboard/summary'),
  ];
}

const ACCEPT_ENCODING = 'gzip, deflate, br';

/** The bytes of the answer's body as sent, before the client decodes it. */
function bytesOnTheWire(
  url: string,
  options: { method: string; headers: Record<string, string>; body?: string },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method: options.method, headers: options.headers }, (response) => {
      let length = 0;
      response.on('data', (chunk: Buffer) => {
        length += chunk.length;
      });
      response.on('end', () => resolve(length));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** Starts the bare server on what each call answered; answers its port and how to stop it. */
async function startBareServer(payloads: Record<string, Payload>, dir: string) {
  const file = path.join(dir, 'payloads.json');
  writeFileSync(file, JSON.stringify(payloads));
  const port = await freePort();
  const bare = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bench/bare-server.ts'), file, String(port)],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  for (let i = 0; ; i += 1) {
    if (i > 100) throw new Error('the bare server did not start');
    const up = await fetch(`http://127.0.0.1:${port}/bare/c1`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { port, stop: () => bare.kill('SIGTERM') };
}

/**
 * Measures each call, first recording what it answers for the bare server (kept in `dir`). `log`
 * reports each figure as it comes.
 */
export async function measureReads(
  server: BenchServer,
  calls: Call[],
  options: { seconds: number; dir: string; log: (text: string) => void },
): Promise<CallResult[]> {
  const auth = { authorization: `Bearer ${server.token}` };
  // As a browser asks: compressed answers accepted, on both our server and the bare route.
  const acceptEncoding = { 'accept-encoding': ACCEPT_ENCODING };
  const request = (call: Call) => ({
    method: call.method,
    headers: call.form
      ? { 'content-type': 'application/x-www-form-urlencoded', ...acceptEncoding }
      : { ...auth, ...acceptEncoding },
    body: call.body,
  });
  const payloads: Record<string, Payload> = {};
  const bytes: number[] = [];
  const wire: number[] = [];
  for (const [index, call] of calls.entries()) {
    const response = await fetch(`${server.base}${call.path}`, request(call));
    const body = await response.text();
    if (!response.ok) throw new Error(`${call.name} answered ${response.status}: ${body.slice(0, 200)}`);
    bytes.push(Buffer.byteLength(body));
    wire.push(await bytesOnTheWire(`${server.base}${call.path}`, request(call)));
    payloads[`c${index}`] = { method: call.method, contentType: response.headers.get('content-type') ?? '', body };
  }
  const bare = await startBareServer(payloads, options.dir);
  try {
    const results: CallResult[] = [];
    for (const [index, call] of calls.entries()) {
      const entry: Partial<CallResult> = {
        name: call.name,
        bytes: bytes[index] ?? 0,
        wire_bytes: wire[index] ?? 0,
        bare_wire_bytes: await bytesOnTheWire(`http://127.0.0.1:${bare.port}/bare/c${index}`, {
          method: call.method,
          headers: call.form ? request(call).headers : acceptEncoding,
          body: call.body,
        }),
      };
      const memory = sampleRss(server.pid);
      for (const connections of [1, 32] as const) {
        const { method, headers, body } = request(call);
        const ours = await cannon(options.seconds, {
          url: `${server.base}${call.path}`,
          method,
          headers,
          body,
          connections,
          timeout: 60,
        });
        await settle(server.base);
        const limit = await cannon(options.seconds, {
          url: `http://127.0.0.1:${bare.port}/bare/c${index}`,
          method,
          headers: call.form ? headers : acceptEncoding,
          body,
          connections,
          timeout: 60,
        });
        entry[`c${connections}`] = { ours: figure(ours), bare: figure(limit) };
        options.log(
          `${call.name} @${connections}: RSS ${Math.round(rssMb(server.pid))} MB, p50 ${ours.latency.p50} ms, p99 ${ours.latency.p99} ms, ${Math.round(ours.requests.average)} req/s (bare p99 ${limit.latency.p99} ms, ${Math.round(limit.requests.average)} req/s)`,
        );
      }
      entry.peak_rss_mb = Math.round(memory.stop());
      results.push(entry as CallResult);
    }
    return results;
  } finally {
    bare.stop();
  }
}
