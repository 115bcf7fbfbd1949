import { pushPayloadSchema } from '@tuitiondesk/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { ConfigError, loadConfig } from '../src/config';
import { readKeyFile, type ServerKeys } from '../src/lib/server-keys';
import { enqueuePushes, MAX_DEVICES_PER_PHONE } from '../src/modules/delivery/push-repository';
import { PUSH_FAILURES } from '../src/modules/delivery/push-worker';
import { resolveVapidDetails } from '../src/modules/delivery/vapid';
import { waitFor } from './helpers/async';
import type { Caller, TestClient } from './helpers/client';
import type { Behaviour, FakeDevice, FakePushService } from './helpers/fake-push-service';
import { loopbackPush, type ParentWithToken, parentWithToken, startPushApp, stopPushApp } from './helpers/push';
import { detailOf, testConfig } from './helpers/test-app';

const MAX_ATTEMPTS = 3;

let api: TestClient;
let fake: FakePushService;

beforeAll(async () => {
  ({ api, fake } = await startPushApp({
    config: {
      push: loopbackPush({
        retryMaxMs: 80,
        maxAttempts: MAX_ATTEMPTS,
        // Generous: a push the fake took but answered after the deadline would be sent again
        // (at-least-once), and a loaded test machine can be slow. The slow-service tests shorten it.
        requestTimeoutMs: 3000,
      }),
    },
  }));
});

afterAll(() => stopPushApp(api, fake));

// Sends go to every parent: each test starts with no device subscribed, so only its own get pushes.
beforeEach(async () => {
  await api.db.query('DELETE FROM push_subscriptions');
});

/** A device's call to the subscription routes, as the parent app makes it (a phone's browser names itself). */
function subscribe(caller: Caller, body: unknown) {
  return caller.post('/api/v1/parent/push/subscriptions', body, {
    headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/131' },
  });
}

function unsubscribe(caller: Caller, endpoint: string) {
  return caller.request('DELETE', '/api/v1/parent/push/subscriptions', { endpoint });
}

/** A device subscribed through the API, as the parent app does after the permission prompt. */
async function newDevice(parent: ParentWithToken): Promise<FakeDevice> {
  const device = fake.createDevice();
  const response = await subscribe(api.as('parent', parent), {
    endpoint: device.endpoint,
    expirationTime: null,
    keys: device.keys,
  });
  expect(response.statusCode, response.body).toBe(201);
  return device;
}

/** A new parent with one subscribed device, which the push service treats as `behaviour` says. */
async function parentWithDevice(behaviour: Behaviour): Promise<{ parent: ParentWithToken; device: FakeDevice }> {
  const parent = await parentWithToken(api, 'Meena Iyer');
  const device = await newDevice(parent);
  fake.behave(device.endpoint, behaviour);
  return { parent, device };
}

async function sendToAll(subject: string, message: string): Promise<void> {
  const response = await api
    .as('admin')
    .post('/api/v1/messages/send-to-parents', { subject, message, recipients: 'all_parents' });
  expect(response.statusCode, response.body).toBe(200);
}

async function messageFor(phone: string, subject: string) {
  const rows = await api.db.query<{
    id: number;
    delivery_status: string;
    failure_reason: string | null;
    sent_at: string;
    pushed_at: string | null;
  }>(
    'SELECT id, delivery_status, failure_reason, sent_at, pushed_at FROM messages WHERE recipient = $1 AND subject = $2',
    [phone, subject],
  );
  expect(rows).toHaveLength(1);
  return rows[0] as (typeof rows)[number];
}

/** The parent's copy of the message, once delivery has given up on it. */
function failedMessage(phone: string, subject: string) {
  return waitFor('the message failed', async () => {
    const row = await messageFor(phone, subject);
    return row.delivery_status === 'failed' ? row : undefined;
  });
}

async function outboxCount(): Promise<number> {
  const rows = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM push_outbox');
  return rows[0]?.count ?? 0;
}

async function subscriptionsOf(phone: string) {
  return api.db.query<{ endpoint: string; p256dh: string; auth: string; user_agent: string | null }>(
    'SELECT endpoint, p256dh, auth, user_agent FROM push_subscriptions WHERE phone = $1 ORDER BY id',
    [phone],
  );
}

