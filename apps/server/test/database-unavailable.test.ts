/**
 * However the database driver says it cannot reach the database, the caller gets 503 with the same
 * detail and a Retry-After, never a 500; health says so too. (The real thing, a PostgreSQL server
 * stopped under load, is in faults.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, DatabaseBusyError } from '../src/db/database';
import { DATABASE_UNAVAILABLE } from '../src/lib/errors';
import { type TestClient, testClient } from './helpers/client';
import { auth } from './helpers/test-app';

let failure: Error | undefined;

/** The database, or the failure the test chose, on every statement. */
function failing(db: Database): Database {
  const guard =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      failure ? Promise.reject(failure) : run(...args);
  return {
    ...db,
    query: guard(db.query.bind(db)) as Database['query'],
    queryJson: guard(db.queryJson.bind(db)),
    queryCached: guard(db.queryCached.bind(db)) as Database['queryCached'],
    exec: guard(db.exec.bind(db)),
    transaction: guard(db.transaction.bind(db)) as Database['transaction'],
  };
}

let api: TestClient;
let token: string;
beforeAll(async () => {
  api = await testClient({ prepare: (ctx) => ({ ...ctx, db: failing(ctx.db) }) });
  token = await api.adminToken();
});
afterAll(async () => {
  failure = undefined;
  await api.close();
});

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

/** Runs `check` with every statement failing with `error`, and the database back afterwards. */
async function whileFailing(error: Error, check: () => Promise<void>): Promise<void> {
  failure = error;
  try {
    await check();
  } finally {
    failure = undefined;
  }
}

describe('the database out of reach', () => {
  const forms: [string, Error][] = [
    ['connection refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['the pool timing out on connect', new Error('timeout exceeded when trying to connect')],
    ['the connection cut mid-query', new Error('Connection terminated unexpectedly')],
    ['an administrator shutdown', withCode('terminating connection due to administrator command', '57P01')],
    ['the server starting up', withCode('the database system is starting up', '57P03')],
    ['too many connections', withCode('sorry, too many clients already', '53300')],
    ['the pool ended during shutdown', new Error('Cannot use a pool after calling end on the pool')],
  ];

  it.each(forms)('%s: reads and writes answer 503 with a detail and Retry-After', async (_name, error) => {
    await whileFailing(error, async () => {
      for (const request of [
        { method: 'GET' as const, url: '/api/v1/students/' },
        { method: 'GET' as const, url: '/api/v1/dashboard/summary' },
        {
          method: 'POST' as const,
          url: '/api/v1/students/',
          payload: { full_name: 'Asha Rao', class_name: '7', parent_name: 'Ravi Rao', parent_phone: '+919876543210' },
        },
      ]) {
        const response = await api.app.inject({ ...request, headers: auth(token) });
        expect({ url: request.url, status: response.statusCode }).toEqual({ url: request.url, status: 503 });
        expect(response.json()).toEqual({ detail: DATABASE_UNAVAILABLE, code: 'server.database_unavailable' });
        expect(response.headers['retry-after']).toBe('5');
      }
      const health = await api.anonymous().get('/api/v1/health');
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({
        status: 'unavailable',
        database: 'unavailable',
        detail: DATABASE_UNAVAILABLE,
      });
    });
  });

  it('a deadlock that outlasted the retries is a 503 that asks to try again', async () => {
    await whileFailing(withCode('deadlock detected', '40P01'), async () => {
      const response = await api.withToken(token).get('/api/v1/students/');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        detail: 'Someone else was saving the same records at the same moment. Please try again.',
        code: 'server.contention',
      });
      expect(response.headers['retry-after']).toBe('1');
    });
  });

  it('no free connection in time is a 503 that says the server is busy, not the database down', async () => {
    const waited = new Error('timeout exceeded when trying to connect');
    await whileFailing(new DatabaseBusyError({ cause: waited }), async () => {
      const read = await api.withToken(token).get('/api/v1/students/');
      const write = await api.withToken(token).post('/api/v1/fees/payments', {
        family_id: 1,
        amount_paise: 50_000,
        mode: 'cash',
        received_on: '2026-11-02',
        client_id: '6f1c2b9e-2f4d-4c1a-9a51-0d1f2e3a4b5c',
      });
      for (const response of [read, write]) {
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual({
          detail: 'The server is too busy to answer at the moment. Please try again in a few seconds.',
          code: 'server.busy',
        });
        expect(response.headers['retry-after']).toBe('2');
      }
    });
  });

  it('any other database error is a 500 that says nothing of the internals', async () => {
    await whileFailing(withCode('syntax error at or near "SELEC"', '42601'), async () => {
      const response = await api.withToken(token).get('/api/v1/students/');
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ detail: 'Internal server error', code: 'server.internal' });
    });
  });

  it('answers again as soon as the database is back', async () => {
    const response = await api.withToken(token).get('/api/v1/students/');
    expect(response.statusCode).toBe(200);
  });
});
