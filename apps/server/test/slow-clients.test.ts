/**
 * Slow clients (ADR 020). A real listening server and raw sockets, as a slow-loris client
 * speaks: a body or headers trickled in are cut with a 408 `{detail}` soon after the limit, a steady
 * slow request still passes, idle kept-alive connections close, and an upload the client abandons
 * is logged as the client's doing, never as the database being unavailable.
 */
import { once } from 'node:events';
import net from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { ConfigError, type HttpTimeouts, loadConfig } from '../src/config';
import { type TestClient, testClient } from './helpers/client';
import { multipartBody, workbook } from './helpers/workbooks';

/** Short limits, so each cut comes in seconds; the production values are checked on their own. */
const FAST: HttpTimeouts = {
  requestMs: 3000,
  headersMs: 1500,
  socketIdleMs: 60_000,
  keepAliveMs: 1000,
  maxRequestsPerSocket: 3,
  checkIntervalMs: 250,
};
/** How late past its limit a cut may come: Node's check interval, and a busy 2-core machine. */
const SLACK_MS = FAST.checkIntervalMs + 1500;

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  res?: { statusCode?: number };
  [key: string]: unknown;
}

interface Listening {
  app: FastifyInstance;
  port: number;
  logs: () => LogLine[];
}

let api: TestClient;
let server: Listening;
let token: string;

/** The app on a real port, with its log written where the test can read it. */
async function listen(http: HttpTimeouts): Promise<Listening> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildApp(
    { ...api.ctx, config: { ...api.ctx.config, http } },
    { logger: { level: 'info', stream } },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    port: (app.server.address() as net.AddressInfo).port,
    logs: () => lines.map((line) => JSON.parse(line) as LogLine),
  };
}

beforeAll(async () => {
  api = await testClient();
  token = await api.adminToken();
  server = await listen(FAST);
});
afterAll(async () => {
  await server?.app.close();
  await api?.close();
});

interface RawConnection {
  socket: net.Socket;
  received: () => string;
  /** Milliseconds from `startedAt` to the server closing the connection. */
  closed: Promise<number>;
  startedAt: number;
}

async function connect(port = server.port): Promise<RawConnection> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {}); // writes after the server closed: expected here
  await once(socket, 'connect');
  let data = '';
  socket.on('data', (chunk: Buffer) => {
    data += chunk.toString();
  });
  const connection: RawConnection = {
    socket,
    received: () => data,
    startedAt: performance.now(),
    closed: new Promise((resolve) => socket.once('close', () => resolve(performance.now() - connection.startedAt))),
  };
  return connection;
}

/** Writes `piece` every `everyMs` until the connection closes. */
function trickle(connection: RawConnection, piece: string, everyMs: number): void {
  const timer = setInterval(() => {
    if (connection.socket.destroyed) clearInterval(timer);
    else connection.socket.write(piece);
  }, everyMs);
  void connection.closed.then(() => clearInterval(timer));
}

function statusOf(raw: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
}

function bodyOf(raw: string): unknown {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
}

async function studentCount(): Promise<number> {
  const [row] = await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM students');
  return row?.n ?? 0;
}

/** Nothing logged as a server fault: no error line, no 5xx, no "database unavailable". */
function expectNoServerFault(lines: LogLine[]): void {
  expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  expect(lines.filter((line) => /database unavailable/i.test(line.msg))).toEqual([]);
  expect(lines.filter((line) => (line.res?.statusCode ?? 0) >= 500)).toEqual([]);
}

