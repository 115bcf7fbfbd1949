import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { createWhatsappSender, WhatsappError } from '../src/modules/delivery/whatsapp';
import { expectRefusal } from './helpers/answers';
import { type Caller, type TestClient, testClient, testClientForBlock } from './helpers/client';
import { APPROVED_TEMPLATES, type FakeCloudApi, startFakeCloudApi } from './helpers/fake-cloud-api';
import { detailOf, uniquePhone } from './helpers/test-app';
import { postCallback, WHATSAPP_TEST, whatsappConfig } from './helpers/whatsapp';

/** A loopback port with nothing listening on it. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v21.0`;
}

const { accessToken: ACCESS_TOKEN, phoneNumberId: PHONE_NUMBER_ID } = WHATSAPP_TEST;
/** A phone that wrote to the centre, so free text may go to it for 24 hours. */
const WROTE_TO_US = '+919876543210';

let fake: FakeCloudApi;
let api: TestClient;
beforeAll(async () => {
  fake = await startFakeCloudApi({
    accessToken: ACCESS_TOKEN,
    phoneNumberId: PHONE_NUMBER_ID,
    appSecret: WHATSAPP_TEST.appSecret,
    templates: APPROVED_TEMPLATES,
    autoStatuses: false,
  });
  api = await testClient({ config: { whatsapp: whatsappConfig(fake.baseUrl) } });
  fake.deliver = async (body, signature) => (await postCallback(api.anonymous(), body, signature)).statusCode;
  for (const phone of [WROTE_TO_US, '+447700900123', '+447700900124']) {
    expect(await fake.postText(phone, 'Hello')).toBe(200);
  }
});
afterAll(async () => {
  await api?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.faults.length = 0;
  fake.requests.length = 0;
});

function sendWhatsapp(caller: Caller, payload: unknown) {
  return caller.post('/api/v1/communications/send-whatsapp', payload);
}

const admin = () => api.as('admin');

async function whatsappRows() {
  return api.db.query<Record<string, unknown>>("SELECT * FROM messages WHERE message_type = 'WHATSAPP' ORDER BY id");
}

async function activityRows() {
  return api.db.query<{ action: string; description: string }>(
    "SELECT action, description FROM activities WHERE action LIKE 'messages.whatsapp%' ORDER BY id",
  );
}

