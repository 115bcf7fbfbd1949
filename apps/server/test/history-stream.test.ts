import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonTimestamp } from '../src/db/database';
import { addDays, today } from '../src/lib/time';
import { STREAMS } from '../src/lib/versioned-answer';
import { waitFor } from './helpers/async';
import { type TestClient, testClient } from './helpers/client';

/**
 * The whole-range history is sent a day at a time, never built whole: what the client receives is
 * exactly the array of every record of the range in the history's order (newest day first, then
 * class, name and id), across days without records, compressed or not.
 */

let api: TestClient;
const end = today();
const start = addDays(end, -9);

beforeAll(async () => {
  api = await testClient();
  await api.db.query(
    `INSERT INTO students (full_name, class_name, parent_name, parent_phone)
     SELECT 'Streamed ' || chr(90 - n % 26) || n, (7 + n % 4)::text, 'Parent ' || n, '+9196' || lpad(n::text, 8, '0')
       FROM generate_series(1, 80) AS n`,
  );
  // Records on some days of the range (every other day; none on the others), and one outside it.
  await api.db.query(
    `INSERT INTO attendance (student_id, date, class_name, status, marked_by, approved_at, approved_by)
     SELECT s.id, d::date, s.class_name, (ARRAY['present', 'absent', 'late', 'leave'])[1 + (s.id + i) % 4], 'Test',
            CASE WHEN s.id % 3 = 0 THEN now() END, CASE WHEN s.id % 3 = 0 THEN 'Test' END
       FROM students s,
            generate_series($1::date, $2::date, interval '2 days') WITH ORDINALITY AS g(d, i)`,
    [start, end],
  );
  await api.db.query(
    `INSERT INTO attendance (student_id, date, class_name, status, marked_by)
     SELECT id, $1::date, class_name, 'present', 'Test' FROM students LIMIT 5`,
    [addDays(start, -1)],
  );
});
afterAll(async () => {
  await api?.close();
});

/** The whole range in one statement, as the history was built before it was sent by day. */
async function expected(): Promise<unknown[]> {
  const rows = await api.db.query<{ json: string }>(
    `SELECT COALESCE(json_agg(j), '[]')::text AS json FROM (
       SELECT a.id, a.student_id, s.full_name AS student_name, s.unique_id AS student_unique_id, a.class_name,
              a.date, a.status, a.remarks, a.parent_reason, s.parent_phone,
              ${jsonTimestamp('a.marked_at')} AS marked_at, a.marked_by, a.approved_by,
              ${jsonTimestamp('a.approved_at')} AS approved_at
         FROM attendance a JOIN students s ON s.id = a.student_id
        WHERE a.date BETWEEN $1::date AND $2::date
        ORDER BY a.date DESC, a.class_name::int, lower(s.full_name), a.id) j`,
    [start, end],
  );
  return JSON.parse(rows[0]?.json ?? '[]');
}

