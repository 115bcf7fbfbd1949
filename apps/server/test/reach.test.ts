/**
 * Reach from the first hour, and honest numbers (issue 28, ADR 044): who each channel reaches before a
 * send, what the answers say after it, the send list with its links and "sent by hand", the parent
 * app's inbox showing a message counting as delivered, and one "not reached" shared by the list, the
 * analytics and the dashboard.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../src/lib/time';
import { type TestClient, testClient } from './helpers/client';
import { family, sendTo } from './helpers/reach-families';

let api: TestClient;
/** WhatsApp on, by a stand-in that takes every message (the cascade against the fake Cloud API is whatsapp-cascade's). */
let whatsappOn: TestClient;

beforeAll(async () => {
  api = await testClient();
  whatsappOn = await testClient({
    prepare: (ctx) => ({ ...ctx, whatsapp: { send: async () => ({ providerMessageId: `wamid.${randomUUID()}` }) } }),
  });
});
afterAll(async () => {
  await api?.close();
  await whatsappOn?.close();
});

function preview(client: TestClient, recipients: string) {
  return client.as('admin').get(`/api/v1/messages/family-count?recipients=${recipients}`);
}

describe('before sending: who each channel reaches', () => {
  it('counts each family once, on its best channel, as the send then does; WhatsApp only when it is on', async () => {
    for (const client of [api, whatsappOn]) {
      await family(client, '7', 'device');
      await family(client, '7', 'inbox');
      await family(client, '7', 'whatsapp');
      await family(client, '7', 'none');
    }
    const off = await preview(api, '7');
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ recipients: '7', families: 4, in_app: 2, whatsapp: 0, no_channel: 2 });
    const on = await preview(whatsappOn, '7');
    expect(on.json()).toEqual({ recipients: '7', families: 4, in_app: 2, whatsapp: 1, no_channel: 1 });

    const sent = await sendTo(whatsappOn, '7');
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({
      recipients_count: 4,
      in_app_count: 2,
      whatsapp_count: 1,
      unreachable_count: 1,
      message:
        'Message sent to 3 of 4 parent(s): 2 in the app, 1 on WhatsApp, 1 with no channel yet: they go on your send list.',
    });
    // A brother or sister on the same phone does not make a second family.
    const { phone } = await family(api, '8', 'none');
    await api.student({ class_name: '8', full_name: 'Second Child', parent_phone: phone, parent_name: 'P' });
    expect((await preview(api, '8')).json()).toMatchObject({ families: 1, no_channel: 1 });
  });

  it('never says "sent" of a message no channel takes; says the spec\'s words when every family is reached', async () => {
    await family(api, '9', 'none');
    await family(api, '9', 'none');
    const nobody = await sendTo(api, '9');
    expect(nobody.json()).toMatchObject({
      recipients_count: 2,
      in_app_count: 0,
      whatsapp_count: 0,
      unreachable_count: 2,
    });
    expect(nobody.json().message).not.toMatch(/sent/i);
    expect(nobody.json().message).toBe(
      'No channel reaches these 2 families yet (0 in the app, 0 on WhatsApp, 2 with no channel yet: they go on your send list).',
    );
    await family(api, '10', 'inbox');
    const everyone = await sendTo(api, '10');
    expect(everyone.json()).toMatchObject({
      message: 'Message sent to 1 parent(s)',
      recipients_count: 1,
      in_app_count: 1,
    });
  });

  it('an approval says which channel reaches each alerted family, each family once', async () => {
    await api.db.query("UPDATE settings SET value = 'true' WHERE key = 'absence_alerts'");
    const reached = await family(api, '7', 'device', 'Absent');
    const unreached = await family(api, '7', 'none', 'Away');
    const sibling = await api.student({
      class_name: '7',
      full_name: 'Away Two',
      parent_phone: unreached.phone,
      parent_name: 'P',
    });
    const marked = await api.as('admin').post('/api/v1/attendance/mark', {
      date: today(),
      records: [reached.student, unreached.student, sibling].map((s) => ({ student_id: s.id, status: 'absent' })),
    });
    expect(marked.statusCode).toBe(200);
    const ids = await api.db.query<{ id: number }>('SELECT id FROM attendance WHERE student_id = ANY($1::int[])', [
      [reached.student.id, unreached.student.id, sibling.id],
    ]);
    const approved = await api.as('admin').post('/api/v1/attendance/approve', { attendance_ids: ids.map((r) => r.id) });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({
      alerted_families: 2,
      alert_reach: { in_app: 1, whatsapp: 0, no_channel: 1 },
    });
  });
});