describe('POST /communications/send-whatsapp', () => {
  it('refuses a call without a token with 401', async () => {
    const response = await sendWhatsapp(api.anonymous(), { to: '+919876543210', message: 'Hi' });
    expect(response.statusCode).toBe(401);
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a teacher with 403 and sends nothing', async () => {
    const response = await sendWhatsapp(api.as('teacher'), { to: '+919876543210', message: 'Hi' });
    expect(response.statusCode).toBe(403);
    expect(detailOf(response)).toBe('You do not have permission to do this');
    expect(fake.requests).toHaveLength(0);
  });

  it('sends a text to a phone through the Cloud API, stores it as sent, and writes an activity', async () => {
    const response = await sendWhatsapp(admin(), { to: '+91 98765-43210', message: '  Results are out.  ' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    // The parent wrote in the last 24 hours: free text may go.
    expect(body).toEqual({
      message: 'WhatsApp message sent',
      id: expect.any(Number),
      recipient: '+919876543210',
      delivery_status: 'sent',
      sent_as: 'text',
    });

    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toEqual({
      path: `/v21.0/${PHONE_NUMBER_ID}/messages`,
      authorization: `Bearer ${ACCESS_TOKEN}`,
      contentType: 'application/json',
      body: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '919876543210',
        type: 'text',
        text: { preview_url: false, body: 'Results are out.' },
      },
    });

    const rows = await whatsappRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'whatsapp',
      id: body.id,
      message_type: 'WHATSAPP',
      subject: 'WhatsApp message',
      message: 'Results are out.',
      recipient: '+919876543210',
      recipient_name: null,
      delivery_status: 'sent',
      failure_reason: null,
      sent_by: 'Administrator',
    });
    const activities = await activityRows();
    expect(activities.at(-1)).toEqual({
      action: 'messages.whatsapp_sent',
      description: 'Administrator sent a WhatsApp message to +919876543210',
    });

    const history = await admin().get('/api/v1/communications/history');
    expect(history.json()[0]).toMatchObject({ id: body.id, message_type: 'WHATSAPP', delivery_status: 'sent' });
  });

  it('sends to the parent of a student named in `to` by unique id (any case)', async () => {
    const student = await api.student({
      full_name: 'Neha Joshi',
      parent_name: 'Anil Joshi',
      parent_whatsapp_opt_in: true,
    });
    const response = await sendWhatsapp(admin(), { to: student.unique_id.toLowerCase(), message: 'Hello' });
    expect(response.statusCode).toBe(200);
    expect(response.json().recipient).toBe(student.parent_phone);
    expect((fake.requests[0]?.body as { to?: string } | undefined)?.to).toBe(student.parent_phone.slice(1));
    const rows = await whatsappRows();
    expect(rows.at(-1)).toMatchObject({ recipient: student.parent_phone, recipient_name: 'Anil Joshi' });
  });

  it('sends to the parent of a student named by student_id, as a number or a unique id', async () => {
    const student = await api.student({
      full_name: 'Kabir Singh',
      parent_name: 'Harpreet Singh',
      parent_whatsapp_opt_in: true,
    });
    for (const studentId of [student.id, String(student.id), student.unique_id]) {
      const response = await sendWhatsapp(admin(), { student_id: studentId, message: 'Fees due' });
      expect(response.statusCode).toBe(200);
      expect(response.json().recipient).toBe(student.parent_phone);
    }
    expect(fake.requests).toHaveLength(3);
  });

  it('sends to an explicit phone when both a phone and a student are given, naming the student’s parent', async () => {
    const student = await api.student({ full_name: 'Ira Das', parent_name: 'Sima Das' });
    const phone = uniquePhone();
    await fake.postText(phone, 'Please message me here');
    const response = await sendWhatsapp(admin(), { to: phone, student_id: student.id, message: 'Hi' });
    expect(response.statusCode).toBe(200);
    expect(response.json().recipient).toBe(phone);
    expect((await whatsappRows()).at(-1)).toMatchObject({ recipient: phone, recipient_name: 'Sima Das' });
  });

  it.each([
    ['an unknown student id', { student_id: 999_999, message: 'Hi' }, 404, 'Student 999999 was not found'],
    ['an unknown student unique id in `to`', { to: 'STU9999', message: 'Hi' }, 404, 'Student STU9999 was not found'],
    ['an unknown student unique id', { student_id: 'STU8888', message: 'Hi' }, 404, 'Student STU8888 was not found'],
    [
      'an id beyond any row',
      { student_id: '99999999999999', message: 'Hi' },
      404,
      'Student 99999999999999 was not found',
    ],
    [
      'a local number one digit short',
      { to: '987654321', message: 'Hi' },
      422,
      /^to: Enter the phone number with 10 digits \(this one has 9\), or with its country code, e\.g\. \+91 98123 45670$/,
    ],
    ['text that is not a phone', { to: 'call me', message: 'Hi' }, 422, /^to: Enter the phone number with 10 digits/],
    ['neither a phone nor a student', { message: 'Hi' }, 422, /^to: must name a phone number or a student id$/],
    ['a blank message', { to: '+919876543210', message: '   ' }, 422, /^message: must not be empty$/],
    ['a missing message', { to: '+919876543210' }, 422, /^message: /],
    ['a message over 4096 characters', { to: '+919876543210', message: 'x'.repeat(4097) }, 422, /^message: .*4096/],
    ['a negative student id', { student_id: -3, message: 'Hi' }, 422, /^student_id: /],
  ])('refuses %s with %i, sends nothing and stores nothing', async (_name, payload, status, detail) => {
    const before = (await whatsappRows()).length;
    const response = await sendWhatsapp(admin(), payload);
    expectRefusal(response, status, detail);
    expect(fake.requests).toHaveLength(0);
    expect(await whatsappRows()).toHaveLength(before);
  });

  it('answers 502 with the provider’s reason when WhatsApp refuses, and stores the message as failed', async () => {
    fake.faults.push({
      kind: 'refuse',
      status: 400,
      code: 131030,
      message: '(#131030) Recipient phone number not in allowed list',
    });
    const response = await sendWhatsapp(admin(), { to: '+447700900123', message: 'Hi' });
    expect(response.statusCode).toBe(502);
    expect(detailOf(response)).toBe(
      'WhatsApp did not accept the message: (#131030) Recipient phone number not in allowed list',
    );
    expect(fake.requests).toHaveLength(1);
    expect((await whatsappRows()).at(-1)).toMatchObject({
      recipient: '+447700900123',
      delivery_status: 'failed',
      failure_reason: '(#131030) Recipient phone number not in allowed list',
    });
    expect((await activityRows()).at(-1)).toEqual({
      action: 'messages.whatsapp_failed',
      description:
        'Administrator could not send a WhatsApp message to +447700900123: (#131030) Recipient phone number not in allowed list',
    });
    const history = await admin().get('/api/v1/communications/history');
    expect(history.json()[0]).toMatchObject({
      delivery_status: 'failed',
      failure_reason: '(#131030) Recipient phone number not in allowed list',
    });
  });

  it('answers 502 naming the HTTP status when WhatsApp answers something that is not the Graph API', async () => {
    fake.faults.push({ kind: 'garbage' });
    const response = await sendWhatsapp(admin(), { to: '+447700900124', message: 'Hi' });
    expect(response.statusCode).toBe(502);
    expect(detailOf(response)).toBe('WhatsApp did not accept the message: WhatsApp answered with HTTP 500');
    expect((await whatsappRows()).at(-1)).toMatchObject({ delivery_status: 'failed' });
  });
});

