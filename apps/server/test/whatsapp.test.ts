import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWhatsappSender, WhatsappError } from '../src/modules/messages/whatsapp';
import { expectRefusal } from './helpers/answers';
import { type Caller, type TestClient, testClient, testClientForBlock } from './helpers/client';
import { detailOf, uniquePhone } from './helpers/test-app';

const ACCESS_TOKEN = 'test-access-token-7f3a9c';
const PHONE_NUMBER_ID = '1098765432';

/**
 * A stand-in for the WhatsApp Cloud API on loopback: checks the path and the bearer token, records
 * what it was sent, and answers as the Graph API does (or fails, or never answers, when told to).
 */
interface FakeCloudApi {
  baseUrl: string;
  requests: { path: string; authorization: string | undefined; contentType: string | undefined; body: unknown }[];
  mode: 'ok' | 'reject' | 'garbage' | 'hang';
  close: () => Promise<void>;
}

async function startFakeCloudApi(): Promise<FakeCloudApi> {
  const hanging: ServerResponse[] = [];
  const fake: FakeCloudApi = {
    baseUrl: '',
    requests: [],
    mode: 'ok',
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      raw += chunk;
    });
    request.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      fake.requests.push({
        path: request.url ?? '',
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        body,
      });
      if (request.method !== 'POST' || request.url !== `/v21.0/${PHONE_NUMBER_ID}/messages`) {
        answer(response, 404, { error: { message: 'Unknown path components', code: 2500 } });
        return;
      }
      if (request.headers.authorization !== `Bearer ${ACCESS_TOKEN}`) {
        answer(response, 401, {
          error: { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 },
        });
        return;
      }
      switch (fake.mode) {
        case 'hang':
          hanging.push(response);
          return;
        case 'reject':
          answer(response, 400, {
            error: { message: '(#131030) Recipient phone number not in allowed list', code: 131030 },
          });
          return;
        case 'garbage':
          answer(response, 500, '<html>Bad gateway</html>');
          return;
        default: {
          const to = (body as { to?: string }).to ?? '';
          answer(response, 200, {
            messaging_product: 'whatsapp',
            contacts: [{ input: to, wa_id: to }],
            messages: [{ id: `wamid.TEST${fake.requests.length}` }],
          });
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`;
  return fake;
}

/** A loopback port with nothing listening on it. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v21.0`;
}

let fake: FakeCloudApi;
let api: TestClient;
beforeAll(async () => {
  fake = await startFakeCloudApi();
  api = await testClient({
    config: { whatsapp: { baseUrl: fake.baseUrl, accessToken: ACCESS_TOKEN, phoneNumberId: PHONE_NUMBER_ID } },
  });
});
afterAll(async () => {
  await api?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.mode = 'ok';
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
    expect(body).toEqual({
      message: 'WhatsApp message sent',
      id: expect.any(Number),
      recipient: '+919876543210',
      delivery_status: 'sent',
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
      'a local number without a country code',
      { to: '9876543210', message: 'Hi' },
      422,
      /^to: must include the country code, e\.g\. \+919876543210$/,
    ],
    ['text that is not a phone', { to: 'call me', message: 'Hi' }, 422, /^to: must include the country code/],
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
    fake.mode = 'reject';
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
    fake.mode = 'garbage';
    const response = await sendWhatsapp(admin(), { to: '+447700900124', message: 'Hi' });
    expect(response.statusCode).toBe(502);
    expect(detailOf(response)).toBe('WhatsApp did not accept the message: WhatsApp answered with HTTP 500');
    expect((await whatsappRows()).at(-1)).toMatchObject({ delivery_status: 'failed' });
  });
});

describe('WhatsApp that cannot be reached', () => {
  const unreachable = testClientForBlock(async () => ({
    config: {
      whatsapp: { baseUrl: await closedPortUrl(), accessToken: ACCESS_TOKEN, phoneNumberId: PHONE_NUMBER_ID },
    },
  }));

  it('answers 502, stores the message as failed with the reason, and writes an activity', async () => {
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
  const config = () => ({ baseUrl: `${fake.baseUrl}/`, accessToken: ACCESS_TOKEN, phoneNumberId: PHONE_NUMBER_ID });

  it('answers the provider message id', async () => {
    const result = await createWhatsappSender(config()).send('+919876543210', 'Hello');
    expect(result.providerMessageId).toMatch(/^wamid\.TEST/);
    expect(fake.requests[0]?.path).toBe(`/v21.0/${PHONE_NUMBER_ID}/messages`);
  });

  it('throws the provider’s reason on a wrong token, without the token in it', async () => {
    const sender = createWhatsappSender({ ...config(), accessToken: 'wrong-token' });
    const error = await sender.send('+919876543210', 'Hello').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WhatsappError);
    expect((error as WhatsappError).message).toBe('Invalid OAuth access token - Cannot parse access token');
    expect((error as WhatsappError).isUnreachable).toBe(false);
    expect(JSON.stringify(error)).not.toContain('wrong-token');
  });

  it('gives up after its timeout with "WhatsApp could not be reached"', async () => {
    fake.mode = 'hang';
    const started = Date.now();
    const error = await createWhatsappSender(config(), { timeoutMs: 200 })
      .send('+919876543210', 'Hello')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WhatsappError);
    expect((error as WhatsappError).message).toBe('WhatsApp could not be reached');
    expect((error as WhatsappError).isUnreachable).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
