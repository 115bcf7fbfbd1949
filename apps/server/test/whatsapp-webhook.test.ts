import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { storeProviderMessageId, storeProviderMessageIds } from '../src/modules/messages/whatsapp-repository';
import { expectRefusal } from './helpers/answers';
import { type Caller, callerOf, type TestClient, testClient } from './helpers/client';
import { checkIntegrity } from './helpers/integrity';
import { uniquePhone } from './helpers/test-app';
import {
  buttonFrom,
  callbackOf,
  metaSignature,
  postCallback,
  statusOf,
  textFrom,
  WHATSAPP_TEST,
  whatsappConfig,
} from './helpers/whatsapp';

let api: TestClient;
beforeAll(async () => {
  // Nothing is sent in this file: the Cloud API address only has to exist in the settings.
  api = await testClient({ config: { whatsapp: whatsappConfig('http://127.0.0.1:9/v21.0') } });
});
afterAll(async () => {
  await api?.close();
});

let wamidCounter = 0;
/** A message to `phone` that went out on WhatsApp as a template and was accepted (status sent). */
async function sentOnWhatsapp(phone: string, kind = 'notice'): Promise<{ messageId: number; wamid: string }> {
  wamidCounter += 1;
  const wamid = `wamid.HBgM${Date.now()}${wamidCounter}`;
  const [message] = await api.db.query<{ id: number }>(
    `INSERT INTO messages (message_type, kind, subject, message, recipient, sent_by, delivery_status)
     VALUES ('WHATSAPP', $2, 'Notice', 'Body', $1, 'Admin', 'queued') RETURNING id`,
    [phone, kind],
  );
  const messageId = (message as { id: number }).id;
  await api.db.query(
    `INSERT INTO message_attempts (message_id, channel, whatsapp_template, whatsapp_language, whatsapp_parameters, tries)
     VALUES ($1, 'whatsapp', 'tuitiondesk_notice', 'en', '["a","b","c"]', 1)`,
    [messageId],
  );
  await storeProviderMessageId(api.db, { messageId, channel: 'whatsapp' }, wamid);
  return { messageId, wamid };
}

async function messageRow(id: number) {
  const [row] = await api.db.query<{
    delivery_status: string;
    message_type: string;
    failure_reason: string | null;
    delivered_at: string | null;
  }>('SELECT delivery_status, message_type, failure_reason, delivered_at FROM messages WHERE id = $1', [id]);
  return row;
}

async function attemptRow(messageId: number) {
  const [row] = await api.db.query<{
    status: string;
    error_code: number | null;
    failure_reason: string | null;
    delivered_at: string | null;
    read_at: string | null;
  }>(
    `SELECT status, error_code, failure_reason, delivered_at, read_at FROM message_attempts
      WHERE message_id = $1 AND channel = 'whatsapp'`,
    [messageId],
  );
  return row;
}

describe('GET /whatsapp/webhook (verification handshake)', () => {
  const url = (query: Record<string, string>) => `/api/v1/whatsapp/webhook?${new URLSearchParams(query)}`;

  it('echoes the challenge as plain text when the verify token matches', async () => {
    const response = await api
      .anonymous()
      .get(
        url({ 'hub.mode': 'subscribe', 'hub.verify_token': WHATSAPP_TEST.verifyToken, 'hub.challenge': '1158201444' }),
      );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toBe('1158201444');
  });

  it.each([
    ['a wrong token', { 'hub.mode': 'subscribe', 'hub.verify_token': 'guess', 'hub.challenge': '1' }],
    [
      'a token one character short',
      { 'hub.mode': 'subscribe', 'hub.verify_token': WHATSAPP_TEST.verifyToken.slice(0, -1), 'hub.challenge': '1' },
    ],
    [
      'another mode',
      { 'hub.mode': 'unsubscribe', 'hub.verify_token': WHATSAPP_TEST.verifyToken, 'hub.challenge': '1' },
    ],
    ['no token', { 'hub.mode': 'subscribe', 'hub.challenge': '1' }],
    [
      'a challenge that is markup',
      { 'hub.mode': 'subscribe', 'hub.verify_token': WHATSAPP_TEST.verifyToken, 'hub.challenge': '<script>' },
    ],
  ])('answers 403 to %s', async (_name, query) => {
    const response = await api.anonymous().get(url(query));
    expectRefusal(response, 403, 'The webhook verification token does not match');
  });

  it('answers 403 when WhatsApp is not configured', async () => {
    const off = await testClient();
    try {
      const response = await off
        .anonymous()
        .get(url({ 'hub.mode': 'subscribe', 'hub.verify_token': WHATSAPP_TEST.verifyToken, 'hub.challenge': '1' }));
      expect(response.statusCode).toBe(403);
    } finally {
      await off.close();
    }
  });
});