async function sendList(client: TestClient) {
  const response = await client.as('admin').get('/api/v1/communications/call-list');
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('the send list', () => {
  it('lists the families nothing reached, with the text in their language and links to send it by hand', async () => {
    const { phone, student } = await family(api, '8', 'none', 'Listed');
    await api.db.query("UPDATE students SET parent_language = 'hi' WHERE parent_phone = $1", [phone]);
    await api.db.query("UPDATE settings SET value = 'Sunrise Tuition' WHERE key = 'centre_name'");
    // A template with a Hindi text: the family gets the Hindi, and the list's text is that one.
    const template = await api.as('admin').post('/api/v1/message-templates', {
      name: 'Fee reminder',
      purpose: 'notice',
      subject: 'Fees',
      texts: [
        { language: 'en', body: 'Fees are due for {class}.', whatsapp_template: null },
        { language: 'hi', body: '{class} की फ़ीस जमा करें।', whatsapp_template: null },
      ],
    });
    expect(template.statusCode).toBe(201);
    const sent = await api.as('admin').post('/api/v1/messages/send-to-parents', {
      subject: 'Fees',
      message: 'Fees are due for Class 8.',
      recipients: '8',
      template_id: template.json().id,
    });
    expect(sent.statusCode).toBe(200);
    const list = await sendList(api);
    const row = list.items.find((item: { phone: string }) => item.phone === phone);
    expect(row).toMatchObject({
      reason: 'not_reached',
      reach: 'not_reached',
      delivery_status: 'failed',
      language: 'hi',
      students: student.full_name,
      sent_by_hand_at: null,
    });
    expect(row.text).toMatch(/^Sunrise Tuition: Fees\n\n.*की फ़ीस जमा करें।$/);
    const digits = phone.replace(/\D/g, '');
    expect(row.whatsapp_link).toBe(`https://wa.me/${digits}?text=${encodeURIComponent(row.text)}`);
    expect(row.sms_link).toBe(`sms:+${digits}?&body=${encodeURIComponent(row.text)}`);
    expect(new URL(row.whatsapp_link).searchParams.get('text')).toBe(row.text);
  });

  it('"sent by hand" is set once with who and when, audited, one activity; two staff at once end the same', async () => {
    const { phone } = await family(api, '9', 'none', 'Ticked');
    await sendTo(api, '9', 'Exam');
    const [message] = await api.db.query<{ id: number }>(
      "SELECT id FROM messages WHERE recipient = $1 AND subject = 'Exam'",
      [phone],
    );
    const before = (await sendList(api)).waiting_count;
    const id = message?.id as number;
    const [first, second] = await Promise.all([
      api.as('admin').put(`/api/v1/communications/call-list/${id}/sent-by-hand`, {}),
      api.as('teacher').put(`/api/v1/communications/call-list/${id}/sent-by-hand`, {}),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const row = first.json().items.find((item: { message_id: number }) => item.message_id === id);
    expect(row).toMatchObject({ reach: 'sent_by_hand' });
    expect(row.sent_by_hand_by).toMatch(/.+/);
    expect(second.json().items.find((item: { message_id: number }) => item.message_id === id)).toEqual(row);
    expect(first.json().waiting_count).toBe(before - 1);

    const activities = await api.db.query(
      "SELECT description FROM activities WHERE action = 'messages.sent_by_hand' AND description LIKE $1",
      [`%${phone}%`],
    );
    expect(activities).toHaveLength(1);
    const audit = await api.db.query<{ after: Record<string, unknown> }>(
      "SELECT after FROM audit_log WHERE entity = 'messages' AND action = 'update' AND record_id = $1",
      [String(id)],
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]?.after).toMatchObject({ sent_by_hand_by: row.sent_by_hand_by });
    // Delivery status keeps the channels' word; the history says sent by hand.
    const [stored] = await api.db.query<{ delivery_status: string }>(
      'SELECT delivery_status FROM messages WHERE id = $1',
      [id],
    );
    expect(stored?.delivery_status).toBe('failed');

    const missing = await api.as('admin').put('/api/v1/communications/call-list/2147483647/sent-by-hand', {});
    expect(missing.statusCode).toBe(404);
  });
});

describe('the parent app showing a message counts as delivered', () => {
  it("delivered when shown, whatever the push did; read when opened; not the family's: left alone", async () => {
    const { phone } = await family(api, '10', 'device', 'Shown');
    const other = await family(api, '10', 'none', 'Other');
    await sendTo(api, '10', 'Shown notice');
    const [message] = await api.db.query<{ id: number }>(
      "SELECT id FROM messages WHERE recipient = $1 AND subject = 'Shown notice'",
      [phone],
    );
    const [foreign] = await api.db.query<{ id: number }>(
      "SELECT id FROM messages WHERE recipient = $1 AND subject = 'Shown notice'",
      [other.phone],
    );
    const id = message?.id as number;
    // The push failed for good.
    await api.db.query(
      "UPDATE message_attempts SET status = 'failed', failure_reason = 'gone' WHERE message_id = $1 AND channel = 'push'",
      [id],
    );
    await api.db.query("UPDATE messages SET delivery_status = 'failed', failure_reason = 'gone' WHERE id = $1", [id]);
    const parent = await api.ctx.tokens.signParent({ phone, tokenVersion: 0 });
    const shown = await api.withToken(parent).post('/api/v1/parent/messages/shown', { ids: [id, foreign?.id] });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({ delivered: 1 });
    const rows = await api.db.query<{ id: number; delivery_status: string }>(
      'SELECT id, delivery_status FROM messages WHERE id = ANY($1::int[]) ORDER BY id',
      [[id, foreign?.id]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.delivery_status]))).toEqual({
      [id]: 'delivered',
      [foreign?.id as number]: 'failed',
    });
    // Twice changes nothing; the send list no longer has it.
    expect((await api.withToken(parent).post('/api/v1/parent/messages/shown', { ids: [id] })).json()).toEqual({
      delivered: 0,
    });
    expect((await sendList(api)).items.some((item: { message_id: number }) => item.message_id === id)).toBe(false);
    await api.withToken(parent).post(`/api/v1/parent/messages/${id}/read`);
    const history = (await api.as('admin').get('/api/v1/communications/history?limit=50')).json();
    expect(history.find((item: { id: number }) => item.id === id)).toMatchObject({ delivery_status: 'read' });
    const bad = await api.withToken(parent).post('/api/v1/parent/messages/shown', { ids: [] });
    expect(bad.statusCode).toBe(422);
  });
});

