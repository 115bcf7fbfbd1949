/**
 * Message history grouped by message (issue 28, item 4; ADR 049): one item a send with its families
 * counted by where the message stands with each (the shared `message_reach`, ADR 044), the families
 * beneath it, and messages without a send as items of their own; the spec's history is unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, testClient } from './helpers/client';
import { family, sendTo } from './helpers/reach-families';
import { detailOf } from './helpers/test-app';

let api: TestClient;

beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

interface Group {
  send_id: number | null;
  subject: string;
  sent_at: string;
  recipients: string | null;
  families: number;
  read: number;
  delivered: number;
  sent_by_hand: number;
  not_reached: number;
  waiting: number;
  family: { id: number; recipient: string; reach: string } | null;
}

async function grouped(query = ''): Promise<Group[]> {
  const response = await api.as('admin').get(`/api/v1/communications/history/grouped${query}`);
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function families(sendId: number, caller: 'admin' | 'teacher' = 'admin') {
  const response = await api.as(caller).get(`/api/v1/communications/history/sends/${sendId}`);
  expect(response.statusCode).toBe(200);
  return response.json() as { id: number; recipient: string; reach: string; sent_by_hand_by: string | null }[];
}

async function messageTo(phone: string, subject: string): Promise<number> {
  const [row] = await api.db.query<{ id: number }>('SELECT id FROM messages WHERE recipient = $1 AND subject = $2', [
    phone,
    subject,
  ]);
  return row?.id as number;
}

/** The parent app's inbox shows the message (delivered), and opens it when `open` (read). */
async function shownInApp(phone: string, id: number, open: boolean) {
  const parent = await api.ctx.tokens.signParent({ phone, tokenVersion: 0 });
  expect((await api.withToken(parent).post('/api/v1/parent/messages/shown', { ids: [id] })).statusCode).toBe(200);
  if (open) expect((await api.withToken(parent).post(`/api/v1/parent/messages/${id}/read`)).statusCode).toBe(200);
}

const sumOf = (group: Group) => group.read + group.delivered + group.sent_by_hand + group.not_reached + group.waiting;