describe('a request trickled in', () => {
  it('is cut with a 408 {detail} soon after the request limit when its body comes one byte a second', async () => {
    const before = await studentCount();
    const logsBefore = server.logs().length;
    const connection = await connect();
    connection.socket.write(
      'POST /api/v1/students/ HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n' +
        `Authorization: Bearer ${token}\r\nContent-Length: 1000\r\n\r\n{"full_name": "`,
    );
    trickle(connection, 'x', 1000);

    const closedAfter = await connection.closed;
    expect(statusOf(connection.received())).toBe(408);
    expect(connection.received()).toMatch(/\r\nconnection: close\r\n/i);
    expect(bodyOf(connection.received())).toEqual({
      detail:
        'The request took too long to arrive and was cut off; send it again, on a faster connection if it is large',
      code: 'request.timeout',
    });
    expect(closedAfter).toBeGreaterThanOrEqual(FAST.requestMs - 50);
    expect(closedAfter).toBeLessThan(FAST.requestMs + SLACK_MS);
    expect(await studentCount()).toBe(before);

    // The cut is the client's doing in the log too.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = server.logs().slice(logsBefore);
    expect(lines.map((line) => line.msg)).toContain('request timed out: the client was too slow to send it');
    expectNoServerFault(lines);
  });

  it('is cut with a 408 soon after the header limit when its headers come a byte at a time', async () => {
    const connection = await connect();
    connection.socket.write('GET /api/v1/health HTTP/1.1\r\nHost: test\r\nX-Slow: ');
    trickle(connection, 'a', 300);
    const closedAfter = await connection.closed;
    expect(statusOf(connection.received())).toBe(408);
    expect(closedAfter).toBeGreaterThanOrEqual(FAST.headersMs - 50);
    expect(closedAfter).toBeLessThan(FAST.headersMs + SLACK_MS);
  });

  it('still passes when it is slow but steady and done within the limit', async () => {
    const before = await studentCount();
    const json = JSON.stringify({
      full_name: 'Steady Sunita',
      class_name: '9',
      parent_name: 'Ravi',
      parent_phone: '+919812300099',
    });
    const body = json.padEnd(600, ' ');
    const connection = await connect();
    connection.socket.write(
      'POST /api/v1/students/ HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nConnection: close\r\n' +
        `Authorization: Bearer ${token}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // 600 bytes in 12 pieces, one every 150 ms: 1.8 s, inside the 3 s limit.
    for (let i = 0; i < body.length; i += 50) {
      connection.socket.write(body.slice(i, i + 50));
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await connection.closed;
    expect(statusOf(connection.received())).toBe(201);
    expect(await studentCount()).toBe(before + 1);
  });
});

describe('requests Node refuses before they reach the app', () => {
  it.each([
    ['bytes that are not HTTP', 'HELLO THERE\r\n\r\n', 400, 'The request is not valid HTTP', 'request.not_http'],
    [
      'headers over 16 KB',
      `GET /api/v1/health HTTP/1.1\r\nHost: test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'The request headers are too large',
      'request.headers_too_large',
    ],
  ])('answer %s with a {detail} and close', async (_name, raw, status, detail, code) => {
    const connection = await connect();
    connection.socket.write(raw);
    await connection.closed;
    expect(statusOf(connection.received())).toBe(status);
    expect(bodyOf(connection.received())).toEqual({ detail, code });
  });
});

