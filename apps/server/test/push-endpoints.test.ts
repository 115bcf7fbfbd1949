import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { ENDPOINT_PROBLEMS, type LookupHost } from '../src/modules/delivery/endpoint-policy';
import { createPushAgents, postPush } from '../src/modules/delivery/push-transport';
import { PUSH_FAILURES, PushWorker } from '../src/modules/delivery/push-worker';
import { waitFor } from './helpers/async';
import type { TestClient } from './helpers/client';
import type { FakePushService } from './helpers/fake-push-service';
import { loopbackPush, type ParentWithToken, parentWithToken, startPushApp, stopPushApp } from './helpers/push';
import { detailOf } from './helpers/test-app';

/**
 * Push endpoints as an attacker would register them (ADR 018): every way of
 * writing an internal address is refused when subscribing, and a public-looking name that resolves
 * inside the network (at once, or only after the check: rebinding) reaches nothing at send time.
 */

const MAX_ATTEMPTS = 3;

/** A fake DNS: each name's answers in turn (the last one repeats), and every question asked. */
const answers = new Map<string, string[][]>();
const asked: string[] = [];
const fakeDns: LookupHost = async (hostname) => {
  asked.push(hostname);
  const queue = answers.get(hostname);
  if (!queue) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  const next = (queue.length > 1 ? queue.shift() : queue[0]) as string[];
  return next.map((address): LookupAddress => ({ address, family: isIP(address) }));
};

let api: TestClient;
let fake: FakePushService;

beforeAll(async () => {
  ({ api, fake } = await startPushApp({
    config: {
      push: loopbackPush({ retryMaxMs: 40, maxAttempts: MAX_ATTEMPTS, requestTimeoutMs: 1000 }),
    },
    // The worker resolves names through the fake DNS; everything else is the app as it runs.
    prepare: (ctx) => {
      const vapid = { subject: 'mailto:office@tuitiondesk.invalid', ...webpush.generateVAPIDKeys() };
      const push = new PushWorker({ db: ctx.db, tokens: ctx.tokens, vapid, config: ctx.config.push, lookup: fakeDns });
      return { ...ctx, push };
    },
  }));
});

afterAll(() => stopPushApp(api, fake));

beforeEach(async () => {
  await api.db.query('DELETE FROM push_subscriptions');
});

const newParent = () => parentWithToken(api, 'Leela Nair');

const keys = () => fake.createDevice().keys;

function subscribe(parent: ParentWithToken, endpoint: string, deviceKeys = keys()) {
  return api
    .as('parent', parent)
    .post('/api/v1/parent/push/subscriptions', { endpoint, expirationTime: null, keys: deviceKeys });
}

async function storedEndpoints(phone: string): Promise<string[]> {
  const rows = await api.db.query<{ endpoint: string }>('SELECT endpoint FROM push_subscriptions WHERE phone = $1', [
    phone,
  ]);
  return rows.map((row) => row.endpoint);
}

/** The endpoint shapes real browsers get from each push service. */
const REAL_ENDPOINTS = [
  'https://fcm.googleapis.com/fcm/send/dGVzdC1yZWdpc3RyYXRpb24:APA91bHPRgkF3JUikC4ENAHEeMrd41Zxv3hVZjC9KtT8OvPVGJ-hQMRKRrZuJAEcl7B338qju59zJMjw2DELjzEvxwYv7hH5Ynpc1ODQ0aT4U4OFEeco8ohsN5PjL1iC2dNtk2BAokeMCg2ZXKqpc8FXKmhX94kIxQ',
  'https://fcm.googleapis.com/wp/dGVzdC1yZWdpc3RyYXRpb24:APA91bHPRgkF3JUikC4ENAHEeMrd41Zxv3hVZjC9KtT8OvPVGJ',
  'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABmT1Kd2X0oZzVgEJp1mQ5c8dM0pT9qv3M-3tbKZyH9WJkR0wHk3Yl5Cz6ZxWg2',
  'https://updates.push.services.mozilla.com/wpush/v1/gAAAAABmT1Kd2X0oZzVgEJp1mQ5c8dM0pT9qv3M',
  'https://web.push.apple.com/QGqV9XTxkBXPZ0e3s0JqNcQ-8hA1rwfsAY2HZcF9gHkmU3t6S5f2vP5uxl6aQj8iB6L0GZ4x2r2iHlxW5dL1N9A',
  'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB%2fQb3xM9mHLy6xvD7kR1O0Wm9rRzq1%2bF5pK0ZHcDgE',
  'https://db5p.notify.windows.com/w/?token=BQYAAADq0vRk%2b7w%3d',
  // The same hosts written other ways the URL standard accepts.
  'https://fcm.googleapis.com:443/fcm/send/abc:def',
  'https://FCM.GoogleAPIs.com/fcm/send/abc:def',
  'https://fcm.googleapis.com./fcm/send/abc:def',
];

