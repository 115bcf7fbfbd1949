import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { ConfigError, loadConfig } from '../src/config';
import type { Queryable } from '../src/db/database';
import { AnswerCache, DATA_KINDS, matchesEntityTag, readVersions } from '../src/lib/versioned-answer';
import { callerOf, type TestClient, testClient } from './helpers/client';

/**
 * The console's list reads carry an entity tag named by the data versions they were built under: the
 * same request with `If-None-Match` answers 304 and no body until a write changes what the answer is
 * built from. Every table behind a kind raises its version when the writing transaction commits, only
 * when a row changed, and never back to a value it had.
 */

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

const versionOf = async (kind: string) => {
  const rows = await api.db.query<{ version: string }>('SELECT version::text FROM data_versions WHERE kind = $1', [
    kind,
  ]);
  return BigInt(rows[0]?.version ?? '0');
};

describe('list answers', () => {
  it('carry a tag; the same request with it answers 304 and no body until a write changes the list', async () => {
    const first = await api.as('admin').get('/api/v1/students/');
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers['cache-control']).toBe('no-store');

    const unchanged = await api.as('admin').get('/api/v1/students/', { headers: { 'if-none-match': etag } });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    expect(unchanged.headers.etag).toBe(etag);
    // Weak comparison and lists of tags, as browsers and proxies send them.
    const listed = await api.as('admin').get('/api/v1/students/', { headers: { 'if-none-match': `"x", W/${etag}` } });
    expect(listed.statusCode).toBe(304);

    const created = await api.student({ full_name: 'Tagged Student' });
    const changed = await api.as('admin').get('/api/v1/students/', { headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((changed.json() as { id: number }[]).map((s) => s.id)).toContain(created.id);
  });

  it('are named by their query: another class or another page is another answer', async () => {
    const all = await api.as('admin').get('/api/v1/students/');
    const one = await api.as('admin').get('/api/v1/students/?class_name=7');
    expect(one.headers.etag).not.toBe(all.headers.etag);
    const other = await api
      .as('admin')
      .get('/api/v1/students/?class_name=7', { headers: { 'if-none-match': all.headers.etag as string } });
    expect(other.statusCode).toBe(200);
  });

  it('change with the data they are built from, and only with it', async () => {
    const pending = await api.as('admin').get('/api/v1/attendance/pending-approval');
    const teachers = await api.as('admin').get('/api/v1/teachers/');
    const student = await api.student({ full_name: 'Marked Today', class_name: '9' });
    const marked = await api.as('admin').post('/api/v1/attendance/mark', {
      date: new Date().toISOString().slice(0, 10),
      records: [{ student_id: student.id, status: 'absent' }],
    });
    expect([200, 201]).toContain(marked.statusCode);
    const again = (url: string, etag: string) =>
      api
        .as('admin')
        .get(url, { headers: { 'if-none-match': etag } })
        .then((r) => r.statusCode);
    expect(await again('/api/v1/attendance/pending-approval', pending.headers.etag as string)).toBe(200);
    // Marking attendance (and its activity row) leaves the teachers list as it was.
    expect(await again('/api/v1/teachers/', teachers.headers.etag as string)).toBe(304);
  });

  it('that differ by caller are named by the caller', async () => {
    const admin = await api.as('admin').get('/api/v1/activities/recent?limit=10');
    const teacher = await api.as('teacher').get('/api/v1/activities/recent?limit=10');
    expect(admin.statusCode).toBe(200);
    expect(teacher.statusCode).toBe(200);
    expect(admin.headers.etag).not.toBe(teacher.headers.etag);
    const crossed = await api
      .as('teacher')
      .get('/api/v1/activities/recent?limit=10', { headers: { 'if-none-match': admin.headers.etag as string } });
    expect(crossed.statusCode).toBe(200);
  });

  it('are tagged on every console read that polls, and errors are never tagged', async () => {
    const day = new Date().toISOString().slice(0, 10);
    for (const url of [
      '/api/v1/dashboard/summary',
      '/api/v1/attendance/summary',
      `/api/v1/attendance/history?start_date=${day}&end_date=${day}`,
      `/api/v1/attendance/history/page?start_date=${day}&end_date=${day}&limit=25`,
      '/api/v1/communications/history',
      `/api/v1/teacher-attendance/date/${day}`,
    ]) {
      const response = await api.as('admin').get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers.etag, url).toBeDefined();
      const again = await api.as('admin').get(url, { headers: { 'if-none-match': response.headers.etag as string } });
      expect(again.statusCode, url).toBe(304);
    }
    // The whole range is sent as it is read, after its headers: its tag cannot promise one body byte
    // for byte, so it is a weak one; the others are strong.
    const whole = await api.as('admin').get(`/api/v1/attendance/history?start_date=${day}&end_date=${day}`);
    expect(whole.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    const page = await api.as('admin').get('/api/v1/attendance/summary');
    expect(page.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const refused = await api.as('admin').get('/api/v1/attendance/history?start_date=2026-13-01');
    expect(refused.statusCode).toBe(422);
    expect(refused.headers.etag).toBeUndefined();
    // Refused while the answer was being built (the range, checked by the service): no tag either.
    const backwards = await api
      .as('admin')
      .get(`/api/v1/attendance/history/page?start_date=${day}&end_date=2020-01-01&limit=25`);
    expect(backwards.statusCode).toBe(422);
    expect(backwards.headers.etag).toBeUndefined();
    // Not for someone who may not read it: the check comes first.
    const forbidden = await api.as('teacher').get('/api/v1/teachers/');
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.headers.etag).toBeUndefined();
  });
});

/**
 * Runs `work` with the database's `method` wrapped: the first call whose statement holds `sql` first
 * runs `meanwhile` (a write committing, the clock turning) and only then its own statement, so that it
 * lands after the versions were read and before the answer is read. Answers whether it ran.
 */
async function duringBuild<T>(
  db: Queryable,
  method: 'queryJson' | 'queryCached',
  sql: string,
  meanwhile: () => Promise<void> | void,
  work: () => Promise<T>,
): Promise<{ result: T; ran: boolean }> {
  const target = db as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const original = target[method] as (...args: unknown[]) => Promise<unknown>;
  let ran = false;
  target[method] = async function (this: unknown, ...args: unknown[]) {
    if (!ran && String(args[0]).includes(sql)) {
      ran = true;
      await meanwhile();
    }
    return original.apply(this, args);
  };
  try {
    return { result: await work(), ran };
  } finally {
    target[method] = original;
  }
}

describe('an entity tag names one body', () => {
  // Another instance on the same database, with kept answers of its own (nothing kept yet), as behind a
  // load balancer; on the embedded database it stands for an answer built anew where one was built before.
  let other: FastifyInstance;
  beforeAll(async () => {
    other = await buildApp({
      ...api.ctx,
      answers: new AnswerCache(64 * 1024 * 1024, { keepText: api.db.kind === 'postgres' }),
    });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
  });

  /** Every tagged answer seen, by its tag: a tag must always come with the same body. */
  const seen = new Map<string, Set<string>>();
  const note = (response: LightMyRequestResponse) => {
    const etag = response.headers.etag as string | undefined;
    if (response.statusCode !== 200 || etag === undefined) return response;
    seen.set(etag, (seen.get(etag) ?? new Set()).add(response.body));
    return response;
  };
  /** The most bodies any one tag came with: 1 when every tag names one body. */
  const mostBodiesPerTag = () => Math.max(...[...seen.values()].map((bodies) => bodies.size));

  it('an answer built while a write commits goes untagged and unkept; the next read tags the new data', async () => {
    const student = await api.student({ full_name: 'Named Before', class_name: '8' });
    const url = '/api/v1/students/?class_name=8';
    const names = (response: LightMyRequestResponse) =>
      (response.json() as { full_name: string }[])
        .map((row) => row.full_name)
        .filter((name) => name.startsWith('Named '));
    const first = note(await api.as('admin').get(url));
    expect(names(first)).toEqual(['Named Before']);
    const token = await api.adminToken();

    // The other instance reads the versions, then the rename commits, then it reads the students.
    const { result: raced, ran } = await duringBuild(
      api.db,
      'queryJson',
      'FROM students',
      async () => {
        await api.db.query('UPDATE students SET full_name = $2 WHERE id = $1', [student.id, 'Named After']);
      },
      () => callerOf(other, token).get(url).then(note),
    );
    expect(ran).toBe(true);
    expect(raced.statusCode).toBe(200);
    // Sent as built (the data after the write), but not under the tag of the versions before it,
    // which already names the body with the old name.
    expect(names(raced)).toEqual(['Named After']);
    expect(mostBodiesPerTag()).toBe(1);
    expect(raced.headers.etag).toBeUndefined();

    // The next read on either instance tags the new data with a new tag, the same on both; the old tag
    // is not confirmed.
    const next = note(await callerOf(other, token).get(url));
    expect(names(next)).toEqual(['Named After']);
    expect(next.headers.etag).toBeDefined();
    expect(next.headers.etag).not.toBe(first.headers.etag);
    const polled = note(await api.as('admin').get(url, { headers: { 'if-none-match': first.headers.etag as string } }));
    expect(polled.statusCode).toBe(200);
    expect(polled.headers.etag).toBe(next.headers.etag);
    expect(polled.body).toBe(next.body);
    expect(mostBodiesPerTag()).toBe(1);
  });

  it('an answer named by the minute, built as the minute turns, goes untagged', async () => {
    // A family not reached: a notice sent just over the not-reached delay (30 minutes) before the turn
    // of the next minute, so it counts from that minute on, and not in the minute before it.
    const turn = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
    await api.db.query(
      `INSERT INTO messages (subject, message, recipient, kind, delivery_status, sent_at)
       VALUES ('Raced', 'Across the minute', '+919811100001', 'notice', 'sent', $1)`,
      [new Date(turn - 30 * 60_000 - 30_000).toISOString()],
    );
    const token = await api.adminToken();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(turn - 100);
      const before = note(await api.as('admin').get('/api/v1/dashboard/summary'));
      expect(before.statusCode).toBe(200);
      const notReached = (response: LightMyRequestResponse) => (response.json() as { not_reached: number }).not_reached;

      // Named in the minute before the turn; the minute turns once it has begun to be built.
      const { result: raced, ran } = await duringBuild(
        api.db,
        'queryCached',
        'AS total_students',
        () => {
          vi.setSystemTime(turn + 100);
        },
        () => callerOf(other, token).get('/api/v1/dashboard/summary').then(note),
      );
      expect(ran).toBe(true);
      expect(raced.statusCode).toBe(200);
      expect(notReached(raced)).toBe(notReached(before) + 1);
      expect(mostBodiesPerTag()).toBe(1);
      expect(raced.headers.etag).toBeUndefined();

      const after = note(await api.as('admin').get('/api/v1/dashboard/summary'));
      expect(notReached(after)).toBe(notReached(raced));
      expect(after.headers.etag).toBeDefined();
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(mostBodiesPerTag()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('data versions', () => {
  it('has a version for every kind the server names', async () => {
    const rows = await api.db.query<{ kind: string }>('SELECT kind FROM data_versions ORDER BY kind');
    expect(rows.map((row) => row.kind)).toEqual([...DATA_KINDS]);
    // One per kind, and the centre's time zone last (ADR 042).
    const versions = (await readVersions(api.db, ['students', 'attendance'])).split(',');
    expect(versions).toHaveLength(3);
    expect(versions[2]).toMatch(/^zone=/);
  });

  it('rises when a statement changes a row, and not when it changes none', async () => {
    const before = await versionOf('students');
    await api.db.query("UPDATE students SET parent_name = parent_name WHERE full_name = 'nobody at all'");
    expect(await versionOf('students')).toBe(before);
    await api.student({ full_name: 'Raises The Version' });
    const after = await versionOf('students');
    expect(after > before).toBe(true);
  });

  it('rises for a write rolled into a larger transaction only if it commits', async () => {
    const before = await versionOf('students');
    await expect(
      api.db.transaction(async (tx) => {
        const changed = await tx.query('UPDATE students SET parent_name = parent_name RETURNING id');
        expect(changed.length).toBeGreaterThan(0);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await versionOf('students')).toBe(before);
  });

  it('never returns to a value it had, even when set back (a restored backup holds older versions)', async () => {
    const before = await versionOf('settings');
    await api.db.query("UPDATE data_versions SET version = version - 1000 WHERE kind = 'settings'");
    const changed = await api.db.query('UPDATE settings SET value = value RETURNING key');
    expect(changed.length).toBeGreaterThan(0);
    // Raised to the clock (microseconds), not by one from the value set back.
    expect((await versionOf('settings')) > before).toBe(true);
  });

  // Only a database server runs transactions side by side; the embedded one takes them in turn.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'two transactions that change two kinds in opposite orders both commit, neither waiting on the other',
    async () => {
      const [first, second] = await Promise.all([
        api.student({ full_name: 'Side One' }),
        api.student({ full_name: 'Side Two' }),
      ]);
      const before = { students: await versionOf('students'), activities: await versionOf('activities') };
      let release: () => void = () => {};
      const bothStarted = new Promise<void>((resolve) => {
        let started = 0;
        release = () => {
          started += 1;
          if (started === 2) resolve();
        };
      });
      const touchStudent = (tx: Queryable, id: number) =>
        tx.query("UPDATE students SET parent_name = 'Changed' WHERE id = $1", [id]);
      const addActivity = (tx: Queryable, text: string) =>
        tx.query(
          "INSERT INTO activities (user_id, action, description) SELECT id, 'test.side', $1 FROM users LIMIT 1",
          [text],
        );
      // Each changes its first kind, waits until the other has too, then changes the other kind: had
      // a version row been locked by the first change, each would wait on the other (a deadlock).
      await Promise.all([
        api.db.transaction(async (tx) => {
          await touchStudent(tx, first.id);
          release();
          await bothStarted;
          await addActivity(tx, 'one');
        }),
        api.db.transaction(async (tx) => {
          await addActivity(tx, 'two');
          release();
          await bothStarted;
          await touchStudent(tx, second.id);
        }),
      ]);
      expect(await versionOf('students')).toBeGreaterThan(before.students);
      expect(await versionOf('activities')).toBeGreaterThan(before.activities);
      // And nothing is left queued once they committed.
      const [pending] = await api.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM data_version_pending',
      );
      expect(pending?.count).toBe(0);
    },
  );

  it('rises once per transaction, at its commit, for every kind it changed', async () => {
    const before = { students: await versionOf('students'), settings: await versionOf('settings') };
    await api.db.transaction(async (tx) => {
      await tx.query('UPDATE students SET parent_name = parent_name');
      await tx.query('UPDATE settings SET value = value');
      await tx.query('UPDATE students SET parent_name = parent_name');
      // Not yet: the versions rise as the transaction commits.
      const [inside] = await tx.query<{ version: string }>(
        "SELECT version::text FROM data_versions WHERE kind = 'students'",
      );
      expect(BigInt(inside?.version ?? '0')).toBe(before.students);
    });
    const after = { students: await versionOf('students'), settings: await versionOf('settings') };
    expect(after.students).toBeGreaterThan(before.students);
    expect(after.settings).toBeGreaterThan(before.settings);
    // The next transaction notes its own kinds from nothing.
    await api.db.query('UPDATE settings SET value = value');
    expect(await versionOf('students')).toBe(after.students);
    expect(await versionOf('settings')).toBeGreaterThan(after.settings);
  });

  it('has its triggers on every table of every kind', async () => {
    const rows = await api.db.query<{ table_name: string; triggers: number }>(
      `SELECT c.relname AS table_name, count(*)::int AS triggers
         FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE NOT t.tgisinternal AND t.tgname LIKE '%\\_version'
        GROUP BY c.relname ORDER BY c.relname`,
    );
    // Insert, update, delete and truncate on each.
    expect(rows.every((row) => row.triggers === 4)).toBe(true);
    expect(rows.map((row) => row.table_name)).toEqual(
      [
        'activities',
        'attendance',
        'classes',
        'fee_charges',
        'fee_families',
        'fee_family_gst_details',
        'fee_family_states',
        'fee_late_fees',
        'fee_payments',
        'ledger_entries',
        'ledger_transactions',
        'marking_reminders',
        'message_attempts',
        'message_sends',
        'messages',
        'parent_access',
        'push_subscriptions',
        'settings',
        'students',
        'subjects',
        'teacher_attendance',
        'teacher_attendance_locks',
        'teachers',
        'user_two_factor',
        'users',
      ].sort(),
    );
  });
});

describe('ANSWER_CACHE_MB', () => {
  it('sets the memory for kept answers (64 MB unless set, 0 for none) and refuses what is not a size', () => {
    expect(loadConfig({}).answerCacheBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ ANSWER_CACHE_MB: '0' }).answerCacheBytes).toBe(0);
    expect(() => loadConfig({ ANSWER_CACHE_MB: 'lots' })).toThrow(ConfigError);
    expect(() => loadConfig({ ANSWER_CACHE_MB: '-1' })).toThrow(/ANSWER_CACHE_MB/);
  });
});

describe('matchesEntityTag', () => {
  it('matches the tag, a weak form of it, one in a list, or *', () => {
    expect(matchesEntityTag('"abc"', '"abc"')).toBe(true);
    expect(matchesEntityTag('W/"abc"', '"abc"')).toBe(true);
    expect(matchesEntityTag('"x", "abc"', '"abc"')).toBe(true);
    expect(matchesEntityTag('*', '"abc"')).toBe(true);
    expect(matchesEntityTag('"abcd"', '"abc"')).toBe(false);
    expect(matchesEntityTag(undefined, '"abc"')).toBe(false);
    expect(matchesEntityTag('', '"abc"')).toBe(false);
  });
});