describe('kept-alive connections', () => {
  it('are closed once idle for the keep-alive limit', async () => {
    const connection = await connect();
    connection.socket.write('GET /api/v1/health HTTP/1.1\r\nHost: test\r\n\r\n');
    while (!connection.received().includes('"status"')) await new Promise((resolve) => setTimeout(resolve, 10));
    const answeredAt = performance.now() - connection.startedAt;
    expect(statusOf(connection.received())).toBe(200);
    expect(connection.received()).toMatch(/\r\nkeep-alive: timeout=1\b/i);
    // Node closes a second after the time it advertises, so a client about to reuse it is not cut off.
    const idleFor = (await connection.closed) - answeredAt;
    expect(idleFor).toBeGreaterThanOrEqual(FAST.keepAliveMs - 100);
    expect(idleFor).toBeLessThan(FAST.keepAliveMs + 1000 + SLACK_MS);
  });

  it('answer a bounded number of requests, then close', async () => {
    const connection = await connect();
    const request = 'GET /api/v1/health HTTP/1.1\r\nHost: test\r\n\r\n';
    for (let i = 1; i <= FAST.maxRequestsPerSocket; i += 1) {
      connection.socket.write(request);
      while ((connection.received().match(/HTTP\/1\.1 200/g) ?? []).length < i) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    await connection.closed;
    const answers = connection.received().split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(FAST.maxRequestsPerSocket);
    expect(answers.at(-1)).toMatch(/\r\nconnection: close\r\n/i);
  });
});

describe('the production limits', () => {
  it('cut a trickled request within 30 s and bound keep-alive, and REQUEST_TIMEOUT_SECONDS sets the request limit', () => {
    const { http } = loadConfig({});
    expect(http.requestMs + http.checkIntervalMs).toBeLessThanOrEqual(30_000);
    expect(http.headersMs).toBeLessThanOrEqual(http.requestMs);
    expect(http.keepAliveMs).toBeLessThanOrEqual(10_000);
    expect(http.maxRequestsPerSocket).toBeGreaterThan(0);
    // Longer than any answer takes to prepare: an idle socket is a stalled client, not a slow handler.
    expect(http.socketIdleMs).toBeGreaterThan(http.requestMs);

    expect(loadConfig({ REQUEST_TIMEOUT_SECONDS: '120' }).http).toMatchObject({
      requestMs: 120_000,
      headersMs: 10_000,
    });
    expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: '1' })).toThrow(ConfigError);
    expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: 'soon' })).toThrow(/REQUEST_TIMEOUT_SECONDS/);
  });

  it('are the ones the Node server runs with', () => {
    const http = api.ctx.config.http;
    const node = api.app.server;
    expect(node.requestTimeout).toBe(http.requestMs);
    expect(node.headersTimeout).toBe(http.headersMs);
    expect(node.timeout).toBe(http.socketIdleMs);
    expect(node.keepAliveTimeout).toBe(http.keepAliveMs);
    expect(node.maxRequestsPerSocket).toBe(http.maxRequestsPerSocket);
  });
});

describe('an upload the client abandons', () => {
  it('is logged as the client closing the connection, not as the database, for a spreadsheet and a JSON body', async () => {
    const before = await studentCount();
    const logsBefore = server.logs().length;
    const rows = [['full_name', 'class_name', 'parent_name', 'parent_phone']];
    for (let i = 0; i < 2000; i += 1)
      rows.push([`Student ${i}`, '7', 'Parent', `+9198765${String(i).padStart(5, '0')}`]);
    const upload = multipartBody([{ field: 'file', filename: 'students.xlsx', content: workbook(rows) }]);
    const payload = upload.payload as Buffer;

    const spreadsheet = await connect();
    spreadsheet.socket.write(
      `POST /api/v1/import/students/import HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: ${upload.headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`,
    );
    spreadsheet.socket.write(payload.subarray(0, Math.floor(payload.length / 2)));

    const json = await connect();
    json.socket.write(
      'POST /api/v1/students/ HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n' +
        `Authorization: Bearer ${token}\r\nContent-Length: 500\r\n\r\n{"full_name": "Half`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    spreadsheet.socket.destroy();
    json.socket.destroy();

    const isAbort = (line: LogLine) => line.msg === 'the client closed the connection before its request was complete';
    const deadline = Date.now() + 5000;
    while (server.logs().slice(logsBefore).filter(isAbort).length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const lines = server.logs().slice(logsBefore);
    expectNoServerFault(lines);
    const aborts = lines.filter(isAbort);
    expect(aborts).toHaveLength(2);
    expect(aborts.every((line) => line.level === 30)).toBe(true);
    expect(await studentCount()).toBe(before);

    // The server carries on.
    const health = await api.withToken(token).get('/api/v1/health');
    expect(health.statusCode).toBe(200);
  });
});