describe('one "not reached", in families, for the analytics, the send list and the dashboard', () => {
  let fresh: TestClient;
  beforeAll(async () => {
    fresh = await testClient();
  });
  afterAll(async () => {
    await fresh?.close();
  });

  it('counts families, not rows, and the three agree on a seeded mix', async () => {
    const app = await family(fresh, '7', 'device', 'App');
    const none = await family(fresh, '7', 'none', 'Nobody');
    const byHand = await family(fresh, '8', 'none', 'Hand');
    // A second child on the unreached phone: still one family.
    await fresh.student({ class_name: '8', full_name: 'Nobody Two', parent_phone: none.phone, parent_name: 'P' });
    for (const subject of ['First', 'Second']) {
      expect((await sendTo(fresh, 'all_parents', subject)).statusCode).toBe(200);
    }
    const parent = await fresh.ctx.tokens.signParent({ phone: app.phone, tokenVersion: 0 });
    const appMessages = await fresh.db.query<{ id: number }>('SELECT id FROM messages WHERE recipient = $1', [
      app.phone,
    ]);
    await fresh.withToken(parent).post('/api/v1/parent/messages/shown', { ids: appMessages.map((m) => m.id) });
    const handMessages = await fresh.db.query<{ id: number }>('SELECT id FROM messages WHERE recipient = $1', [
      byHand.phone,
    ]);
    for (const { id } of handMessages) {
      expect((await fresh.as('admin').put(`/api/v1/communications/call-list/${id}/sent-by-hand`, {})).statusCode).toBe(
        200,
      );
    }

    const analytics = (await fresh.as('admin').get('/api/v1/communications/analytics')).json();
    expect(analytics.totals).toMatchObject({ families: 3, delivered: 1, in_app: 1, sent_by_hand: 1, not_reached: 1 });
    expect(analytics.sends).toHaveLength(2);
    const list = await sendList(fresh);
    const dashboard = (await fresh.as('admin').get('/api/v1/dashboard/summary')).json();
    expect(list.not_reached_families).toBe(1);
    expect(dashboard.not_reached).toBe(1);
    expect(list.waiting_count).toBe(1);
    expect(dashboard.reach).toEqual({ families: 3, in_app: 1, whatsapp: 0, no_channel: 2 });
  });
});