describe('POST /whatsapp/webhook (signed callbacks)', () => {
  it.each([
    ['no signature', null],
    ['a signature with another secret', metaSignature('x', 'not-the-app-secret')],
    ['a signature that is not hex', 'sha256=zz'],
    ['a signature without its prefix', metaSignature('x').slice('sha256='.length)],
  ])('refuses a callback with %s with 401 and stores nothing', async (_name, signature) => {
    const phone = uniquePhone();
    const { messageId, wamid } = await sentOnWhatsapp(phone);
    const body = callbackOf({ statuses: [statusOf(wamid, 'delivered', phone)], messages: [textFrom(phone, 'Hi')] });
    const response = await postCallback(api.anonymous(), body, signature === null ? null : signature);
    expectRefusal(response, 401, 'The callback signature (X-Hub-Signature-256) is missing or does not match');
    expect((await attemptRow(messageId))?.status).toBe('sent');
    expect(await api.db.query('SELECT 1 FROM whatsapp_inbound WHERE phone = $1', [phone])).toEqual([]);
  });

  it('refuses a body changed after signing with 401', async () => {
    const phone = uniquePhone();
    const { messageId, wamid } = await sentOnWhatsapp(phone);
    const signed = callbackOf({ statuses: [statusOf(wamid, 'sent', phone)] });
    const tampered = callbackOf({ statuses: [statusOf(wamid, 'read', phone)] });
    const response = await postCallback(api.anonymous(), tampered, metaSignature(signed));
    expect(response.statusCode).toBe(401);
    expect((await attemptRow(messageId))?.status).toBe('sent');
  });

  it('moves an attempt forward only, whatever order, delay or repetition the statuses come in', async () => {
    const phone = uniquePhone();
    const { messageId, wamid } = await sentOnWhatsapp(phone);
    const t0 = new Date(Date.now() - 60_000);
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    // Read arrives first, then a late delivered, a duplicate read, and a very late sent.
    for (const status of [
      statusOf(wamid, 'read', phone, { at: at(30) }),
      statusOf(wamid, 'delivered', phone, { at: at(10) }),
      statusOf(wamid, 'read', phone, { at: at(30) }),
      statusOf(wamid, 'sent', phone, { at: at(1) }),
    ]) {
      const response = await postCallback(api.anonymous(), callbackOf({ statuses: [status] }));
      expect(response.statusCode).toBe(200);
    }
    expect(await attemptRow(messageId)).toMatchObject({ status: 'read', failure_reason: null });
    expect(await messageRow(messageId)).toMatchObject({ delivery_status: 'read', message_type: 'WHATSAPP' });
    // A failure reported after the read changes nothing either.
    const late = statusOf(wamid, 'failed', phone, { error: { code: 131026, title: 'Message undeliverable' } });
    expect((await postCallback(api.anonymous(), callbackOf({ statuses: [late] }))).statusCode).toBe(200);
    expect((await messageRow(messageId))?.delivery_status).toBe('read');
  });

  it('records a failure with its code and reason; the message fails when no other channel is left', async () => {
    const phone = uniquePhone();
    const { messageId, wamid } = await sentOnWhatsapp(phone);
    const failed = statusOf(wamid, 'failed', phone, {
      error: { code: 131026, title: 'Message undeliverable', message: 'Unable to deliver message' },
    });
    expect((await postCallback(api.anonymous(), callbackOf({ statuses: [failed] }))).statusCode).toBe(200);
    expect(await attemptRow(messageId)).toMatchObject({
      status: 'failed',
      error_code: 131026,
      failure_reason: 'Message undeliverable: Unable to deliver message',
    });
    expect(await messageRow(messageId)).toMatchObject({
      delivery_status: 'failed',
      failure_reason: 'Message undeliverable: Unable to deliver message',
    });
  });

  it('keeps a status that overtook the send, and applies it when the wamid is stored', async () => {
    const phone = uniquePhone();
    const wamid = `wamid.early${Date.now()}`;
    const early = callbackOf({ statuses: [statusOf(wamid, 'delivered', phone)] });
    expect((await postCallback(api.anonymous(), early)).statusCode).toBe(200);
    const [message] = await api.db.query<{ id: number }>(
      `INSERT INTO messages (message_type, kind, subject, message, recipient, sent_by, delivery_status)
       VALUES ('WHATSAPP', 'notice', 'Early', 'Body', $1, 'Admin', 'queued') RETURNING id`,
      [phone],
    );
    const messageId = (message as { id: number }).id;
    await api.db.query(
      `INSERT INTO message_attempts (message_id, channel, whatsapp_template, tries) VALUES ($1, 'whatsapp', 't', 1)`,
      [messageId],
    );
    await storeProviderMessageId(api.db, { messageId, channel: 'whatsapp' }, wamid);
    expect((await attemptRow(messageId))?.status).toBe('delivered');
    expect((await messageRow(messageId))?.delivery_status).toBe('delivered');
    expect(await api.db.query('SELECT 1 FROM whatsapp_early_statuses WHERE provider_message_id = $1', [wamid])).toEqual(
      [],
    );
  });

  it('loses no status when the callback and the send finish at the same moment', async () => {
    const phone = uniquePhone();
    const ids: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const wamid = `wamid.race${Date.now()}${index}`;
        const [message] = await api.db.query<{ id: number }>(
          `INSERT INTO messages (message_type, kind, subject, message, recipient, sent_by, delivery_status)
           VALUES ('WHATSAPP', 'notice', 'Race', 'Body', $1, 'Admin', 'queued') RETURNING id`,
          [phone],
        );
        const messageId = (message as { id: number }).id;
        ids.push(messageId);
        await api.db.query(
          `INSERT INTO message_attempts (message_id, channel, whatsapp_template, tries) VALUES ($1, 'whatsapp', 't', 1)`,
          [messageId],
        );
        const callback = callbackOf({ statuses: [statusOf(wamid, 'delivered', phone)] });
        await Promise.all([
          storeProviderMessageId(api.db, { messageId, channel: 'whatsapp' }, wamid),
          postCallback(api.anonymous(), callback),
        ]);
      }),
    );
    for (const id of ids) expect((await attemptRow(id))?.status).toBe('delivered');
  });

  it('stores a group of accepted sends at once, with the statuses that overtook some, while callbacks and an overlapping group run', async () => {
    const phone = uniquePhone();
    const sent: { attemptId: number; providerMessageId: string; messageId: number }[] = [];
    for (let index = 0; index < 12; index += 1) {
      const [message] = await api.db.query<{ id: number }>(
        `INSERT INTO messages (message_type, kind, subject, message, recipient, sent_by, delivery_status)
         VALUES ('WHATSAPP', 'notice', 'Group', 'Body', $1, 'Admin', 'queued') RETURNING id`,
        [phone],
      );
      const messageId = (message as { id: number }).id;
      const [attempt] = await api.db.query<{ id: number }>(
        `INSERT INTO message_attempts (message_id, channel, whatsapp_template, tries)
         VALUES ($1, 'whatsapp', 't', 1) RETURNING id`,
        [messageId],
      );
      sent.push({
        attemptId: (attempt as { id: number }).id,
        providerMessageId: `wamid.group${Date.now()}${index}`,
        messageId,
      });
    }
    // The first four were read before their group is stored (their statuses wait as early ones).
    for (const item of sent.slice(0, 4)) {
      const callback = callbackOf({ statuses: [statusOf(item.providerMessageId, 'read', phone)] });
      expect((await postCallback(api.anonymous(), callback)).statusCode).toBe(200);
    }
    const firstGroup = sent.slice(0, 8);
    const secondGroup = sent.slice(4).reverse();
    await Promise.all([
      storeProviderMessageIds(api.db, firstGroup),
      storeProviderMessageIds(api.db, secondGroup),
      ...sent
        .slice(8)
        .map((item) =>
          postCallback(
            api.anonymous(),
            callbackOf({ statuses: [statusOf(item.providerMessageId, 'delivered', phone)] }),
          ),
        ),
    ]);
    const statuses = await Promise.all(sent.map(async (item) => (await attemptRow(item.messageId))?.status));
    expect(statuses).toEqual([...Array(4).fill('read'), ...Array(4).fill('sent'), ...Array(4).fill('delivered')]);
    const messages = await Promise.all(sent.map(async (item) => (await messageRow(item.messageId))?.delivery_status));
    expect(messages).toEqual(statuses);
    const stored = await api.db.query<{ provider_message_id: string }>(
      'SELECT provider_message_id FROM message_attempts WHERE id = ANY($1::int[]) ORDER BY id',
      [sent.map((item) => item.attemptId)],
    );
    expect(stored.map((row) => row.provider_message_id)).toEqual(sent.map((item) => item.providerMessageId));
    expect(
      await api.db.query('SELECT 1 FROM whatsapp_early_statuses WHERE provider_message_id = ANY($1::text[])', [
        sent.map((item) => item.providerMessageId),
      ]),
    ).toEqual([]);
  });

  it('answers 200 to statuses for unknown ids, to what it does not use, and to signed non-JSON', async () => {
    const unknown = callbackOf({ statuses: [statusOf('wamid.nobody', 'read', '+919800000000')] });
    expect((await postCallback(api.anonymous(), unknown)).statusCode).toBe(200);
    const otherField = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ changes: [{ field: 'account_update', value: {} }] }],
    });
    expect((await postCallback(api.anonymous(), otherField)).statusCode).toBe(200);
    expect((await postCallback(api.anonymous(), 'not json')).statusCode).toBe(200);
  });

  it('stores an inbound message once, however often the callback comes', async () => {
    const phone = uniquePhone();
    const text = textFrom(phone, 'Will Riya have class on Saturday?');
    const body = callbackOf({ messages: [text] });
    const answers = await Promise.all([1, 2, 3].map(() => postCallback(api.anonymous(), body)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const rows = await api.db.query<{ body: string; kind: string }>(
      'SELECT body, kind FROM whatsapp_inbound WHERE phone = $1',
      [phone],
    );
    expect(rows).toEqual([{ body: 'Will Riya have class on Saturday?', kind: 'text' }]);
  });
});

