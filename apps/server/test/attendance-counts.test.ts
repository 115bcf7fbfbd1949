import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { type TestClient, testClient } from './helpers/client';

/**
 * The kept attendance counts (per day, class, status and approval) are, after any series of writes,
 * exactly what counting the records gives: marking, marking again, approving, deleting students
 * (their records go with them), hand-written SQL that moves records between days, classes and
 * statuses, and marks sent at once. The dashboard, summary and history counts read from them.
 */

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

/** A small, seeded generator: the same series of writes on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    state ^= state >>> 13;
    return (state >>> 0) / 2 ** 32;
  };
  return {
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T,
  };
}

const STATUSES = ['present', 'absent', 'late', 'leave'] as const;
const CLASSES = ['7', '8', '9'] as const;

async function kept() {
  return api.db.query<{ key: string; records: number }>(
    `SELECT date::text || ' ' || class_name || ' ' || status || ' ' || approved AS key, records
       FROM attendance_counts ORDER BY 1`,
  );
}
async function recounted() {
  return api.db.query<{ key: string; records: number }>(
    `SELECT date::text || ' ' || class_name || ' ' || status || ' ' || (approved_at IS NOT NULL) AS key,
            count(*)::int AS records
       FROM attendance GROUP BY 1 ORDER BY 1`,
  );
}

async function studentsOf(className: string): Promise<number[]> {
  const rows = await api.db.query<{ id: number }>('SELECT id FROM students WHERE class_name = $1 ORDER BY id', [
    className,
  ]);
  return rows.map((row) => row.id);
}

describe('kept attendance counts', () => {
  it('equal a recount after a random series of writes of every kind', async () => {
    await api.db.query(
      `INSERT INTO students (full_name, class_name, parent_name, parent_phone)
       SELECT 'Counted ' || n, (7 + n % 3)::text, 'Parent ' || n, '+9197' || lpad(n::text, 8, '0')
         FROM generate_series(1, 60) AS n`,
    );
    const rng = random(20261125);
    const day = today();
    const days = [0, 1, 2].map((back) => addDays(day, -back));
    for (let step = 0; step < 40; step += 1) {
      const action = rng.int(6);
      if (action <= 1) {
        // Mark (or mark again) part of a class on one of the last days.
        const ids = await studentsOf(rng.pick(CLASSES));
        const records = ids.filter(() => rng.int(3) > 0).map((id) => ({ student_id: id, status: rng.pick(STATUSES) }));
        if (records.length === 0) continue;
        const response = await api.as('admin').post('/api/v1/attendance/mark', { date: rng.pick(days), records });
        expect([200, 201, 409]).toContain(response.statusCode);
      } else if (action === 2) {
        const pending = await api.db.query<{ id: number }>('SELECT id FROM attendance WHERE approved_at IS NULL');
        const ids = pending.filter(() => rng.int(2) === 0).map((row) => row.id);
        if (ids.length === 0) continue;
        expect((await api.as('admin').post('/api/v1/attendance/approve', { attendance_ids: ids })).statusCode).toBe(
          200,
        );
      } else if (action === 3) {
        const ids = await studentsOf(rng.pick(CLASSES));
        const id = ids[rng.int(ids.length)];
        if (id === undefined) continue;
        expect((await api.as('admin').delete(`/api/v1/students/${id}`)).statusCode).toBe(200);
      } else if (action === 4) {
        // Hand-written SQL moving records between statuses, classes and days: every key moves.
        await api.db.query(
          `UPDATE attendance SET status = $1, class_name = CASE WHEN id % 2 = 0 THEN $2 ELSE class_name END
            WHERE id % $3 = 0`,
          [rng.pick(STATUSES), rng.pick(CLASSES), 2 + rng.int(4)],
        );
      } else {
        await api.db.query('DELETE FROM attendance WHERE id % $1 = 0 AND approved_at IS NULL', [3 + rng.int(5)]);
      }
      expect(await kept(), `after step ${step} (action ${action})`).toEqual(await recounted());
    }
    expect((await recounted()).length).toBeGreaterThan(0);
  });

  it('equal a recount after marks of several classes and days sent at once', async () => {
    const marks = await Promise.all(
      CLASSES.flatMap((className) =>
        [0, 1].map(async (back) => {
          const ids = await studentsOf(className);
          return api.as('admin').post('/api/v1/attendance/mark', {
            date: addDays(today(), -back),
            records: ids.map((id, index) => ({ student_id: id, status: STATUSES[index % 4] })),
          });
        }),
      ),
    );
    for (const response of marks) expect([200, 201, 409]).toContain(response.statusCode);
    expect(await kept()).toEqual(await recounted());
  });

  it('are what the summary, the dashboard and the history page answer', async () => {
    const summary = (await api.as('admin').get('/api/v1/attendance/summary')).json() as {
      totals: { total_records: number; approved_records: number; present: number };
    };
    const dashboard = (await api.as('admin').get('/api/v1/dashboard/summary')).json() as { pending_approval: number };
    const month = await api.db.query<{ total: number; approved: number; present: number; pending: number }>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE approved_at IS NOT NULL)::int AS approved,
              count(*) FILTER (WHERE approved_at IS NOT NULL AND status = 'present')::int AS present,
              (SELECT count(*)::int FROM attendance WHERE approved_at IS NULL) AS pending
         FROM attendance WHERE date_trunc('month', date) = date_trunc('month', $1::date)`,
      [today()],
    );
    const expected = month[0] as { total: number; approved: number; present: number; pending: number };
    expect(summary.totals.total_records).toBe(expected.total);
    expect(summary.totals.approved_records).toBe(expected.approved);
    expect(summary.totals.present).toBe(expected.present);
    expect(dashboard.pending_approval).toBe(expected.pending);

    const start = addDays(today(), -2);
    const page = (
      await api.as('admin').get(`/api/v1/attendance/history/page?start_date=${start}&end_date=${today()}&limit=5`)
    ).json() as { total: number; counts: Record<string, number> };
    const range = await api.db.query<{ total: number; absent: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'absent')::int AS absent
         FROM attendance WHERE date BETWEEN $1::date AND $2::date`,
      [start, today()],
    );
    expect(page.total).toBe(range[0]?.total);
    expect(page.counts.absent).toBe(range[0]?.absent);
  });

  it('fall to nothing when every record goes', async () => {
    await api.db.query('TRUNCATE attendance CASCADE');
    expect(await kept()).toEqual([]);
    await api.db.query(
      `INSERT INTO attendance (student_id, date, class_name, status, marked_by)
       SELECT id, $1::date, class_name, 'present', 'Test' FROM students`,
      [today()],
    );
    expect(await kept()).toEqual(await recounted());
    await api.db.query('DELETE FROM attendance');
    expect(await kept()).toEqual([]);
  });
});

describe('kept message counts', () => {
  const keptMonth = async (from: string, to: string) => {
    const [row] = await api.db.query<{ count: number }>(
      `SELECT COALESCE(sum(messages), 0)::int AS count FROM message_counts
        WHERE quarter >= $1::timestamptz AND quarter < $2::timestamptz`,
      [from, to],
    );
    return row?.count ?? 0;
  };
  const countedMonth = async (from: string, to: string) => {
    const [row] = await api.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM messages WHERE sent_at >= $1::timestamptz AND sent_at < $2::timestamptz',
      [from, to],
    );
    return row?.count ?? 0;
  };
  // Months whose edges are midnights in zones a quarter or half an hour off the hour, and in UTC.
  const months = [
    ['2026-10-01T00:00:00+05:30', '2026-11-01T00:00:00+05:30'],
    ['2026-10-01T00:00:00+05:45', '2026-11-01T00:00:00+05:45'],
    ['2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z'],
  ] as const;

  it('equal a recount of any month, in any zone, after messages are added, deleted and moved', async () => {
    const rng = random(11);
    const insert = (times: string[]) =>
      api.db.query(
        `INSERT INTO messages (recipient, subject, message, kind, sent_by, sent_at)
         SELECT '+919800000001', 'Counted', 'Counted', 'notice', 'admin', t FROM unnest($1::timestamptz[]) AS t`,
        [times],
      );
    // Around each month's edges in every zone, and inside.
    const edges = months
      .flat()
      .flatMap((edge) =>
        [-1, 0, 1, 14, 15, 16].map((minutes) => new Date(Date.parse(edge) + minutes * 60_000).toISOString()),
      );
    await insert(edges);
    for (let round = 0; round < 30; round += 1) {
      const times = Array.from({ length: 1 + rng.int(20) }, () =>
        new Date(Date.parse('2026-09-28T00:00:00Z') + rng.int(40 * 24 * 60) * 60_000).toISOString(),
      );
      await insert(times);
      if (round % 3 === 0)
        await api.db.query(
          `DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE subject = 'Counted' ORDER BY random() LIMIT 5)`,
        );
      if (round % 5 === 0)
        await api.db.query(
          `UPDATE messages SET sent_at = sent_at + interval '3 days'
            WHERE id IN (SELECT id FROM messages WHERE subject = 'Counted' ORDER BY id LIMIT 4)`,
        );
      // A status change (the usual update) leaves the counts alone.
      await api.db.query("UPDATE messages SET delivery_status = 'sent' WHERE subject = 'Counted'");
    }
    for (const [from, to] of months) {
      expect(await keptMonth(from, to)).toBe(await countedMonth(from, to));
      expect(await countedMonth(from, to)).toBeGreaterThan(0);
    }
    await api.db.query("DELETE FROM messages WHERE subject = 'Counted'");
    for (const [from, to] of months) expect(await keptMonth(from, to)).toBe(await countedMonth(from, to));
  });
});
