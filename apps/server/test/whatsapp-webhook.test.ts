import { describe, expect, it } from 'vitest';
import { storeProviderMessageId, storeProviderMessageIds } from '../src/modules/delivery/whatsapp-repository';
import { expectRefusal } from './helpers/answers';
import { testClient } from './helpers/client';
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
} from './helpers/whatsapp';
import { api, attemptRow, messageRow, sentOnWhatsapp, webhookApp } from './helpers/whatsapp-webhook';

// Only the centre's own callbacks, and one item that fails not stopping the others (issue 26):
// whatsapp-webhook-centre.test.ts.
webhookApp();

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