async function historyEntry(id: number) {
  const response = await api.as('admin').get('/api/v1/communications/history?limit=200');
  expect(response.statusCode).toBe(200);
  return (response.json() as { id: number; delivery_status: string; failure_reason: string | null }[]).find(
    (entry) => entry.id === id,
  );
}

describe('configuration', () => {
  it('takes VAPID keys from the environment only as a pair, and checks them and the subject', () => {
    const keys = webpush.generateVAPIDKeys();
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(
      new ConfigError('Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together'),
    );
    expect(() => loadConfig({ VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(/must be set together/);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(
      /VAPID_PUBLIC_KEY: must be a base64url uncompressed P-256 public key/,
    );
    expect(() => loadConfig({ VAPID_SUBJECT: 'http://example.com' })).toThrow(
      /VAPID_SUBJECT: must be a mailto: address or an https: URL/,
    );
    expect(() => loadConfig({ PUSH_POLL_MS: '5' })).toThrow(/PUSH_POLL_MS/);
    const config = loadConfig({
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'https://centre.example',
      PUSH_ALLOW_LOOPBACK_ENDPOINTS_FOR_TESTS: 'true',
    });
    expect(config.push).toMatchObject({
      vapidKeys: keys,
      vapidSubject: 'https://centre.example',
      allowLoopbackEndpointsForTests: true,
      pollMs: 2000,
    });
    expect(loadConfig({}).push).toMatchObject({
      vapidKeys: undefined,
      vapidSubject: 'mailto:office@tuitiondesk.invalid',
      allowLoopbackEndpointsForTests: false,
    });
    // The old name no longer switches anything on.
    expect(loadConfig({ PUSH_ALLOW_HTTP_ENDPOINTS: 'true' }).push.allowLoopbackEndpointsForTests).toBe(false);
  });

  it('takes the VAPID key pair from the key file, never the database (ADR 017); the environment wins', async () => {
    expect(await api.db.query("SELECT key FROM settings WHERE key LIKE '%vapid%'")).toEqual([]);
    const kept = (readKeyFile(api.ctx.config.keyFile) as ServerKeys).vapid;
    expect(kept.publicKey).toBe(api.ctx.push.publicKey);
    // Another instance (or a restart) with the same key file signs with the same key.
    const again = resolveVapidDetails(testConfig().push, kept);
    expect(again).toEqual({ subject: 'mailto:office@tuitiondesk.invalid', ...kept });
    const env = webpush.generateVAPIDKeys();
    expect(resolveVapidDetails({ ...testConfig().push, vapidKeys: env }, kept)).toMatchObject(env);
  });
});

describe('subscription routes', () => {
  it('answers the public key to a parent; 401 without a token, 403 for staff', async () => {
    const parent = await parentWithToken(api, 'Meena Iyer');
    const response = await api.as('parent', parent).get('/api/v1/parent/push/public-key');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ public_key: api.ctx.push.publicKey });
    expect(Buffer.from(api.ctx.push.publicKey, 'base64url')).toHaveLength(65);

    const anonymous = await api.anonymous().get('/api/v1/parent/push/public-key');
    expect(anonymous.statusCode).toBe(401);
    const staff = await api.as('admin').get('/api/v1/parent/push/public-key');
    expect(staff.statusCode).toBe(403);
  });

  it('refuses subscribing without a parent token: 401, and 403 for staff', async () => {
    const device = fake.createDevice();
    const body = { endpoint: device.endpoint, keys: device.keys };
    expect((await subscribe(api.anonymous(), body)).statusCode).toBe(401);
    expect((await subscribe(api.withToken('not-a-token'), body)).statusCode).toBe(401);
    const staff = await subscribe(api.as('teacher'), body);
    expect(staff.statusCode).toBe(403);
    expect((await unsubscribe(api.anonymous(), device.endpoint)).statusCode).toBe(401);
    expect((await unsubscribe(api.as('admin'), device.endpoint)).statusCode).toBe(403);
    expect(await api.db.query('SELECT 1 FROM push_subscriptions')).toHaveLength(0);
  });

  it('refuses a parent token whose code was issued again (version bumped)', async () => {
    const parent = await parentWithToken(api, 'Meena Iyer');
    await api.db.query('UPDATE parent_access SET token_version = token_version + 1 WHERE phone = $1', [parent.phone]);
    const device = fake.createDevice();
    expect(
      (await subscribe(api.as('parent', parent), { endpoint: device.endpoint, keys: device.keys })).statusCode,
    ).toBe(401);
  });

  it('stores the subscription (201) with the device name', async () => {
    const parent = await parentWithToken(api, 'Meena Iyer');
    const device = await newDevice(parent);
    expect(await subscriptionsOf(parent.phone)).toEqual([
      {
        endpoint: device.endpoint,
        p256dh: device.keys.p256dh,
        auth: device.keys.auth,
        user_agent: 'Mozilla/5.0 (Linux; Android 14) Chrome/131',
      },
    ]);
  });

  it('answers 422 naming the field for bad keys or endpoints', async () => {
    const parent = await parentWithToken(api, 'Meena Iyer');
    const device = fake.createDevice();
    const cases: [unknown, string][] = [
      [{ endpoint: device.endpoint, keys: { ...device.keys, p256dh: 'short' } }, 'keys.p256dh:'],
      [{ endpoint: device.endpoint, keys: { ...device.keys, p256dh: `${device.keys.p256dh}!` } }, 'keys.p256dh:'],
      [{ endpoint: device.endpoint, keys: { ...device.keys, auth: 'x' } }, 'keys.auth:'],
      [{ endpoint: device.endpoint, keys: { p256dh: device.keys.p256dh } }, 'keys.auth:'],
      [{ endpoint: device.endpoint }, 'keys:'],
      [{ keys: device.keys }, 'endpoint:'],
      [{ endpoint: 'not a url', keys: device.keys }, 'endpoint: must be an https URL'],
      [{ endpoint: 'ftp://push.example/x', keys: device.keys }, 'endpoint: must be an https URL'],
      [{ endpoint: `https://push.example/${'x'.repeat(2100)}`, keys: device.keys }, 'endpoint: is too long'],
    ];
    for (const [body, detail] of cases) {
      const response = await subscribe(api.as('parent', parent), body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 120)).toBe(422);
      expect(detailOf(response)).toContain(detail);
    }
    expect(await subscriptionsOf(parent.phone)).toHaveLength(0);
  });

  it('refuses the loopback fake push service unless the test-only switch is on', async () => {
    const parent = await parentWithToken(api, 'Meena Iyer');
    const device = fake.createDevice();
    api.ctx.config.push.allowLoopbackEndpointsForTests = false;
    try {
      const response = await subscribe(api.as('parent', parent), { endpoint: device.endpoint, keys: device.keys });
      expect(response.statusCode).toBe(422);
      expect(detailOf(response)).toBe('endpoint: must be an https URL');
      const https = await subscribe(api.as('parent', parent), {
        endpoint: 'https://fcm.googleapis.com/fcm/send/abc:def',
        keys: device.keys,
      });
      expect(https.statusCode).toBe(201);
    } finally {
      api.ctx.config.push.allowLoopbackEndpointsForTests = true;
    }
    expect((await subscriptionsOf(parent.phone)).map((row) => row.endpoint)).toEqual([
      'https://fcm.googleapis.com/fcm/send/abc:def',
    ]);
  });

  it('updates the row when a device subscribes again, and moves it when another parent signs in on it', async () => {
    const first = await parentWithToken(api, 'Meena Iyer');
    const second = await parentWithToken(api, 'Meena Iyer');
    const device = await newDevice(first);
    const renewed = fake.createDevice();
    const again = await subscribe(api.as('parent', first), { endpoint: device.endpoint, keys: renewed.keys });
    expect(again.statusCode).toBe(201);
    expect(await subscriptionsOf(first.phone)).toMatchObject([{ endpoint: device.endpoint, ...renewed.keys }]);

    // A push still queued for the first parent must not reach the device once it is the second's.
    await api.db.query(
      `INSERT INTO messages (subject, message, recipient) VALUES ('Queued', 'for the first parent', $1)`,
      [first.phone],
    );
    await api.ctx.push.stop();
    try {
      await api.db.transaction(async (tx) => {
        const ids = await tx.query<{ id: number }>("SELECT id FROM messages WHERE subject = 'Queued'");
        await enqueuePushes(
          tx,
          ids.map((row) => row.id),
        );
      });
      expect(await outboxCount()).toBe(1);
      const moved = await subscribe(api.as('parent', second), { endpoint: device.endpoint, keys: device.keys });
      expect(moved.statusCode).toBe(201);
      expect(await outboxCount()).toBe(0);
    } finally {
      api.ctx.push.start();
    }
    expect(await subscriptionsOf(first.phone)).toHaveLength(0);
    expect(await subscriptionsOf(second.phone)).toMatchObject([{ endpoint: device.endpoint, ...device.keys }]);
  });

  it(`keeps the newest ${MAX_DEVICES_PER_PHONE} devices of a parent`, async () => {
    const parent = await parentWithToken(api, 'Meena Iyer');
    const devices: FakeDevice[] = [];
    for (let index = 0; index <= MAX_DEVICES_PER_PHONE; index += 1) devices.push(await newDevice(parent));
    const kept = (await subscriptionsOf(parent.phone)).map((row) => row.endpoint);
    expect(kept).toEqual(devices.slice(1).map((device) => device.endpoint));
  });

  it("deletes only the caller's own subscription", async () => {
    const owner = await parentWithToken(api, 'Meena Iyer');
    const other = await parentWithToken(api, 'Meena Iyer');
    const device = await newDevice(owner);

    // Another family's endpoint answers like an unknown one, and stays.
    const foreign = await unsubscribe(api.as('parent', other), device.endpoint);
    expect(foreign.statusCode).toBe(200);
    expect(await subscriptionsOf(owner.phone)).toHaveLength(1);

    const missing = await api.as('parent', owner).request('DELETE', '/api/v1/parent/push/subscriptions', {});
    expect(missing.statusCode).toBe(422);
    expect(detailOf(missing)).toContain('endpoint:');

    const own = await unsubscribe(api.as('parent', owner), device.endpoint);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ ok: true });
    expect(await subscriptionsOf(owner.phone)).toHaveLength(0);
    // Already gone (a new code, an expired device): turning notifications off still works.
    expect((await unsubscribe(api.as('parent', owner), device.endpoint)).statusCode).toBe(200);
  });
});