describe('STOP and START', () => {
  async function optedInFamily() {
    const phone = uniquePhone();
    const student = await api.student({ parent_phone: phone, parent_whatsapp_opt_in: true });
    const sibling = await api.student({ parent_phone: phone });
    return { phone, student, sibling };
  }

  async function consent(phone: string) {
    return api.db.query<{ opt_in: boolean }>(
      'SELECT parent_whatsapp_opt_in AS opt_in FROM students WHERE parent_phone = $1 ORDER BY id',
      [phone],
    );
  }

  it.each(['STOP', 'stop.', '  Unsubscribe ', 'रोकें', 'بند کریں'])(
    'opts the family out at once on "%s", stops what was queued, and tells the parent once',
    async (word) => {
      const { phone } = await optedInFamily();
      const queued = await sentOnWhatsapp(phone);
      await api.db.query(
        "UPDATE message_attempts SET status = 'queued', provider_message_id = NULL WHERE message_id = $1",
        [queued.messageId],
      );
      await api.db.query("UPDATE messages SET delivery_status = 'queued' WHERE id = $1", [queued.messageId]);
      const stop = callbackOf({ messages: [textFrom(phone, word)] });
      expect((await postCallback(api.anonymous(), stop)).statusCode).toBe(200);
      expect(await consent(phone)).toEqual([{ opt_in: false }, { opt_in: false }]);
      expect(await attemptRow(queued.messageId)).toMatchObject({
        status: 'failed',
        failure_reason: 'The parent opted out of WhatsApp messages.',
      });
      const log = await api.db.query<{ opted_in: boolean; source: string; changed_by: string }>(
        'SELECT opted_in, source, changed_by FROM whatsapp_consent_log WHERE phone = $1 ORDER BY id',
        [phone],
      );
      expect(log.at(-1)).toEqual({ opted_in: false, source: 'whatsapp_reply', changed_by: 'Parent (WhatsApp reply)' });

      // A second STOP changes nothing and is not answered again.
      expect(
        (await postCallback(api.anonymous(), callbackOf({ messages: [textFrom(phone, 'STOP')] }))).statusCode,
      ).toBe(200);
      const confirmations = await api.db.query<{ message: string }>(
        `SELECT m.message FROM messages m JOIN message_attempts a ON a.message_id = m.id
          WHERE m.recipient = $1 AND m.kind = 'whatsapp' AND a.whatsapp_text IS NOT NULL`,
        [phone],
      );
      expect(confirmations).toHaveLength(1);
      expect(confirmations[0]?.message).toMatch(/^You will no longer get WhatsApp messages from /);
      // Staff cannot write to the family on WhatsApp any more, even inside the window.
      const refused = await api
        .as('admin')
        .post('/api/v1/communications/send-whatsapp', { to: phone, message: 'Hello' });
      expectRefusal(refused, 409, 'This parent has opted out of WhatsApp messages from the centre');
    },
  );

  it('opts the family back in on START', async () => {
    const { phone } = await optedInFamily();
    await postCallback(api.anonymous(), callbackOf({ messages: [textFrom(phone, 'STOP')] }));
    await postCallback(api.anonymous(), callbackOf({ messages: [textFrom(phone, 'Start')] }));
    expect(await consent(phone)).toEqual([{ opt_in: true }, { opt_in: true }]);
  });

  it('does not take a sentence that contains "stop" for an opt-out', async () => {
    const { phone } = await optedInFamily();
    await postCallback(api.anonymous(), callbackOf({ messages: [textFrom(phone, 'Please stop by the office')] }));
    expect(await consent(phone)).toEqual([{ opt_in: true }, { opt_in: true }]);
  });
});