/** Hostile endpoints and the sentence each gets (after `endpoint: `). */
const HOSTILE_ENDPOINTS: [endpoint: string, problem: string][] = [
  ['http://fcm.googleapis.com/fcm/send/abc', ENDPOINT_PROBLEMS.notHttps],
  ['https://fcm.googleapis.com:8443/fcm/send/abc', ENDPOINT_PROBLEMS.port],
  ['https://fcm.googleapis.com:80/fcm/send/abc', ENDPOINT_PROBLEMS.port],
  ['https://fcm.googleapis.com:22/', ENDPOINT_PROBLEMS.port],
  ['https://user:secret@fcm.googleapis.com/fcm/send/abc', ENDPOINT_PROBLEMS.userinfo],
  ['https://user@fcm.googleapis.com/fcm/send/abc', ENDPOINT_PROBLEMS.userinfo],
  ['https://:secret@fcm.googleapis.com/fcm/send/abc', ENDPOINT_PROBLEMS.userinfo],
  // IPv4 in every notation the URL parser turns into 127.0.0.1.
  ['https://127.0.0.1/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://2130706433/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://0x7f000001/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://0177.0.0.1/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://017700000001/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://127.1/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://0x7f.1/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://127.0.0.1./push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://%31%32%37.0.0.1/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://169.254.169.254/latest/meta-data/', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://10.0.0.1/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://0.0.0.0/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://8.8.8.8/push', ENDPOINT_PROBLEMS.ipLiteral],
  // IPv6, always in brackets.
  ['https://[::1]/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://[0:0:0:0:0:0:0:1]/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://[::ffff:127.0.0.1]/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://[::ffff:7f00:1]/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://[::ffff:a9fe:a9fe]/latest/meta-data/', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://[fe80::1]/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://[fd00::1]/push', ENDPOINT_PROBLEMS.ipLiteral],
  ['https://[2606:4700::1111]/push', ENDPOINT_PROBLEMS.ipLiteral],
  // This computer by name.
  ['https://localhost/push', ENDPOINT_PROBLEMS.localhost],
  ['https://LOCALHOST/push', ENDPOINT_PROBLEMS.localhost],
  ['https://localhost./push', ENDPOINT_PROBLEMS.localhost],
  ['https://push.localhost/push', ENDPOINT_PROBLEMS.localhost],
  // Names that only a local network answers.
  ['https://metadata/computeMetadata/v1/', ENDPOINT_PROBLEMS.singleLabel],
  ['https://intranet/push', ENDPOINT_PROBLEMS.singleLabel],
  ['https://metadata.google.internal/computeMetadata/v1/', ENDPOINT_PROBLEMS.specialUse],
  ['https://printer.local/push', ENDPOINT_PROBLEMS.specialUse],
  ['https://db.localdomain/push', ENDPOINT_PROBLEMS.specialUse],
  ['https://nas.home.arpa/push', ENDPOINT_PROBLEMS.specialUse],
  ['https://router.lan/push', ENDPOINT_PROBLEMS.specialUse],
  ['https://files.corp/push', ENDPOINT_PROBLEMS.specialUse],
  ['https://push.example.test/push', ENDPOINT_PROBLEMS.specialUse],
  ['https://1.0.0.127.in-addr.arpa/push', ENDPOINT_PROBLEMS.specialUse],
  // Not a web URL at all (the request schema's own check).
  ['ftp://fcm.googleapis.com/push', 'must be an https URL'],
  ['javascript:alert(1)', 'must be an https URL'],
  ['https://1.2.3.4.5/push', 'must be an https URL'],
];

describe('subscribing: the endpoint is checked without DNS', () => {
  it('accepts the endpoints of FCM, Mozilla, Apple and Windows (no DNS needed on this offline machine)', async () => {
    api.ctx.config.push.allowLoopbackEndpointsForTests = false;
    try {
      const parent = await newParent();
      for (const endpoint of REAL_ENDPOINTS) {
        const response = await subscribe(parent, endpoint);
        expect(response.statusCode, `${endpoint}: ${response.body}`).toBe(201);
      }
      expect(await storedEndpoints(parent.phone)).toHaveLength(REAL_ENDPOINTS.length);
      expect(asked).toEqual([]);
    } finally {
      api.ctx.config.push.allowLoopbackEndpointsForTests = true;
    }
  });

  it('refuses every hostile endpoint with 422 and a sentence, and stores none', async () => {
    api.ctx.config.push.allowLoopbackEndpointsForTests = false;
    try {
      const parent = await newParent();
      for (const [endpoint, problem] of HOSTILE_ENDPOINTS) {
        const response = await subscribe(parent, endpoint);
        expect({ endpoint, status: response.statusCode }).toEqual({ endpoint, status: 422 });
        expect(detailOf(response), endpoint).toBe(`endpoint: ${problem}`);
      }
      expect(await storedEndpoints(parent.phone)).toEqual([]);
      expect(asked).toEqual([]);
    } finally {
      api.ctx.config.push.allowLoopbackEndpointsForTests = true;
    }
  });

  it('the test-only switch admits loopback written as loopback, on any port, and no other inside address', async () => {
    const parent = await newParent();
    const admitted = [
      'http://127.0.0.1:9/push',
      'http://127.0.0.2:9/push',
      'http://2130706433:9/push',
      'http://[::1]:9/push',
      'http://localhost:9/push',
    ];
    for (const endpoint of admitted) expect((await subscribe(parent, endpoint)).statusCode, endpoint).toBe(201);
    const refused: [string, string][] = [
      ['http://169.254.169.254/latest/meta-data/', ENDPOINT_PROBLEMS.ipLiteral],
      ['http://10.0.0.1:8080/push', ENDPOINT_PROBLEMS.ipLiteral],
      ['http://[fd00::1]:9/push', ENDPOINT_PROBLEMS.ipLiteral],
      ['http://[::ffff:a9fe:a9fe]/push', ENDPOINT_PROBLEMS.ipLiteral],
      ['http://0.0.0.0:9/push', ENDPOINT_PROBLEMS.ipLiteral],
      ['http://push.localhost:9/push', ENDPOINT_PROBLEMS.localhost],
      ['http://metadata.google.internal/computeMetadata/v1/', ENDPOINT_PROBLEMS.specialUse],
      ['http://metadata/computeMetadata/v1/', ENDPOINT_PROBLEMS.singleLabel],
    ];
    for (const [endpoint, problem] of refused) {
      const response = await subscribe(parent, endpoint);
      expect(response.statusCode, endpoint).toBe(422);
      expect(detailOf(response), endpoint).toBe(`endpoint: ${problem}`);
    }
    expect(await storedEndpoints(parent.phone)).toHaveLength(admitted.length);
  });
});

describe('the test-only switch', () => {
  it('is logged as a warning when the worker starts with it on, and not otherwise', async () => {
    const warnings: string[] = [];
    const logger = { info() {}, error() {}, warn: (_: object, message: string) => warnings.push(message) };
    const vapid = { subject: 'mailto:office@tuitiondesk.invalid', ...webpush.generateVAPIDKeys() };
    for (const on of [true, false]) {
      const config = { ...api.ctx.config.push, allowLoopbackEndpointsForTests: on };
      const worker = new PushWorker({ db: api.db, tokens: api.ctx.tokens, vapid, config, lookup: fakeDns });
      worker.start(logger);
      await worker.stop(1000);
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^TEST-ONLY SETTING ON: .*Never use it in production\.$/);
  });
});

describe('sending: the address is checked at every attempt, and only it is connected to', () => {
  /** A device whose endpoint names `host` on the fake's port: if anything connects to loopback, the fake sees it. */
  async function deviceAt(host: string, answersInTurn: string[][]) {
    const parent = await newParent();
    answers.set(host, answersInTurn);
    const device = fake.createDevice(`http://${host}:${new URL(fake.origin).port}`);
    const response = await subscribe(parent, device.endpoint, device.keys);
    expect(response.statusCode, response.body).toBe(201);
    return { parent, device };
  }

  async function send(subject: string) {
    const response = await api
      .as('admin')
      .post('/api/v1/messages/send-to-parents', { subject, message: 'Is anyone inside?', recipients: 'all_parents' });
    expect(response.statusCode, response.body).toBe(200);
  }

  async function failureOf(phone: string, subject: string) {
    return waitFor(`the message to ${phone} failed`, async () => {
      const [row] = await api.db.query<{ delivery_status: string; failure_reason: string | null }>(
        'SELECT delivery_status, failure_reason FROM messages WHERE recipient = $1 AND subject = $2',
        [phone, subject],
      );
      return row?.delivery_status === 'failed' ? row.failure_reason : undefined;
    });
  }

  it('delivers to the loopback fake named as such (so the fake would see anything that got through)', async () => {
    const parent = await newParent();
    const device = fake.createDevice();
    expect((await subscribe(parent, device.endpoint, device.keys)).statusCode).toBe(201);
    await send('Control');
    await waitFor('the control push', () => fake.receivedBy(device.endpoint)[0]);
  });

  const INSIDE = [
    '127.0.0.1',
    '169.254.169.254',
    '::1',
    '::ffff:127.0.0.1',
    '10.1.2.3',
    '100.64.0.9',
    '0.0.0.0',
    'fd00::2',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
  ];

  it.each(INSIDE)('refuses a public-looking name that resolves to %s: nothing connects', async (address) => {
    const host = `push-${address.replace(/[.:]/g, '-')}.attacker-cdn.net`;
    const requestsBefore = fake.requests.length;
    const { parent } = await deviceAt(host, [[address]]);
    await send(`Inside ${address}`);
    expect(await failureOf(parent.phone, `Inside ${address}`)).toBe(PUSH_FAILURES.notAllowed);
    expect(fake.requests.length).toBe(requestsBefore);
    // Refused once, not retried: the device is forgotten with its queued pushes.
    expect(asked.filter((name) => name === host)).toHaveLength(1);
    expect(await storedEndpoints(parent.phone)).toEqual([]);
    expect(await api.db.query('SELECT 1 FROM push_outbox')).toEqual([]);
  });

  it('refuses a name with any inside address among public ones', async () => {
    const host = 'mixed.attacker-cdn.net';
    const { parent } = await deviceAt(host, [['93.184.215.14', '127.0.0.1']]);
    const before = fake.requests.length;
    await send('Mixed');
    expect(await failureOf(parent.phone, 'Mixed')).toBe(PUSH_FAILURES.notAllowed);
    expect(fake.requests.length).toBe(before);
  });

  it('rebinding: public at the check, loopback afterwards: only the checked address is connected to, then refused', async () => {
    const host = 'rebind.attacker-cdn.net';
    // The first answer passes the check; every later question gets loopback, where the fake listens.
    const { parent } = await deviceAt(host, [['93.184.215.14'], ['127.0.0.1']]);
    const before = fake.requests.length;
    await send('Rebind');
    const reason = await failureOf(parent.phone, 'Rebind');
    // Attempt 1 connected only to 93.184.215.14 (unreachable here): had the connection asked DNS
    // again it would have got loopback and reached the fake. Attempt 2 checked again and refused.
    expect(fake.requests.length).toBe(before);
    expect(asked.filter((name) => name === host)).toHaveLength(2);
    expect(reason).toBe(PUSH_FAILURES.notAllowed);
  });

  it('retries a name that does not resolve, and tells staff only that the service could not be reached', async () => {
    const parent = await newParent();
    const host = 'gone.attacker-cdn.net';
    expect((await subscribe(parent, `https://${host}/push`)).statusCode).toBe(201);
    await send('Nowhere');
    expect(await failureOf(parent.phone, 'Nowhere')).toBe(
      `The push service could not be reached after ${MAX_ATTEMPTS} attempts.`,
    );
    expect(asked.filter((name) => name === host)).toHaveLength(MAX_ATTEMPTS);
  });

  it("shows staff no word of the push service's answer", async () => {
    const parent = await newParent();
    const device = fake.createDevice();
    expect((await subscribe(parent, device.endpoint)).statusCode).toBe(201);
    // The fake answers 403 with a body, as an internal service might: none of it reaches staff.
    fake.behave(device.endpoint, { status: 403 });
    await send('Quiet');
    const reason = await failureOf(parent.phone, 'Quiet');
    expect(reason).toBe(PUSH_FAILURES.refused);
    expect(reason).not.toMatch(/403|Forbidden|127\.0\.0\.1|ECONN/);
    const history = await api.as('admin').get('/api/v1/communications/history?limit=50');
    expect(history.body).not.toMatch(/Forbidden|ECONNREFUSED|127\.0\.0\.1:/);
    fake.behave(device.endpoint, undefined);
  });

  it('connects to the checked address under the endpoint name: the Host header stays the name', async () => {
    const agents = createPushAgents(1);
    const url = new URL(`http://pinned.attacker-cdn.net:${new URL(fake.origin).port}/push/none`);
    const status = await postPush(
      url,
      [{ address: '127.0.0.1', family: 4 }],
      { endpoint: url.toString(), method: 'POST', headers: { TTL: '60' }, body: Buffer.from('x') },
      agents,
      AbortSignal.timeout(2000),
    );
    agents.http.destroy();
    expect(status).toBe(404);
    expect(fake.requests.at(-1)).toEqual({ host: `pinned.attacker-cdn.net:${url.port}`, path: '/push/none' });
  });
});
