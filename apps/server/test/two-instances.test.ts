import { pushPayloadSchema } from '@tuitiondesk/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { prepareContext } from '../src/bootstrap';
import type { AppContext } from '../src/context';
import { type Database, openPostgres } from '../src/db/database';
import { callerOf } from './helpers/client';
import { FakePushService } from './helpers/fake-push-service';
import { ADMIN_PASSWORD, adminHasChosenPassword, emptyServerDatabase, login, testConfig } from './helpers/test-app';

const serverUrl = process.env.TEST_DATABASE_URL;
const PARENTS = 300;

interface Instance {
  db: Database;
  ctx: AppContext;
  app: FastifyInstance;
}

/**
 * Two server instances (two pools, two workers) on one PostgreSQL database, as behind a load
 * balancer that sends each request anywhere: nothing that must be shared lives in one process's
 * memory. They share one outbox (every push sent exactly once; each instance signs with its own
 * VAPID subject, so the fake push service can tell which sent what), one sign-in throttle, the
 * activity feed's unread state, and the end of sessions at a password change.
 */
describe.skipIf(!serverUrl)('two server instances on one PostgreSQL database', () => {
  let fake: FakePushService;
  let dropDatabase = async () => {};
  const instances: Instance[] = [];
  const databases: Database[] = [];

  beforeAll(async () => {
    const { url, drop } = await emptyServerDatabase(serverUrl as string);
    dropDatabase = drop;
    fake = await FakePushService.start();

    const base = testConfig();
    // Both at once, as two servers started together on a new database would: migrations, the admin
    // and the VAPID keys are made once, whoever comes first.
    const prepared = await Promise.all(
      ['a', 'b'].map(async (label) => {
        const db = openPostgres(url, { max: 4, onError: () => {} });
        databases.push(db);
        const config = {
          ...base,
          push: {
            ...base.push,
            vapidSubject: `mailto:instance-${label}@tuitiondesk.invalid`,
            allowLoopbackEndpointsForTests: true,
            pollMs: 25,
            batchSize: 10,
            concurrency: 4,
            retryBaseMs: 20,
          },
        };
        const { ctx } = await prepareContext(config, db);
        return { db, ctx };
      }),
    );
    await adminHasChosenPassword(prepared[0]?.db as Database);
    for (const { db, ctx } of prepared) {
      const app = await buildApp(ctx);
      await app.ready();
      instances.push({ db, ctx, app });
    }
  });

  afterAll(async () => {
    for (const instance of instances) {
      await instance.ctx.push.stop(2000);
      await instance.app.close();
    }
    for (const db of databases) await db.close();
    await fake?.close();
    await dropDatabase();
  });

  /** Form-encoded sign-in, as the console posts it. */
  const signIn = (instance: Instance, username: string, password: string) =>
    callerOf(instance.app).post('/api/v1/auth/login', undefined, { form: { username, password } });

  it('share one sign-in throttle: a burst split over both is checked no further than the limit, and the block holds on both', async () => {
    const [a, b] = instances as [Instance, Instance];
    const admin = await login(a.app, 'admin', ADMIN_PASSWORD);
    const created = await callerOf(a.app, admin).post('/api/v1/teachers/', {
      first_name: 'Throttle',
      last_name: 'Target',
      phone_number: '+919811100001',
      subjects: ['Science'],
    });
    expect(created.statusCode).toBe(201);
    const { username, initial_password } = created.json() as { username: string; initial_password: string };
    // 100 wrong passwords at once, half on each instance, from one address: five are checked.
    const guesses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => signIn(i % 2 === 0 ? a : b, username, `wrong-password-${i}`)),
    );
    const statuses = guesses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(95);
    for (const instance of [a, b]) {
      const blocked = await signIn(instance, username, initial_password);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The block ends (ASVS 6.3.1: no permanent lockout): moved into the past, as time would.
    await a.db.query(
      "UPDATE login_throttle SET blocked_until = now() - interval '1 second' WHERE key LIKE 'pw:user:%'",
    );
    expect((await signIn(b, username, initial_password)).statusCode).toBe(200);
  });

  it('share the activity feed’s unread state and end sessions everywhere at a password change', async () => {
    const [a, b] = instances as [Instance, Instance];
    const created = await callerOf(a.app, await login(a.app, 'admin', ADMIN_PASSWORD)).post('/api/v1/teachers/', {
      first_name: 'Shared',
      last_name: 'State',
      phone_number: '+919811100002',
      subjects: ['English'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { username, initial_password } = created.json() as { username: string; initial_password: string };
    // The first sign-in (on b) chooses the teacher's own password (on a): the first session ends everywhere.
    const first = await login(b.app, username, initial_password);
    const chosen = await callerOf(a.app, first).post('/api/v1/auth/change-password', {
      current_password: initial_password,
      new_password: 'Copper-Kite-Own-1',
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect((await callerOf(b.app, first).get('/api/v1/auth/me')).statusCode).toBe(401);
    const token = chosen.json().access_token as string;
    const unread = async (instance: Instance, bearer: string) =>
      (await callerOf(instance.app, bearer).get('/api/v1/activities/recent?unread_only=true&limit=100')).json()
        .count as number;
    expect(await unread(a, token)).toBeGreaterThan(0);
    const viewed = await callerOf(b.app, token).post('/api/v1/activities/mark-viewed');
    expect(viewed.statusCode).toBe(200);
    expect(await unread(a, token)).toBe(0);

    const elsewhere = await login(b.app, username, 'Copper-Kite-Own-1');
    const changed = await callerOf(a.app, token).post('/api/v1/auth/change-password', {
      current_password: 'Copper-Kite-Own-1',
      new_password: 'Copper-Kite-Own-2',
    });
    expect(changed.statusCode).toBe(200);
    const me = await callerOf(b.app, elsewhere).get('/api/v1/auth/me');
    expect(me.statusCode).toBe(401);
    const fresh = changed.json().access_token as string;
    expect((await callerOf(b.app, fresh).get('/api/v1/auth/me')).statusCode).toBe(200);
  });

  it('share one VAPID key pair', () => {
    const [a, b] = instances as [Instance, Instance];
    expect(a.ctx.push.publicKey).toBe(b.ctx.push.publicKey);
  });

  it(`push a batch of ${PARENTS} messages to ${PARENTS} devices, each exactly once`, async () => {
    const [a, b] = instances as [Instance, Instance];
    const devices = Array.from({ length: PARENTS }, () => fake.createDevice());
    const phones = devices.map((_, index) => `+9177${String(index).padStart(8, '0')}`);
    await a.db.query(
      `INSERT INTO students (full_name, class_name, parent_name, parent_phone)
       SELECT 'Child ' || n, '8', 'Parent ' || n, phone FROM unnest($1::text[]) WITH ORDINALITY AS p(phone, n)`,
      [phones],
    );
    await a.db.query(
      "INSERT INTO parent_access (phone, code_hash, issued_by) SELECT unnest($1::text[]), 'hash', 'Test'",
      [phones],
    );
    // Half the devices subscribe through each instance, as parents behind a load balancer would.
    for (const [index, device] of devices.entries()) {
      const instance = index % 2 === 0 ? a : b;
      const token = await instance.ctx.tokens.signParent({ phone: phones[index] as string, tokenVersion: 0 });
      const response = await callerOf(instance.app, token).post('/api/v1/parent/push/subscriptions', {
        endpoint: device.endpoint,
        keys: device.keys,
      });
      expect(response.statusCode).toBe(201);
    }

    a.ctx.push.start();
    b.ctx.push.start();
    const send = await callerOf(a.app, await login(a.app, 'admin', ADMIN_PASSWORD)).post(
      '/api/v1/messages/send-to-parents',
      { subject: 'Exam timetable', message: 'The timetable is on the notice board.', recipients: '8' },
    );
    expect(send.statusCode, send.body).toBe(200);
    expect(send.json().recipients_count).toBe(PARENTS);

    const deadline = Date.now() + 60_000;
    for (;;) {
      const [{ count }] = (await a.db.query<{ count: number }>('SELECT count(*)::int AS count FROM push_outbox')) as [
        { count: number },
      ];
      if (count === 0 && fake.received.length >= PARENTS) break;
      if (Date.now() > deadline) throw new Error(`outbox still holds ${count}; received ${fake.received.length}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Anything sent twice would arrive a little later: give it the time of a few polls.
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(fake.rejected).toEqual([]);
    const messages = await a.db.query<{ id: number; recipient: string }>(
      "SELECT id, recipient FROM messages WHERE subject = 'Exam timetable'",
    );
    const messageOf = new Map(messages.map((row) => [row.recipient, row.id]));
    const seen = new Map<string, number>();
    for (const push of fake.received) {
      const payload = pushPayloadSchema.parse(JSON.parse(push.plaintext));
      const key = `${payload.message_id} ${push.endpoint}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    const expected = devices.map((device, index) => `${messageOf.get(phones[index] as string)} ${device.endpoint}`);
    expect([...seen.keys()].sort()).toEqual(expected.sort());
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
    expect(fake.received).toHaveLength(PARENTS);

    // Both instances took part.
    const bySubject = new Map<string, number>();
    for (const push of fake.received) bySubject.set(push.jwt.sub, (bySubject.get(push.jwt.sub) ?? 0) + 1);
    expect(bySubject.get('mailto:instance-a@tuitiondesk.invalid')).toBeGreaterThan(0);
    expect(bySubject.get('mailto:instance-b@tuitiondesk.invalid')).toBeGreaterThan(0);

    const pushed = await a.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM messages WHERE subject = 'Exam timetable' AND pushed_at IS NOT NULL AND delivery_status = 'sent'",
    );
    expect(pushed[0]?.count).toBe(PARENTS);
  }, 90_000);

  it('serve no kept answer after a write on the other: the next read sees it, and its tag names the same data on both', async () => {
    const [a, b] = instances as [Instance, Instance];
    const admin = await login(a.app, 'admin', ADMIN_PASSWORD);
    const read = (instance: Instance, etag?: string) =>
      callerOf(instance.app, admin).get('/api/v1/students/', etag ? { headers: { 'if-none-match': etag } } : {});
    // b builds and keeps the list; a's answer to the same data carries the same tag.
    const before = await read(b);
    expect(before.statusCode).toBe(200);
    const etag = before.headers.etag as string;
    expect((await read(a)).headers.etag).toBe(etag);
    expect((await read(b, etag)).statusCode).toBe(304);
    expect((await read(a, etag)).statusCode).toBe(304);

    const created = await callerOf(a.app, admin).post('/api/v1/students/', {
      full_name: 'Fresh On Both',
      class_name: '8',
      parent_name: 'Kept Parent',
      parent_phone: '+919811100077',
    });
    expect(created.statusCode, created.body).toBe(201);
    // The very next read on b: a new answer with the new student, under a new tag.
    const after = await read(b, etag);
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect((after.json() as { full_name: string }[]).map((s) => s.full_name)).toContain('Fresh On Both');
    // A write on b is seen by a the same way, for a list that joins two kinds (teachers and accounts).
    const teachersBefore = await callerOf(a.app, admin).get('/api/v1/teachers/');
    await b.db.query("UPDATE users SET full_name = 'Renamed Elsewhere' WHERE username <> 'admin'");
    const teachersAfter = await callerOf(a.app, admin).get('/api/v1/teachers/', {
      headers: { 'if-none-match': teachersBefore.headers.etag as string },
    });
    expect(teachersAfter.statusCode).toBe(200);
    expect(teachersAfter.headers.etag).not.toBe(teachersBefore.headers.etag);
  });

  it('answer a poll that finds nothing new with one query, the versions, the session check included; a write on the other is seen at once', async () => {
    const [a, b] = instances as [Instance, Instance];
    // The push workers poll through the same database object: a poll in flight would be counted as the
    // request's call, or hide the request's own calls from the count. Their tests are done by now.
    await Promise.all(instances.map((instance) => instance.ctx.push.stop(2000)));
    const admin = await login(a.app, 'admin', ADMIN_PASSWORD);
    const read = (instance: Instance, etag?: string) =>
      callerOf(instance.app, admin).get('/api/v1/students/', etag ? { headers: { 'if-none-match': etag } } : {});
    const etag = (await read(a)).headers.etag as string;
    expect((await read(a, etag)).statusCode).toBe(304);

    const calls: string[] = [];
    let depth = 0;
    const db = a.ctx.db as unknown as Record<string, (...args: unknown[]) => unknown>;
    const originals = new Map<string, (...args: unknown[]) => unknown>();
    for (const method of ['query', 'queryCached', 'queryJson', 'transaction', 'exec']) {
      const original = db[method] as (...args: unknown[]) => unknown;
      originals.set(method, original);
      // Only the calls made from outside: one method passing the statement on to another is one call.
      db[method] = async function (this: unknown, ...args: unknown[]) {
        if (depth === 0) calls.push(`${method}: ${String(args[0]).replace(/\s+/g, ' ').slice(0, 60)}`);
        depth += 1;
        try {
          return await original.apply(this, args);
        } finally {
          depth -= 1;
        }
      };
    }
    try {
      expect((await read(a, etag)).statusCode).toBe(304);
      expect(calls).toEqual(['queryCached: SELECT kind, version::text AS version FROM data_versions']);

      // A password change on b ends the session on a at its next request, although a kept it.
      calls.length = 0;
      await b.db.query("UPDATE users SET token_version = token_version + 1 WHERE username = 'admin'");
      expect((await read(a, etag)).statusCode).toBe(401);
      expect(calls.length).toBeGreaterThan(1);
    } finally {
      for (const [method, original] of originals) db[method] = original;
    }
  });
});