describe('the whole-range history', () => {
  it('is every record of the range in the history order, sent a day at a time', async () => {
    const response = await api.as('admin').get(`/api/v1/attendance/history?start_date=${start}&end_date=${end}`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const records = response.json() as { date: string }[];
    expect(records).toHaveLength(80 * 5);
    expect(records).toEqual(await expected());
    expect(new Set(records.map((record) => record.date)).size).toBe(5);
  });

  it('is the same compressed, and an empty range is an empty array', async () => {
    const response = await api
      .as('admin')
      .get(`/api/v1/attendance/history?start_date=${start}&end_date=${end}`, { headers: { 'accept-encoding': 'br' } });
    expect(response.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(response.rawPayload).toString('utf8'))).toEqual(await expected());

    const empty = await api.as('admin').get('/api/v1/attendance/history?start_date=2020-01-01&end_date=2020-01-31');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
  });

  it('answers 304 to the tag it gave while nothing changed, and a bad range before sending anything', async () => {
    const url = `/api/v1/attendance/history?start_date=${start}&end_date=${end}`;
    const first = await api.as('admin').get(url);
    const again = await api.as('admin').get(url, { headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const backwards = await api.as('admin').get(`/api/v1/attendance/history?start_date=${end}&end_date=${start}`);
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json()).toHaveProperty('detail');
  });

  it('sends a day changed since the last read as it is now, the days kept meanwhile unchanged', async () => {
    const url = `/api/v1/attendance/history?start_date=${start}&end_date=${end}`;
    expect((await api.as('admin').get(url)).json()).toEqual(await expected());
    await api.db.query(
      "UPDATE attendance SET status = 'absent', remarks = 'Changed after the read' WHERE date = $1::date AND id % 7 = 0",
      [addDays(end, -1)],
    );
    const after = (await api.as('admin').get(url)).json() as { remarks: string | null }[];
    expect(after.some((record) => record.remarks === 'Changed after the read')).toBe(true);
    expect(after).toEqual(await expected());
  });

  // The embedded database keeps every read until the next write anyway (its read cache); the kept
  // answers, and what ranges share in them, are PostgreSQL's.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'shares the days it keeps between ranges: a range inside one just read asks the database for no day',
    async () => {
      const built: string[] = [];
      const db = api.ctx.db as unknown as Record<'queryJson', (...args: unknown[]) => Promise<string>>;
      const original = db.queryJson;
      db.queryJson = function (this: unknown, ...args: unknown[]) {
        if (String(args[0]).includes('FROM attendance a JOIN students s'))
          built.push(String((args[1] as unknown[])[0]));
        return original.apply(this, args);
      };
      try {
        const whole = await api.as('admin').get(`/api/v1/attendance/history?start_date=${start}&end_date=${end}`);
        expect(whole.statusCode).toBe(200);
        built.length = 0;
        const inner = await api
          .as('admin')
          .get(`/api/v1/attendance/history?start_date=${addDays(start, 2)}&end_date=${addDays(end, -1)}`, {
            headers: { 'accept-encoding': 'identity' },
          });
        expect(inner.statusCode).toBe(200);
        expect(built).toEqual([]);
        const within = (whole.json() as { date: string }[]).filter(
          (record) => record.date >= addDays(start, 2) && record.date <= addDays(end, -1),
        );
        expect(inner.json()).toEqual(within);
        expect(within.length).toBeGreaterThan(0);
        // A range reaching a day not read before builds that day only.
        const wider = await api
          .as('admin')
          .get(`/api/v1/attendance/history?start_date=${addDays(start, -1)}&end_date=${end}`);
        expect(wider.statusCode).toBe(200);
        expect(built).toEqual([addDays(start, -1)]);
      } finally {
        db.queryJson = original;
      }
    },
  );

  it('sends many at once a few at a time, each whole; clients that leave, while sent or waiting, give their place back', async () => {
    const address = await api.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `${address}/api/v1/attendance/history?start_date=${start}&end_date=${end}`;
    const authorization = `Bearer ${await api.adminToken()}`;
    // Every place taken, so the next clients wait; then they go away while waiting.
    const held = await Promise.all(Array.from({ length: 4 }, () => STREAMS.enter()));
    expect(STREAMS.state).toEqual({ inside: 4, waiting: 0 });
    const leaving = Array.from({ length: 6 }, () => {
      const request = http.get(url, { headers: { authorization } });
      request.on('error', () => {});
      return request;
    });
    await waitFor('six clients waiting', () => STREAMS.state.waiting === 6);
    for (const request of leaving) request.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const leave of held) leave();
    await waitFor('every place given back', () => STREAMS.state.inside === 0 && STREAMS.state.waiting === 0);
    // Had a place been kept by any of them, some of these would wait for ever.
    const whole = await expected();
    const answers = await Promise.all(
      Array.from({ length: 16 }, () =>
        fetch(url, {
          headers: { authorization, 'accept-encoding': 'identity' },
          signal: AbortSignal.timeout(20_000),
        }).then(async (response) => ({ status: response.status, body: await response.json() })),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(whole);
    }
    await waitFor('the sent answers leaving', () => STREAMS.state.inside === 0);
  }, 30_000);
});