describe('one-tap replies', () => {
  it("writes a button reply onto the day's record as the parent's reason, once", async () => {
    const phone = uniquePhone();
    const student = await api.student({ full_name: 'Riya Sharma', parent_phone: phone, parent_whatsapp_opt_in: true });
    const date = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    expect(
      (
        await api
          .as('admin')
          .post('/api/v1/attendance/mark', { date, records: [{ student_id: student.id, status: 'absent' }] })
      ).statusCode,
    ).toBe(200);
    const [record] = await api.db.query<{ id: number }>('SELECT id FROM attendance WHERE student_id = $1', [
      student.id,
    ]);
    const recordId = (record as { id: number }).id;
    expect((await api.as('admin').post('/api/v1/attendance/approve', { attendance_ids: [recordId] })).statusCode).toBe(
      200,
    );
    const [alert] = await api.db.query<{ id: number }>(
      "SELECT id FROM messages WHERE attendance_id = $1 AND kind = 'absence_alert'",
      [recordId],
    );
    const alertId = (alert as { id: number }).id;
    const [attempt] = await api.db.query<{ id: number }>(
      "SELECT id FROM message_attempts WHERE message_id = $1 AND channel = 'whatsapp'",
      [alertId],
    );
    expect(attempt).toBeDefined();
    const wamid = `wamid.alert${alertId}`;
    await storeProviderMessageId(api.db, { attemptId: (attempt as { id: number }).id }, wamid);

    const sick = buttonFrom(phone, `reply:${alertId}:sick`, 'Sick', wamid);
    expect((await postCallback(api.anonymous(), callbackOf({ messages: [sick] }))).statusCode).toBe(200);
    const late = buttonFrom(phone, `reply:${alertId}:late`, 'Coming late', wamid);
    expect((await postCallback(api.anonymous(), callbackOf({ messages: [late] }))).statusCode).toBe(200);
    const [row] = await api.db.query<{ parent_reason: string | null }>(
      'SELECT parent_reason FROM attendance WHERE id = $1',
      [recordId],
    );
    expect(row?.parent_reason).toBe('Sick');
    const history = await api.as('admin').get(`/api/v1/attendance/history?start_date=${date}&end_date=${date}`);
    expect(JSON.stringify(history.json())).toContain('Sick');
  });

  it("ignores a reply payload naming another family's alert", async () => {
    const mine = uniquePhone();
    const theirs = uniquePhone();
    const { messageId, wamid } = await sentOnWhatsapp(theirs, 'absence_alert');
    const forged = buttonFrom(mine, `reply:${messageId}:call`, 'Please call me', wamid);
    expect((await postCallback(api.anonymous(), callbackOf({ messages: [forged] }))).statusCode).toBe(200);
    const [row] = await api.db.query<{ reply: string | null; call_requested_at: string | null }>(
      'SELECT reply, call_requested_at FROM messages WHERE id = $1',
      [messageId],
    );
    expect(row).toEqual({ reply: null, call_requested_at: null });
  });
});

