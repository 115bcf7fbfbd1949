/**
 * Connecting WhatsApp from the console (ADR 045): the real adapter against the fake Cloud API, which
 * checks each Graph read as Meta does (bearer token, API version, appsecret_proof, the account's id,
 * fields) and refuses as Meta does. Connect → send works without a restart; the secrets go to the key
 * file, never a GET answer, the database or a backup; the variables of the server win.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readKeyFile } from '../src/lib/server-keys';
import { startWhatsapp } from '../src/modules/delivery';
import { backupToFile, linesOf } from './helpers/backup-files';
import { type TestClient, testClient } from './helpers/client';
import { APPROVED_TEMPLATES, type FakeCloudApi, startFakeCloudApi } from './helpers/fake-cloud-api';
import { scratchSpace } from './helpers/scratch';
import { detailOf } from './helpers/test-app';
import { metaSignature, postCallback, WHATSAPP_TEST, whatsappConfig } from './helpers/whatsapp';

const { tempDir } = scratchSpace('tuitiondesk-whatsapp-setup');
const APP_SECRET = '0123456789abcdef0123456789abcdef';
const VALUES = {
  access_token: WHATSAPP_TEST.accessToken,
  phone_number_id: WHATSAPP_TEST.phoneNumberId,
  business_account_id: WHATSAPP_TEST.businessAccountId,
  app_secret: APP_SECRET,
};
const SECRETS = [WHATSAPP_TEST.accessToken, APP_SECRET];

let fake: FakeCloudApi;
let api: TestClient;
let keyFile: string;
const logs: string[] = [];
beforeAll(async () => {
  fake = await startFakeCloudApi({
    accessToken: WHATSAPP_TEST.accessToken,
    phoneNumberId: WHATSAPP_TEST.phoneNumberId,
    appSecret: APP_SECRET,
    templates: { ...APPROVED_TEMPLATES, hello_world: { languages: ['en_US'], parameters: 0, buttons: 0 } },
    autoStatuses: false,
  });
  keyFile = path.join(tempDir(), 'server-keys.json');
  api = await testClient({
    config: {
      keyFile,
      whatsappApi: { baseUrl: fake.baseUrl, dailyLimit: 250, messagesPerSecond: 1000, timeoutMs: 3000 },
    },
  });
  fake.deliver = async (body, signature) => (await postCallback(api.anonymous(), body, signature)).statusCode;
  const log = (_: object, message: string) => void logs.push(message);
  startWhatsapp(api.ctx, { info: log, warn: log, error: log });
});
afterAll(async () => {
  await api.ctx.whatsappWorker?.stop(1000);
  await api?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.faults.length = 0;
  fake.requests.length = 0;
});

const admin = () => api.as('admin');
const connect = (values: object = VALUES) => admin().put('/api/v1/settings/whatsapp', values);
const status = () => admin().get('/api/v1/settings/whatsapp');
const settingsRows = () =>
  api.db.query<{ key: string; value: string }>(
    "SELECT key, value FROM settings WHERE key IN ('whatsapp_phone_number_id', 'whatsapp_business_account_id', 'whatsapp_connected_at', 'whatsapp_daily_limit')",
  );

describe('before connecting', () => {
  it('is admin only', async () => {
    expect((await api.as('teacher').get('/api/v1/settings/whatsapp')).statusCode).toBe(403);
    expect((await api.as('teacher').put('/api/v1/settings/whatsapp', VALUES)).statusCode).toBe(403);
  });

  it('shows the webhook address and a verify token kept in the key file, and that WhatsApp is off', async () => {
    const answer = (await status()).json();
    expect(answer).toMatchObject({ connected: false, source: null, fixed_by_server: false, live: null });
    expect(answer.webhook_url).toBe('http://localhost:80/api/v1/whatsapp/webhook');
    const named = await admin().get('/api/v1/settings/whatsapp', { headers: { host: 'centre.example.com' } });
    expect(named.json().webhook_url).toBe('http://centre.example.com/api/v1/whatsapp/webhook');
    expect(answer.verify_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(readKeyFile(keyFile)?.whatsapp?.verifyToken).toBe(answer.verify_token);
    expect((await status()).json().verify_token).toBe(answer.verify_token);
    expect((await admin().post('/api/v1/settings/whatsapp/test', { to: '+919812345670' })).statusCode).toBe(503);
  });

  it('answers Meta’s verification handshake only once connected (the token is what Meta was given)', async () => {
    const token = (await status()).json().verify_token;
    const handshake = `/api/v1/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=12345`;
    expect((await api.anonymous().get(handshake)).statusCode).toBe(403);
  });
});

describe('Meta refuses: a 422 naming the field, in an owner’s words, and nothing kept', () => {
  const cases: [string, () => void, object, string, RegExp][] = [
    [
      'an expired token',
      () => fake.graph.expiredTokens.add('EAAexpired-token-000000000'),
      { access_token: 'EAAexpired-token-000000000' },
      'access_token',
      /has expired: make a new one in Meta's Business settings/,
    ],
    [
      'a token Meta does not know',
      () => {},
      { access_token: 'EAAunknown-token-0000000000' },
      'access_token',
      /Meta does not accept this access token/,
    ],
    [
      'a token without the permissions',
      () => fake.graph.unpermittedTokens.add('EAAno-permission-000000000'),
      { access_token: 'EAAno-permission-000000000' },
      'access_token',
      /whatsapp_business_management/,
    ],
    [
      'another app’s secret',
      () => {},
      { app_secret: 'ffffffffffffffffffffffffffffffff' },
      'app_secret',
      /not the app secret of the Meta app/,
    ],
    [
      'an account the token cannot see',
      () => {},
      { business_account_id: '99999999' },
      'business_account_id',
      /no WhatsApp Business Account with this id/,
    ],
    [
      'a number of another account',
      () => {},
      { phone_number_id: '777777777' },
      'phone_number_id',
      /not one of the business account's numbers \(\+91 80 4000 1111: 1098765432/,
    ],
  ];
  it.each(cases)('%s', async (_, prepare, change, field, words) => {
    prepare();
    const response = await connect({ ...VALUES, ...change });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toMatch(/^validation\.whatsapp_/);
    expect(detailOf(response)).toMatch(new RegExp(`^${field}: `));
    expect(detailOf(response)).toMatch(words);
    expect(await settingsRows()).toEqual([]);
    expect(readKeyFile(keyFile)?.whatsapp?.accessToken).toBeUndefined();
    expect(api.ctx.whatsapp).toBeUndefined();
  });

  it('checks the shape first: a short token or a secret that is not 32 hex is refused before asking Meta', async () => {
    const response = await connect({ ...VALUES, app_secret: 'secret' });
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toMatch(/^app_secret: /);
    expect(fake.requests).toHaveLength(0);
  });

  it('Meta unreachable, slow or answering garbage: 503 or 502 that says nothing was saved', async () => {
    fake.faults.push({ kind: 'slow', ms: 6000 });
    const slow = await connect();
    expect(slow.statusCode).toBe(503);
    expect(detailOf(slow)).toBe(
      "Meta's WhatsApp service could not be reached, so nothing was saved. Check the server's internet connection and try again.",
    );
    fake.faults.push({ kind: 'reset' });
    expect((await connect()).statusCode).toBe(503);
    fake.faults.push({ kind: 'garbage' });
    const garbage = await connect();
    expect(garbage.statusCode).toBe(502);
    expect(detailOf(garbage)).toMatch(/did not answer as expected \(HTTP 502\), so nothing was saved/);
    expect(await settingsRows()).toEqual([]);
    expect(api.ctx.whatsapp).toBeUndefined();
  });
});

describe('connected', () => {
  beforeAll(async () => {
    const [first, second] = await Promise.all([connect(), connect()]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
  });

  it('checked each read as Meta does: version, bearer token, appsecret_proof, fields', async () => {
    await status();
    const reads = fake.requests.filter((r) => r.body === undefined);
    expect(reads.map((r) => new URL(r.path, 'http://x').pathname)).toEqual([
      '/v21.0/2233445566/phone_numbers',
      '/v21.0/2233445566/message_templates',
    ]);
    for (const read of reads) {
      expect(read.authorization).toBe(`Bearer ${WHATSAPP_TEST.accessToken}`);
      expect(new URL(read.path, 'http://x').searchParams.get('appsecret_proof')).toMatch(/^[0-9a-f]{64}$/);
      expect(read.path).not.toContain(WHATSAPP_TEST.accessToken);
    }
  });

  it('answers the live status, and never a secret', async () => {
    const response = await status();
    const answer = response.json();
    expect(answer).toMatchObject({
      connected: true,
      source: 'console',
      fixed_by_server: false,
      phone_number_id: WHATSAPP_TEST.phoneNumberId,
      business_account_id: WHATSAPP_TEST.businessAccountId,
      access_token_set: true,
      app_secret_set: true,
      live_problem: null,
      live: {
        display_phone_number: '+91 80 4000 1111',
        quality_rating: 'GREEN',
        messaging_limit_tier: 'TIER_1K',
        daily_limit: 1000,
        approved_templates: 4,
      },
    });
    expect(answer.live.templates).toContainEqual({
      name: 'fees_due',
      language: 'en',
      status: 'REJECTED',
      category: 'MARKETING',
    });
    for (const secret of SECRETS) expect(response.body).not.toContain(secret);
    expect(api.ctx.config.whatsapp?.dailyLimit).toBe(1000);
  });

  it('keeps the secrets in the key file and only the ids in the database (two connects left one of each)', async () => {
    expect(readKeyFile(keyFile)?.whatsapp).toMatchObject({
      accessToken: WHATSAPP_TEST.accessToken,
      appSecret: APP_SECRET,
    });
    const rows = await settingsRows();
    expect(rows.map((row) => row.key).sort()).toEqual([
      'whatsapp_business_account_id',
      'whatsapp_connected_at',
      'whatsapp_daily_limit',
      'whatsapp_phone_number_id',
    ]);
    const activities = await api.db.query<{ description: string }>(
      "SELECT description FROM activities WHERE description LIKE '%connected WhatsApp%'",
    );
    expect(activities).toHaveLength(2);
    const audit = await api.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_log WHERE entity = 'settings' AND after::text LIKE '%whatsapp_phone_number_id%'",
    );
    expect(audit[0]?.n).toBeGreaterThan(0);
    const everything = JSON.stringify(await api.db.query('SELECT * FROM audit_log'));
    for (const secret of SECRETS) expect(everything).not.toContain(secret);
  });

  it('a backup holds no secret of WhatsApp', async () => {
    const file = await backupToFile(tempDir(), api.db);
    const text = linesOf(file).join('\n');
    expect(text).toContain('whatsapp_phone_number_id');
    for (const secret of [...SECRETS, readKeyFile(keyFile)?.whatsapp?.verifyToken as string]) {
      expect(text).not.toContain(secret);
    }
    expect(readFileSync(file).includes(Buffer.from(WHATSAPP_TEST.accessToken))).toBe(false);
  });

  it('sends without a restart: a text from the messages route and a test template', async () => {
    expect(await fake.postText('+919876543210', 'Hello')).toBe(200);
    const sent = await admin().post('/api/v1/communications/send-whatsapp', { to: '+919876543210', message: 'Hi' });
    expect(sent.statusCode).toBe(200);
    expect(fake.accepted.at(-1)).toMatchObject({ type: 'text', to: '919876543210' });
    const test = await admin().post('/api/v1/settings/whatsapp/test', { to: '+91 98123 45670' });
    expect(test.statusCode).toBe(200);
    expect(test.json()).toMatchObject({ to: '+919812345670', template: 'hello_world', language: 'en_US' });
    expect(fake.accepted.at(-1)).toMatchObject({ template: 'hello_world', to: '919812345670' });
    const notice = await admin().post('/api/v1/settings/whatsapp/test', {
      to: '+919812345670',
      template: 'tuitiondesk_notice',
    });
    expect(notice.statusCode).toBe(200);
    expect(fake.accepted.at(-1)?.parameters).toHaveLength(3);
    const pending = await admin().post('/api/v1/settings/whatsapp/test', {
      to: '+919812345670',
      template: 'tuitiondesk_absence_alert',
    });
    expect(pending.statusCode).toBe(422);
    expect(detailOf(pending)).toMatch(/^template: tuitiondesk_absence_alert is not an approved template/);
    expect(api.ctx.whatsappWorker?.isRunning).toBe(true);
  });

  it('answers the handshake with the generated token, takes signed callbacks and shows when the last came', async () => {
    const token = (await status()).json().verify_token;
    const ok = await api
      .anonymous()
      .get(`/api/v1/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=4242`);
    expect([ok.statusCode, ok.body]).toEqual([200, '4242']);
    const before = Date.now();
    expect(await fake.postText('+919876543211', 'Hi')).toBe(200);
    const last = (await status()).json().last_callback_at;
    expect(Date.parse(last)).toBeGreaterThanOrEqual(before - 1000);
    const body = '{"object":"whatsapp_business_account","entry":[]}';
    expect((await postCallback(api.anonymous(), body, metaSignature(body, 'wrong'))).statusCode).toBe(401);
  });

  it('a token that expired since shows as the live problem, in the same words', async () => {
    fake.graph.expiredTokens.add(WHATSAPP_TEST.accessToken);
    try {
      const answer = (await status()).json();
      expect(answer.connected).toBe(true);
      expect(answer.live).toBeNull();
      expect(answer.live_problem).toMatch(/^access_token: The access token has expired/);
    } finally {
      fake.graph.expiredTokens.delete(WHATSAPP_TEST.accessToken);
    }
  });

  it('no secret reached a log line', () => {
    for (const secret of SECRETS) expect(logs.join('\n')).not.toContain(secret);
  });

  it('disconnects: WhatsApp is off at once, the verify token stays for the next connect', async () => {
    const token = readKeyFile(keyFile)?.whatsapp?.verifyToken;
    const response = await admin().delete('/api/v1/settings/whatsapp');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ connected: false, verify_token: token });
    expect(api.ctx.whatsapp).toBeUndefined();
    expect(readKeyFile(keyFile)?.whatsapp).toEqual({ verifyToken: token });
    expect(await settingsRows()).toEqual([]);
    const send = await admin().post('/api/v1/communications/send-whatsapp', { to: '+919876543210', message: 'Hi' });
    expect([send.statusCode, detailOf(send)]).toEqual([503, 'WhatsApp is not configured']);
  });
});

describe('the server’s variables win', () => {
  let envApi: TestClient;
  beforeAll(async () => {
    envApi = await testClient({
      config: { keyFile: path.join(tempDir(), 'keys.json'), whatsapp: whatsappConfig(fake.baseUrl) },
    });
  });
  afterAll(async () => envApi?.close());

  it('shows them as fixed, with the secrets only as set, and refuses a connect or a disconnect', async () => {
    const response = await envApi.as('admin').get('/api/v1/settings/whatsapp');
    expect(response.json()).toMatchObject({
      connected: true,
      source: 'environment',
      fixed_by_server: true,
      access_token_set: true,
      app_secret_set: true,
      verify_token: null,
    });
    for (const secret of [WHATSAPP_TEST.accessToken, WHATSAPP_TEST.appSecret, WHATSAPP_TEST.verifyToken]) {
      expect(response.body).not.toContain(secret);
    }
    const put = await envApi.as('admin').put('/api/v1/settings/whatsapp', VALUES);
    expect(put.statusCode).toBe(409);
    expect(detailOf(put)).toMatch(/^WhatsApp is set by the server's WHATSAPP_\* variables/);
    expect((await envApi.as('admin').delete('/api/v1/settings/whatsapp')).statusCode).toBe(409);
    expect(envApi.ctx.config.whatsapp?.accessToken).toBe(WHATSAPP_TEST.accessToken);
  });
});