describe('WhatsApp that cannot be reached', () => {
  const unreachable = testClientForBlock(async () => ({
    config: { whatsapp: whatsappConfig(await closedPortUrl()) },
  }));

  it('answers 502, stores the message as failed with the reason, and writes an activity', async () => {
    await unreachable().student({ parent_phone: '+919812345678', parent_whatsapp_opt_in: true });
    const response = await sendWhatsapp(unreachable().as('admin'), { to: '+919812345678', message: 'Hi' });
    expect(response.statusCode).toBe(502);
    expect(detailOf(response)).toBe(
      'WhatsApp could not be reached, so the message was not sent. Please try again later.',
    );
    const rows = await unreachable().db.query<Record<string, unknown>>('SELECT * FROM messages');
    expect(rows).toEqual([
      expect.objectContaining({
        message_type: 'WHATSAPP',
        recipient: '+919812345678',
        delivery_status: 'failed',
        failure_reason: 'WhatsApp could not be reached',
      }),
    ]);
    const activities = await unreachable().db.query<{ action: string }>(
      "SELECT action FROM activities WHERE action LIKE 'messages.%'",
    );
    expect(activities).toEqual([{ action: 'messages.whatsapp_failed' }]);
  });
});

describe('WhatsApp not configured', () => {
  const unconfigured = testClientForBlock();

  it.each([
    ['a valid body', { to: '+919876543210', message: 'Hi' }],
    ['any body at all', {}],
  ])('answers 503 for %s and stores nothing', async (_name, payload) => {
    const response = await sendWhatsapp(unconfigured().as('admin'), payload);
    expect(response.statusCode).toBe(503);
    expect(detailOf(response)).toBe('WhatsApp is not configured');
    expect(await unconfigured().db.query('SELECT id FROM messages')).toEqual([]);
  });

  it('still refuses a teacher with 403', async () => {
    const response = await sendWhatsapp(unconfigured().as('teacher'), { to: '+919876543210', message: 'Hi' });
    expect(response.statusCode).toBe(403);
  });
});

describe('createWhatsappSender', () => {
  const config = () => whatsappConfig(`${fake.baseUrl}/`);
  const text = { kind: 'text', to: '+919876543210', body: 'Hello' } as const;

  it('answers the provider message id', async () => {
    const result = await createWhatsappSender(config()).send(text);
    expect(result.providerMessageId).toMatch(/^wamid\./);
    expect(fake.requests[0]?.path).toBe(`/v21.0/${PHONE_NUMBER_ID}/messages`);
  });

  it('throws the provider’s reason on a wrong token, without the token in it', async () => {
    const sender = createWhatsappSender({ ...config(), accessToken: 'wrong-token' });
    const error = await sender.send(text).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WhatsappError);
    expect((error as WhatsappError).message).toBe('Invalid OAuth access token - Cannot parse access token');
    expect((error as WhatsappError).isUnreachable).toBe(false);
    expect(JSON.stringify(error)).not.toContain('wrong-token');
  });

  it('gives up after its timeout with "WhatsApp could not be reached"', async () => {
    fake.faults.push({ kind: 'hang' });
    const started = Date.now();
    const error = await createWhatsappSender(config(), { timeoutMs: 200 })
      .send(text)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WhatsappError);
    expect((error as WhatsappError).message).toBe('WhatsApp could not be reached');
    expect((error as WhatsappError).isUnreachable).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('the WhatsApp settings, checked at start', () => {
  const all = {
    WHATSAPP_ACCESS_TOKEN: 'EAAtoken',
    WHATSAPP_PHONE_NUMBER_ID: '1098765432',
    WHATSAPP_BUSINESS_ACCOUNT_ID: '2233445566',
    WHATSAPP_APP_SECRET: 'app-secret',
    WHATSAPP_VERIFY_TOKEN: 'a-verify-token-of-16+',
  };

  it('turns WhatsApp on with all five, and leaves it off with none', () => {
    expect(loadConfig(all).whatsapp).toMatchObject({
      phoneNumberId: '1098765432',
      businessAccountId: '2233445566',
      dailyLimit: 250,
      messagesPerSecond: 80,
      baseUrl: 'https://graph.facebook.com/v21.0',
    });
    expect(loadConfig({}).whatsapp).toBeUndefined();
  });

  it('stops the server on a partial set, naming what is missing', () => {
    const { WHATSAPP_APP_SECRET: _secret, WHATSAPP_VERIFY_TOKEN: _token, ...partial } = all;
    expect(() => loadConfig(partial)).toThrow(
      new ConfigError(
        'Invalid configuration:\n  WhatsApp needs WHATSAPP_ACCESS_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_BUSINESS_ACCOUNT_ID, WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN set together; missing: WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN',
      ),
    );
  });

  it.each([
    [
      'a phone number id that is not digits',
      { WHATSAPP_PHONE_NUMBER_ID: '+1 555' },
      /WHATSAPP_PHONE_NUMBER_ID: must be the digits/,
    ],
    [
      'a short verify token',
      { WHATSAPP_VERIFY_TOKEN: 'short' },
      /WHATSAPP_VERIFY_TOKEN: must be at least 16 characters/,
    ],
    ['a daily limit of 0', { WHATSAPP_DAILY_LIMIT: '0' }, /WHATSAPP_DAILY_LIMIT/],
  ])('refuses %s', (_name, change, message) => {
    expect(() => loadConfig({ ...all, ...change })).toThrow(message);
  });
});