// ---- Issue 26, items 5 and 6: only the centre's own callbacks, and no item breaks the others ----

/** The webhook on a second app over the same context, whose log lines the test reads. */
let logged: FastifyInstance;
let webhook: Caller;
const logLines: Record<string, unknown>[] = [];
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  logged = await buildApp(api.ctx, { logger: { level: 'info', stream } });
  await logged.ready();
  webhook = callerOf(logged);
});
afterAll(async () => {
  await logged?.close();
});

const callbackLines = () => logLines.filter((line) => line.event === 'whatsapp-callback');

interface ChangeOf {
  /** `metadata.phone_number_id`; the centre's when not given, no metadata at all when null. */
  phoneNumberId?: unknown;
  statuses?: unknown[];
  messages?: unknown[];
  contacts?: unknown[];
}

/** A callback of several entries (`id` the business account; the centre's when not given, none when null). */
function callbackOfEntries(entries: { id?: unknown; changes: ChangeOf[] }[]): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: entries.map((entry) => ({
      ...(entry.id === null ? {} : { id: entry.id ?? WHATSAPP_TEST.businessAccountId }),
      changes: entry.changes.map(({ phoneNumberId, ...value }) => ({
        field: 'messages',
        value: {
          messaging_product: 'whatsapp',
          ...(phoneNumberId === null
            ? {}
            : {
                metadata: {
                  display_phone_number: '15550001111',
                  phone_number_id: phoneNumberId ?? WHATSAPP_TEST.phoneNumberId,
                },
              }),
          ...value,
        },
      })),
    })),
  });
}

async function inboundOf(phone: string) {
  return api.db.query<{ provider_message_id: string; kind: string; body: string; reply: string | null }>(
    'SELECT provider_message_id, kind, body, reply FROM whatsapp_inbound WHERE phone = $1 ORDER BY id',
    [phone],
  );
}

async function optedIn(phone: string): Promise<boolean[]> {
  const rows = await api.db.query<{ opt_in: boolean }>(
    'SELECT parent_whatsapp_opt_in AS opt_in FROM students WHERE parent_phone = $1 ORDER BY id',
    [phone],
  );
  return rows.map((row) => row.opt_in);
}

async function earlyStatuses(wamid: string) {
  return api.db.query('SELECT status FROM whatsapp_early_statuses WHERE provider_message_id = $1', [wamid]);
}

