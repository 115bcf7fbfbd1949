import { randomBytes } from 'node:crypto';
import { pushPayloadSchema } from '@tuitiondesk/contract';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { prepareContext } from '../src/bootstrap';
import type { AppContext } from '../src/context';
import { type Database, openPostgres } from '../src/db/database';
import { FakePushService } from './helpers/fake-push-service';
import { ADMIN_PASSWORD, auth, login, testConfig } from './helpers/test-app';

const serverUrl = process.env.TEST_DATABASE_URL;
const PARENTS = 300;

interface Instance {
  db: Database;
  ctx: AppContext;
  app: FastifyInstance;
}

/**
 * Two server instances (two pools, two workers) on one PostgreSQL database share one outbox: every
 * push must be sent exactly once. Each instance signs with its own VAPID subject, so the fake push
 * service can tell which instance sent what.
 */
describe.skipIf(!serverUrl)('two server instances on one PostgreSQL database', () => {
  const name = `tuitiondesk_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  let fake: FakePushService;
  const instances: Instance[] = [];
  const databases: Database[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(serverUrl as string);
    url.pathname = `/${name}`;
    fake = await FakePushService.start();

    const base = testConfig();
    // Both at once, as two servers started together on a new database would: migrations, the admin
    // and the VAPID keys are made once, whoever comes first.
    const prepared = await Promise.all(
      ['a', 'b'].map(async (label) => {
        const db = openPostgres(url.toString(), { max: 4, onError: () => {} });
        databases.push(db);
        const config = {
          ...base,
          push: {
            ...base.push,
            vapidSubject: `mailto:instance-${label}@tuitiondesk.invalid`,
            allowHttpEndpoints: true,
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
    const cleaner = new pg.Client({ connectionString: serverUrl });
    await cleaner.connect();
    await cleaner.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleaner.end();
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
      const response = await instance.app.inject({
        method: 'POST',
        url: '/api/v1/parent/push/subscriptions',
        headers: auth(token),
        payload: { endpoint: device.endpoint, keys: device.keys },
      });
      expect(response.statusCode).toBe(201);
    }

    a.ctx.push.start();
    b.ctx.push.start();
    const send = await a.app.inject({
      method: 'POST',
      url: '/api/v1/messages/send-to-parents',
      headers: auth(await login(a.app, 'admin', ADMIN_PASSWORD)),
      payload: { subject: 'Exam timetable', message: 'The timetable is on the notice board.', recipients: '8' },
    });
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
});