describe('delivery', () => {
  it('pushes each message to every device of its parent: VAPID-signed, aes128gcm, the PushPayload', async () => {
    const mother = await parentWithToken(api, 'Meena Iyer');
    const father = await parentWithToken(api, 'Meena Iyer');
    const phone = await newDevice(mother);
    const tablet = await newDevice(mother);
    const fatherPhone = await newDevice(father);
    const before = fake.received.length;

    await sendToAll('Fee reminder', 'Fees for December are due on Friday.');
    await waitFor('three pushes', () => fake.received.length - before >= 3 || undefined);
    await waitFor('an empty outbox', async () => (await outboxCount()) === 0 || undefined);

    const motherMessage = await messageFor(mother.phone, 'Fee reminder');
    const fatherMessage = await messageFor(father.phone, 'Fee reminder');
    for (const [device, message] of [
      [phone, motherMessage],
      [tablet, motherMessage],
      [fatherPhone, fatherMessage],
    ] as const) {
      const pushes = fake.receivedBy(device.endpoint);
      expect(pushes).toHaveLength(1);
      const push = pushes[0] as (typeof pushes)[number];
      const payload = pushPayloadSchema.parse(JSON.parse(push.plaintext));
      expect(JSON.parse(push.plaintext)).toEqual({
        message_id: message.id,
        title: 'Fee reminder',
        body: 'Fees for December are due on Friday.',
        sent_at: message.sent_at,
        receipt: payload.receipt,
      });
      expect(await api.ctx.tokens.verifyReceipt(payload.receipt)).toBe(message.id);
      // The receipt is not a parent or staff token.
      expect(await api.ctx.tokens.verifyParent(payload.receipt)).toBeUndefined();
      expect(push.vapidKey).toBe(api.ctx.push.publicKey);
      expect(push.jwt.sub).toBe('mailto:office@tuitiondesk.invalid');
      expect(push.jwt.aud).toBe(fake.origin);
      expect(push.headers['content-encoding']).toBe('aes128gcm');
      expect(Number(push.headers.ttl)).toBeGreaterThan(0);
      expect(push.headers.urgency).toBe('normal');
    }
    expect(fake.rejected).toEqual([]);
    expect(motherMessage.pushed_at).not.toBeNull();
    const stamped = await api.db.query<{ last_success_at: string | null }>(
      'SELECT last_success_at FROM push_subscriptions WHERE phone = $1',
      [mother.phone],
    );
    expect(stamped.every((row) => row.last_success_at !== null)).toBe(true);
    expect((await historyEntry(motherMessage.id))?.delivery_status).toBe('sent');

    // The service worker confirms with the receipt: the staff history shows `delivered`.
    const receipt = pushPayloadSchema.parse(JSON.parse(fake.receivedBy(phone.endpoint)[0]?.plaintext ?? '')).receipt;
    if (api.app.hasRoute({ method: 'POST', url: '/api/v1/parent/receipts' })) {
      const confirmed = await api.anonymous().post('/api/v1/parent/receipts', { receipt });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.json()).toMatchObject({ message_id: motherMessage.id, delivery_status: 'delivered' });
      expect((await historyEntry(motherMessage.id))?.delivery_status).toBe('delivered');
    }
  });

  it('queues nothing for parents without a device; the message stays in the inbox, `failed` for staff to call', async () => {
    const parent = await parentWithToken(api, 'Meena Iyer');
    const before = fake.received.length;
    await sendToAll('No devices', 'Only in the app.');
    const message = await messageFor(parent.phone, 'No devices');
    expect(await outboxCount()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.received.length).toBe(before);
    expect(message).toMatchObject({
      delivery_status: 'failed',
      failure_reason: 'No channel reaches this family: no parent app notifications and no WhatsApp opt-in.',
    });
  });

  it('cuts a long message so the encrypted push fits in 4096 bytes', async () => {
    const parent = await parentWithToken(api, 'Meena Iyer');
    const device = await newDevice(parent);
    const long = 'é'.repeat(4990);
    await sendToAll('Long letter', long);
    const push = await waitFor('the push', () => fake.receivedBy(device.endpoint)[0]);
    expect(push.bodyLength).toBeLessThanOrEqual(4096);
    const payload = pushPayloadSchema.parse(JSON.parse(push.plaintext));
    expect(payload.body.endsWith('…')).toBe(true);
    expect(long.startsWith(payload.body.slice(0, -1))).toBe(true);
    expect(payload.body.length).toBeGreaterThan(1500);
    expect(payload.title).toBe('Long letter');
  });

  it.each([410, 404])('removes a subscription the push service answers %i for', async (status) => {
    const parent = await parentWithToken(api, 'Meena Iyer');
    const gone = await newDevice(parent);
    const kept = await newDevice(parent);
    fake.behave(gone.endpoint, { status });
    await sendToAll(`Gone ${status}`, 'Anyone there?');
    await waitFor('the subscription removed', async () =>
      (await subscriptionsOf(parent.phone)).length === 1 ? true : undefined,
    );
    expect((await subscriptionsOf(parent.phone)).map((row) => row.endpoint)).toEqual([kept.endpoint]);
    await waitFor('the other device', () => fake.receivedBy(kept.endpoint)[0]);
    await waitFor('an empty outbox', async () => (await outboxCount()) === 0 || undefined);
    expect(fake.attempts.get(gone.endpoint)).toBe(1);
    expect((await messageFor(parent.phone, `Gone ${status}`)).delivery_status).toBe('sent');
    fake.behave(gone.endpoint, undefined);
  });

  it('retries a failing push service with backoff and then delivers once', async () => {
    const { parent, device } = await parentWithDevice({ status: 500, times: 2 });
    await sendToAll('Retried', 'Third time lucky.');
    const push = await waitFor('the push', () => fake.receivedBy(device.endpoint)[0]);
    expect(JSON.parse(push.plaintext)).toMatchObject({ title: 'Retried', body: 'Third time lucky.' });
    await waitFor('an empty outbox', async () => (await outboxCount()) === 0 || undefined);
    expect(fake.attempts.get(device.endpoint)).toBe(3);
    expect(fake.receivedBy(device.endpoint)).toHaveLength(1);
    const message = await messageFor(parent.phone, 'Retried');
    expect(message.delivery_status).toBe('sent');
    expect(message.pushed_at).not.toBeNull();
  });

  it('retries a push service that does not answer in time', async () => {
    const { parent, device } = await parentWithDevice('slow');
    api.ctx.config.push.requestTimeoutMs = 300;
    await sendToAll('Slow', 'Eventually.');
    const error = await waitFor('a timed-out attempt', async () => {
      const rows = await api.db.query<{ last_error: string | null }>('SELECT last_error FROM push_outbox');
      return rows[0]?.last_error ?? undefined;
    });
    // The outbox keeps the generic sentence; the timing detail goes to the log.
    expect(error).toBe(PUSH_FAILURES.unreachable);
    api.ctx.config.push.requestTimeoutMs = 3000;
    fake.behave(device.endpoint, undefined);
    await waitFor('the push', () => fake.receivedBy(device.endpoint)[0]);
    await waitFor('an empty outbox', async () => (await outboxCount()) === 0 || undefined);
    expect((await messageFor(parent.phone, 'Slow')).delivery_status).toBe('sent');
  });

  it('marks the message failed with the reason once every attempt failed', async () => {
    const { parent, device } = await parentWithDevice({ status: 503 });
    await sendToAll('Unlucky', 'This one will not arrive.');
    const message = await failedMessage(parent.phone, 'Unlucky');
    // A generic sentence: nothing the push service said (status, text) reaches staff.
    const reason = `The push service was busy or unavailable after ${MAX_ATTEMPTS} attempts.`;
    expect(message.failure_reason).toBe(reason);
    expect(fake.attempts.get(device.endpoint)).toBe(MAX_ATTEMPTS);
    expect(await outboxCount()).toBe(0);
    // The device stays subscribed: the service may recover for the next message.
    expect(await subscriptionsOf(parent.phone)).toHaveLength(1);
    expect(await historyEntry(message.id)).toMatchObject({ delivery_status: 'failed', failure_reason: reason });
    fake.behave(device.endpoint, undefined);
  });

  it('gives up at once when the push service says the push is too large (413)', async () => {
    const { parent, device } = await parentWithDevice({ status: 413 });
    await sendToAll('Refused', 'Too large, says the service.');
    const message = await failedMessage(parent.phone, 'Refused');
    expect(message.failure_reason).toBe(PUSH_FAILURES.refused);
    expect(fake.attempts.get(device.endpoint)).toBe(1);
    fake.behave(device.endpoint, undefined);
  });

  it('does not mark a message failed when another device of the parent got it', async () => {
    const parent = await parentWithToken(api, 'Meena Iyer');
    const broken = await newDevice(parent);
    const working = await newDevice(parent);
    fake.behave(broken.endpoint, { status: 502 });
    await sendToAll('Half', 'One of two devices.');
    await waitFor('the working device', () => fake.receivedBy(working.endpoint)[0]);
    await waitFor('the broken device given up', async () => (await outboxCount()) === 0 || undefined);
    expect(fake.attempts.get(broken.endpoint)).toBe(MAX_ATTEMPTS);
    const message = await messageFor(parent.phone, 'Half');
    expect(message).toMatchObject({ delivery_status: 'sent', failure_reason: null });
    fake.behave(broken.endpoint, undefined);
  });

  it('does not mark a message failed that the parent already opened', async () => {
    const { parent, device } = await parentWithDevice({ status: 503 });
    await api.ctx.push.stop();
    try {
      await sendToAll('Opened', 'Read in the app before the push got through.');
      const message = await messageFor(parent.phone, 'Opened');
      await api.db.query("UPDATE messages SET delivery_status = 'delivered', delivered_at = now() WHERE id = $1", [
        message.id,
      ]);
    } finally {
      api.ctx.push.start();
    }
    await waitFor('the outbox given up', async () =>
      (fake.attempts.get(device.endpoint) ?? 0) >= MAX_ATTEMPTS && (await outboxCount()) === 0 ? true : undefined,
    );
    expect(await messageFor(parent.phone, 'Opened')).toMatchObject({
      delivery_status: 'delivered',
      failure_reason: null,
    });
    fake.behave(device.endpoint, undefined);
  });

  it('waits for the sends in flight when stopped; the failed attempt is retried after a restart', async () => {
    const { device } = await parentWithDevice('slow');
    api.ctx.config.push.requestTimeoutMs = 300;
    await sendToAll('Stopping', 'In flight at shutdown.');
    await waitFor('the request in flight', () => fake.attempts.get(device.endpoint));
    const started = Date.now();
    await api.ctx.push.stop(2000);
    // The request times out (300 ms) inside the grace period and its retry is recorded.
    expect(Date.now() - started).toBeLessThan(1500);
    const rows = await api.db.query<{ attempts: number; last_error: string | null }>(
      'SELECT attempts, last_error FROM push_outbox',
    );
    expect(rows).toEqual([{ attempts: 1, last_error: PUSH_FAILURES.unreachable }]);
    api.ctx.config.push.requestTimeoutMs = 3000;
    fake.behave(device.endpoint, undefined);
    api.ctx.push.start();
    await waitFor('the push', () => fake.receivedBy(device.endpoint)[0]);
  });
});