describe("callbacks are applied only when they are for the centre's own number and business account", () => {
  beforeEach(() => {
    logLines.length = 0;
  });

  it("applies the change for the centre's phone number id and skips, with a log line, another number's and one without metadata", async () => {
    const ours = uniquePhone();
    const theirs = uniquePhone();
    await api.student({ parent_phone: theirs, parent_whatsapp_opt_in: true });
    const mine = await sentOnWhatsapp(ours);
    const forged = await sentOnWhatsapp(theirs);
    const body = callbackOfEntries([
      {
        changes: [
          {
            phoneNumberId: '5550009999',
            statuses: [statusOf(forged.wamid, 'read', theirs), statusOf('wamid.elsewhere1', 'delivered', theirs)],
            messages: [textFrom(theirs, 'STOP'), textFrom(theirs, 'Secret question from elsewhere')],
          },
          {
            phoneNumberId: null,
            statuses: [statusOf(forged.wamid, 'failed', theirs)],
            messages: [textFrom(theirs, 'No metadata')],
          },
          { statuses: [statusOf(mine.wamid, 'delivered', ours)], messages: [textFrom(ours, 'Is there class today?')] },
        ],
      },
    ]);
    expect((await postCallback(webhook, body)).statusCode).toBe(200);

    expect((await attemptRow(mine.messageId))?.status).toBe('delivered');
    expect((await inboundOf(ours)).map((row) => row.body)).toEqual(['Is there class today?']);
    // Nothing of the other numbers' changes: no status moved or kept for later, nothing stored, no opt-out.
    expect((await attemptRow(forged.messageId))?.status).toBe('sent');
    expect(await earlyStatuses('wamid.elsewhere1')).toEqual([]);
    expect(await inboundOf(theirs)).toEqual([]);
    expect(await optedIn(theirs)).toEqual([true]);

    const skipped = callbackLines().filter((line) => line.outcome === 'not-ours');
    expect(skipped).toEqual([
      expect.objectContaining({ level: 40, phone_number_id: '5550009999', statuses: 2, messages: 2 }),
      expect.objectContaining({ level: 40, phone_number_id: null, statuses: 1, messages: 1 }),
    ]);
    for (const line of skipped) expect(line).toMatchObject({ entry_id: WHATSAPP_TEST.businessAccountId });
    const everything = logLines.map((line) => JSON.stringify(line)).join('\n');
    expect(everything).not.toContain('Secret question');
    expect(everything).not.toContain('Is there class today?');
  });

  it('skips every change of an entry for another business account, or of one without its id, with a log line', async () => {
    const ours = uniquePhone();
    const theirs = uniquePhone();
    await api.student({ parent_phone: theirs, parent_whatsapp_opt_in: true });
    const mine = await sentOnWhatsapp(ours);
    const forged = await sentOnWhatsapp(theirs);
    const body = callbackOfEntries([
      {
        // Another business account naming the centre's phone number id is still not the centre's.
        id: '9988776655',
        changes: [
          { statuses: [statusOf(forged.wamid, 'failed', theirs, { error: { code: 131026, title: 'Forged' } })] },
          { messages: [textFrom(theirs, 'STOP')] },
        ],
      },
      { id: null, changes: [{ messages: [textFrom(theirs, 'From no account')] }] },
      { changes: [{ statuses: [statusOf(mine.wamid, 'read', ours)], messages: [textFrom(ours, 'Thank you')] }] },
    ]);
    expect((await postCallback(webhook, body)).statusCode).toBe(200);

    expect((await attemptRow(mine.messageId))?.status).toBe('read');
    expect((await inboundOf(ours)).map((row) => row.body)).toEqual(['Thank you']);
    expect(await attemptRow(forged.messageId)).toMatchObject({ status: 'sent', failure_reason: null });
    expect(await inboundOf(theirs)).toEqual([]);
    expect(await optedIn(theirs)).toEqual([true]);

    expect(callbackLines().filter((line) => line.outcome === 'not-ours')).toEqual([
      expect.objectContaining({ level: 40, entry_id: '9988776655', statuses: 1, messages: 1 }),
      expect.objectContaining({ level: 40, entry_id: null, statuses: 0, messages: 1 }),
    ]);
  });
});