describe('the history grouped by message', () => {
  it('counts one send in families: delivered, read, sent by hand, not reached and waiting, each family once', async () => {
    const delivered = await family(api, '7', 'inbox', 'Shown');
    const read = await family(api, '7', 'inbox', 'Opened');
    const notReached = await family(api, '7', 'none', 'Nobody');
    const byHand = await family(api, '7', 'none', 'Hand');
    const waiting = await family(api, '7', 'inbox', 'Unseen');
    // A brother on the unreached phone: the family still counts once.
    await api.student({ class_name: '7', full_name: 'Nobody Two', parent_phone: notReached.phone, parent_name: 'P' });
    expect((await sendTo(api, '7', 'Sports day')).statusCode).toBe(200);
    await shownInApp(delivered.phone, await messageTo(delivered.phone, 'Sports day'), false);
    await shownInApp(read.phone, await messageTo(read.phone, 'Sports day'), true);
    const handId = await messageTo(byHand.phone, 'Sports day');
    const [tick, again] = await Promise.all([
      api.as('admin').put(`/api/v1/communications/call-list/${handId}/sent-by-hand`, {}),
      api.as('teacher').put(`/api/v1/communications/call-list/${handId}/sent-by-hand`, {}),
    ]);
    expect([tick.statusCode, again.statusCode]).toEqual([200, 200]);

    const [send] = await grouped();
    expect(send).toMatchObject({
      kind: 'notice',
      subject: 'Sports day',
      message: 'Closed on Friday.',
      recipients: '7',
      families: 5,
      delivered: 1,
      read: 1,
      sent_by_hand: 1,
      not_reached: 1,
      waiting: 1,
      replies: 0,
      family: null,
    });
    expect(send?.sent_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);

    // Beneath it, a row a family, each with its status and where it stands.
    const rows = await families(send?.send_id as number, 'teacher');
    const reachOf = Object.fromEntries(rows.map((row) => [row.recipient, row.reach]));
    expect(reachOf).toEqual({
      [delivered.phone]: 'delivered',
      [read.phone]: 'read',
      [notReached.phone]: 'not_reached',
      [byHand.phone]: 'sent_by_hand',
      [waiting.phone]: 'waiting',
    });
    expect(rows.find((row) => row.recipient === byHand.phone)).toMatchObject({
      delivery_status: 'failed',
      sent_by_hand_by: expect.stringMatching(/.+/),
    });

    // Once not_reached_minutes have passed, the family whose inbox never showed it is not reached,
    // and the analytics, counted by the same definition, agree.
    await api.db.query("UPDATE messages SET sent_at = sent_at - interval '2 hours' WHERE send_id = $1", [
      send?.send_id,
    ]);
    await api.db.query("UPDATE message_sends SET sent_at = sent_at - interval '2 hours' WHERE id = $1", [
      send?.send_id,
    ]);
    const [later] = await grouped();
    expect(later).toMatchObject({ families: 5, delivered: 1, read: 1, sent_by_hand: 1, not_reached: 2, waiting: 0 });
    const analytics = (await api.as('admin').get('/api/v1/communications/analytics')).json();
    const counted = analytics.sends.find((item: { id: number }) => item.id === send?.send_id);
    expect(counted).toMatchObject({ families: 5, delivered: 2, read: 1, sent_by_hand: 1, not_reached: 2 });
  });

  it('lists a message to one family as its own item, newest first, a page at a time', async () => {
    const { student, phone } = await family(api, '8', 'none', 'Coded');
    expect((await sendTo(api, '8', 'Exam week')).statusCode).toBe(200);
    // Replacing a family's code tells its devices: an access notice, stored without a send.
    for (let i = 0; i < 2; i += 1) {
      expect((await api.as('admin').post(`/api/v1/students/${student.id}/parent-access`)).statusCode).toBe(201);
    }
    const all = await grouped();
    const [notice, exam] = all;
    expect(notice).toMatchObject({
      send_id: null,
      kind: 'access_notice',
      recipients: null,
      families: 1,
      family: { recipient: phone, kind: 'access_notice', reach: expect.any(String), sent_by_hand_at: null },
    });
    expect(sumOf(notice as Group)).toBe(1);
    expect(exam).toMatchObject({ subject: 'Exam week', recipients: '8', families: 1, not_reached: 1 });
    for (const group of all) expect(sumOf(group)).toBe(group.families);
    // Every message is in exactly one item.
    const [{ count }] = (await api.db.query<{ count: number }>(
      'SELECT (count(DISTINCT send_id) + count(*) FILTER (WHERE send_id IS NULL))::int AS count FROM messages',
    )) as [{ count: number }];
    expect(all).toHaveLength(count);
    expect(await grouped('?limit=1&offset=1')).toEqual([exam]);
    expect(await grouped(`?limit=5&offset=${count}`)).toEqual([]);
  });

  it('refuses what it cannot answer: an unknown send 404, a bad id or page 422, no token 401', async () => {
    const missing = await api.as('admin').get('/api/v1/communications/history/sends/2147483647');
    expect(missing.statusCode).toBe(404);
    expect(detailOf(missing)).toBe('Message 2147483647 was not found');
    for (const url of [
      '/api/v1/communications/history/sends/abc',
      '/api/v1/communications/history/sends/0',
      '/api/v1/communications/history/grouped?limit=0',
      '/api/v1/communications/history/grouped?limit=501',
      '/api/v1/communications/history/grouped?offset=-1',
    ]) {
      const response = await api.as('admin').get(url);
      expect(response.statusCode, url).toBe(422);
      expect(detailOf(response), url).toMatch(/^(id|limit|offset): /);
    }
    expect((await api.anonymous().get('/api/v1/communications/history/grouped')).statusCode).toBe(401);
  });

  it('a read beside a send sees the whole send or none of it', async () => {
    for (let i = 0; i < 3; i += 1) await family(api, '9', i === 0 ? 'inbox' : 'none', 'Race');
    const before = await grouped('?limit=500');
    const [sent, during] = await Promise.all([sendTo(api, '9', 'Race notice'), grouped('?limit=500')]);
    expect(sent.statusCode).toBe(200);
    const seen = during.filter((group) => group.subject === 'Race notice');
    expect(seen.length === 0 ? during.length : seen[0]?.families).toBe(seen.length === 0 ? before.length : 3);
    const [after] = await grouped();
    expect(after).toMatchObject({ subject: 'Race notice', families: 3, waiting: 1, not_reached: 2 });
  });
});