describe('the fake push service checks what a real one checks', () => {
  async function post(device: FakeDevice, change: (request: webpush.RequestDetails) => void = () => {}) {
    const vapid = { subject: 'mailto:office@tuitiondesk.invalid', ...webpush.generateVAPIDKeys() };
    const request = webpush.generateRequestDetails(device, '{"hello":"world"}', {
      vapidDetails: vapid,
      TTL: 60,
      contentEncoding: 'aes128gcm',
    });
    change(request);
    const headers = Object.fromEntries(
      Object.entries(request.headers)
        .filter(([name]) => name !== 'Content-Length')
        .map(([name, value]) => [name, String(value)]),
    );
    const response = await fetch(device.endpoint, { method: 'POST', headers, body: request.body });
    return { status: response.status, reason: await response.text() };
  }

  it('accepts and decrypts a well-formed push', async () => {
    const device = fake.createDevice();
    expect((await post(device)).status).toBe(201);
    expect(fake.receivedBy(device.endpoint).map((push) => push.plaintext)).toEqual(['{"hello":"world"}']);
  });

  it('refuses a VAPID token that k does not verify, or made for another origin', async () => {
    const device = fake.createDevice();
    const otherKey = webpush.generateVAPIDKeys().publicKey;
    const forged = await post(device, (request) => {
      request.headers.Authorization = String(request.headers.Authorization).replace(/k=.*$/, `k=${otherKey}`);
    });
    expect(forged).toEqual({ status: 403, reason: 'VAPID: the signature does not verify with k' });
    const elsewhere = { ...device, endpoint: 'https://push.example.net/x' };
    const wrongAudience = await post(device, (request) => {
      const vapid = { subject: 'mailto:a@b.invalid', ...webpush.generateVAPIDKeys() };
      request.headers.Authorization = webpush.generateRequestDetails(elsewhere, 'x', { vapidDetails: vapid }).headers
        .Authorization as string;
    });
    expect(wrongAudience.status).toBe(403);
    expect(wrongAudience.reason).toBe(`VAPID: aud https://push.example.net is not ${fake.origin}`);
  });

  it('refuses a body it cannot decrypt with the device keys, or without the headers', async () => {
    const device = fake.createDevice();
    const tampered = await post(device, (request) => {
      const body = request.body as Buffer;
      body[body.length - 20] = (body[body.length - 20] as number) ^ 1;
    });
    expect(tampered.status).toBe(400);
    const stranger = fake.createDevice();
    const wrongKeys = await post({ ...device, keys: stranger.keys });
    expect(wrongKeys.status).toBe(400);
    const noTtl = await post(device, (request) => {
      delete (request.headers as Record<string, unknown>).TTL;
    });
    expect(noTtl).toEqual({ status: 400, reason: 'TTL header missing' });
    expect(fake.receivedBy(device.endpoint)).toEqual([]);
  });
});