describe('U+0000 is taken out of every string of a callback, and one item that fails does not stop the others', () => {
  beforeEach(() => {
    logLines.length = 0;
  });

  const NUL = '\u0000';

  it.each([
    [
      'a text',
      (phone: string) => textFrom(phone, `Is there${NUL} class${NUL}?`),
      { kind: 'text', body: 'Is there class?' },
    ],
    [
      "the message's own id",
      (phone: string) => ({ ...textFrom(phone, 'Hello'), id: `wamid.${NUL}nul-id-${phone.slice(1)}` }),
      { provider_message_id: 'wamid.nul-id-', body: 'Hello' },
    ],
    [
      'the sender',
      (phone: string) => ({ ...textFrom(phone, 'From a sender with a NUL'), from: `${phone.slice(1)}${NUL}` }),
      { body: 'From a sender with a NUL' },
    ],
    [
      "a button's title",
      (phone: string) => ({ ...buttonFrom(phone, 'not-a-reply', `Coming${NUL} late`, 'wamid.none'), type: 'button' }),
      { kind: 'button', body: 'Coming late' },
    ],
    [
      'the type',
      (phone: string) => ({ ...textFrom(phone, 'Typed'), type: `te${NUL}xt` }),
      { kind: 'text', body: 'Typed' },
    ],
  ])('stores an inbound message with a NUL in %s without it, and answers 200', async (_where, message, expected) => {
    const phone = uniquePhone();
    const sibling = textFrom(phone, 'The next message');
    const contacts = [{ profile: { name: `Lak${NUL}shmi` }, wa_id: phone.slice(1) }];
    const response = await postCallback(webhook, callbackOf({ contacts, messages: [message(phone), sibling] }));
    expect(response.statusCode).toBe(200);
    const rows = await inboundOf(phone);
    expect(rows).toHaveLength(2);
    const { provider_message_id: idStart, ...rest } = expected as { provider_message_id?: string };
    expect(rows[0]).toMatchObject(rest);
    if (idStart) expect(rows[0]?.provider_message_id).toBe(`${idStart}${phone.slice(1)}`);
    expect(rows[1]?.body).toBe('The next message');
    expect(JSON.stringify(rows)).not.toContain(NUL);
  });

  it('records a one-tap reply whose button payload, title and context id carry NULs, from a parent whose name does', async () => {
    const phone = uniquePhone();
    const { messageId, wamid } = await sentOnWhatsapp(phone, 'absence_alert');
    const tap = buttonFrom(phone, `reply:${messageId}:si${NUL}ck`, `Si${NUL}ck`, `${wamid}${NUL}`);
    const contacts = [{ profile: { name: `Ri${NUL}ya's mother` }, wa_id: phone.slice(1) }];
    expect((await postCallback(webhook, callbackOf({ contacts, messages: [tap] }))).statusCode).toBe(200);
    const [alert] = await api.db.query<{ reply: string | null }>('SELECT reply FROM messages WHERE id = $1', [
      messageId,
    ]);
    expect(alert?.reply).toBe('sick');
    expect(await inboundOf(phone)).toEqual([expect.objectContaining({ kind: 'button', body: 'Sick', reply: 'sick' })]);
  });

  it('takes a STOP with a NUL in it for a STOP', async () => {
    const phone = uniquePhone();
    await api.student({ parent_phone: phone, parent_whatsapp_opt_in: true });
    expect((await postCallback(webhook, callbackOf({ messages: [textFrom(phone, `ST${NUL}OP`)] }))).statusCode).toBe(
      200,
    );
    expect(await optedIn(phone)).toEqual([false]);
  });

  it('applies a status whose wamid and error title carry NULs, stored without them', async () => {
    const phone = uniquePhone();
    const { messageId, wamid } = await sentOnWhatsapp(phone);
    const failed = statusOf(`${wamid.slice(0, 6)}${NUL}${wamid.slice(6)}`, 'failed', phone, {
      error: { code: 131026, title: `Message${NUL} undeliverable`, message: `Unable${NUL} to deliver` },
    });
    expect((await postCallback(webhook, callbackOf({ statuses: [failed] }))).statusCode).toBe(200);
    expect(await attemptRow(messageId)).toMatchObject({
      status: 'failed',
      error_code: 131026,
      failure_reason: 'Message undeliverable: Unable to deliver',
    });
  });

  it('keeps a status that overtook its send without the NUL in its wamid', async () => {
    const phone = uniquePhone();
    const wamid = `wamid.earlynul${Date.now()}`;
    const early = callbackOf({ statuses: [statusOf(`${wamid}${NUL}`, 'delivered', phone)] });
    expect((await postCallback(webhook, early)).statusCode).toBe(200);
    expect(await earlyStatuses(wamid)).toEqual([{ status: 'delivered' }]);
    await api.db.query('DELETE FROM whatsapp_early_statuses WHERE provider_message_id = $1', [wamid]);
  });

  it('skips an item the database refuses, logs it without the text, answers 200 and applies the others', async () => {
    const phone = uniquePhone();
    const stopping = uniquePhone();
    await api.student({ parent_phone: stopping, parent_whatsapp_opt_in: true });
    const refused = await sentOnWhatsapp(phone);
    const applied = await sentOnWhatsapp(phone);
    const unknownWamid = `wamid.refusedearly${Date.now()}`;
    // An error code beyond the integer column, a timestamp in the year 33658: the database refuses both.
    const tooBigCode = statusOf(refused.wamid, 'failed', phone, { error: { code: 1e12, title: 'Undeliverable' } });
    const tooBigEarly = statusOf(unknownWamid, 'failed', phone, { error: { code: 1e12, title: 'Undeliverable' } });
    const farFuture = { ...textFrom(phone, 'A question from the far future'), timestamp: String(1e12) };
    const malformed = { ...textFrom(phone, 'A question from nowhere'), from: 'not-a-phone' };
    const body = callbackOfEntries([
      {
        changes: [
          {
            statuses: [tooBigCode, tooBigEarly, statusOf(applied.wamid, 'delivered', phone)],
            messages: [farFuture, malformed, textFrom(phone, 'An ordinary question'), textFrom(stopping, 'STOP')],
          },
        ],
      },
    ]);
    expect((await postCallback(webhook, body)).statusCode).toBe(200);

    expect(await attemptRow(refused.messageId)).toMatchObject({
      status: 'sent',
      error_code: null,
      failure_reason: null,
    });
    expect(await earlyStatuses(unknownWamid)).toEqual([]);
    expect((await attemptRow(applied.messageId))?.status).toBe('delivered');
    expect((await inboundOf(phone)).map((row) => row.body)).toEqual(['An ordinary question']);
    expect(await optedIn(stopping)).toEqual([false]);

    const failed = callbackLines().filter((line) => line.outcome === 'item-failed');
    expect(failed).toEqual([
      expect.objectContaining({ level: 50, item: 'status', wamid: refused.wamid, error: expect.any(String) }),
      expect.objectContaining({ level: 50, item: 'status', wamid: unknownWamid, error: expect.any(String) }),
      expect.objectContaining({ level: 50, item: 'message', wamid: farFuture.id, error: expect.any(String) }),
    ]);
    expect(callbackLines().filter((line) => line.outcome === 'not-understood')).toEqual([
      expect.objectContaining({ level: 40, item: 'message', wamid: malformed.id, problems: ['from: invalid_format'] }),
    ]);
    const everything = logLines.map((line) => JSON.stringify(line)).join('\n');
    expect(everything).not.toContain('from nowhere');
    expect(everything).not.toContain('far future');
    expect(everything).not.toContain('ordinary question');
    expect(logLines.find((line) => line.msg === 'WhatsApp callback processed')).toMatchObject({
      whatsapp: expect.objectContaining({
        statuses: 1,
        unknownStatuses: 0,
        inbound: 2,
        optOuts: 1,
        notUnderstood: 1,
        failed: 3,
      }),
    });
  });

  it('leaves nothing of a message whose later step fails: its text is not kept without its effect', async () => {
    const phone = uniquePhone();
    await api.student({ parent_phone: phone, parent_whatsapp_opt_in: true });
    // The opt-out's activity line is refused (a trigger, for this test only): the STOP fails after the
    // message itself was inserted and the family's consent changed.
    await api.db.exec(`
      CREATE FUNCTION refuse_opt_out_activity() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.action = 'messages.whatsapp_opt_out' THEN RAISE EXCEPTION 'refused for the test'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_opt_out_activity BEFORE INSERT ON activities
        FOR EACH ROW EXECUTE FUNCTION refuse_opt_out_activity();`);
    try {
      const stop = textFrom(phone, 'STOP');
      expect(
        (await postCallback(webhook, callbackOf({ messages: [stop, textFrom(phone, 'Afterwards')] }))).statusCode,
      ).toBe(200);
      // The STOP is not half applied: neither stored nor opting out; the next message is stored.
      expect((await inboundOf(phone)).map((row) => row.body)).toEqual(['Afterwards']);
      expect(await optedIn(phone)).toEqual([true]);
      expect(callbackLines().filter((line) => line.outcome === 'item-failed')).toEqual([
        expect.objectContaining({ item: 'message', wamid: stop.id }),
      ]);
    } finally {
      await api.db.exec('DROP TRIGGER refuse_opt_out_activity ON activities; DROP FUNCTION refuse_opt_out_activity();');
    }
  });

  it('answers 200 to a callback nested far deeper than any stack, and applies its message', async () => {
    const phone = uniquePhone();
    const depth = 200_000;
    const deep = `${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`;
    const body = callbackOf({ messages: [textFrom(phone, 'Under a deep contact')] }).replace(
      '"messaging_product":"whatsapp"',
      `"messaging_product":"whatsapp","contacts":${deep}`,
    );
    expect((await postCallback(webhook, body)).statusCode).toBe(200);
    expect((await inboundOf(phone)).map((row) => row.body)).toEqual(['Under a deep contact']);
  });
});

describe('afterwards', () => {
  it('leaves the database consistent', async () => {
    expect(await checkIntegrity(api.db)).toEqual([]);
  });
});

describe('conversations', () => {
  it("lists the families who wrote, and shows one family's conversation with the window", async () => {
    const phone = uniquePhone();
    await api.student({ full_name: 'Tara Iyer', parent_name: 'Lakshmi Iyer', parent_phone: phone });
    const earlier = new Date(Date.now() - 30 * 60 * 60 * 1000);
    await postCallback(api.anonymous(), callbackOf({ messages: [textFrom(phone, 'Old question', earlier)] }));
    let detail = await api.as('teacher').get(`/api/v1/communications/conversations/${encodeURIComponent(phone)}`);
    expect(detail.json()).toMatchObject({ phone, recipient_name: 'Lakshmi Iyer', window_open_until: null });

    await postCallback(api.anonymous(), callbackOf({ messages: [textFrom(phone, 'Is there class tomorrow?')] }));
    const list = await api.as('teacher').get('/api/v1/communications/conversations');
    expect(list.json().find((item: { phone: string }) => item.phone === phone)).toMatchObject({
      phone,
      recipient_name: 'Lakshmi Iyer',
      last_text: 'Is there class tomorrow?',
      window_open_until: expect.any(String),
    });
    detail = await api.as('teacher').get(`/api/v1/communications/conversations/${phone.slice(1)}`);
    expect(
      detail.json().entries.map((entry: { direction: string; text: string }) => [entry.direction, entry.text]),
    ).toEqual([
      ['in', 'Old question'],
      ['in', 'Is there class tomorrow?'],
    ]);
    expect(Date.parse(detail.json().window_open_until)).toBeGreaterThan(Date.now() + 23 * 60 * 60 * 1000);
  });

  it('answers 404 for a phone that never wrote, and 422 for one that is not a phone', async () => {
    expectRefusal(
      await api.as('admin').get(`/api/v1/communications/conversations/${encodeURIComponent(uniquePhone())}`),
      404,
      'This phone has not written to the centre on WhatsApp',
    );
    expectRefusal(
      await api.as('admin').get('/api/v1/communications/conversations/hello'),
      422,
      'phone: must be a phone number with its country code',
    );
  });
});
