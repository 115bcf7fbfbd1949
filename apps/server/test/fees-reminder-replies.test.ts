/**
 * A family's answer to a fee reminder (issue 29, ADR 061): in the parent app (POST
 * /parent/messages/{id}/fee-reply) and with a WhatsApp button, whose reference or day comes in the
 * parent's next text. The admin's side (match tasks, promises): fees-match-tasks.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { addDays, readableDate, today } from '../src/lib/time';
import { readPromiseDate } from '../src/modules/fees/reminder-replies-whatsapp';
import { expectRefusal } from './helpers/answers';
import { testClientForBlock } from './helpers/client';
import { answersOf, type ReminderFamily, reminderFamily, sendReminder, tasksOf } from './helpers/fee-reminder-replies';
import { buttonFrom, callbackOf, postCallback, textFrom, whatsappConfig } from './helpers/whatsapp';

// Nothing is sent: the Cloud API address only has to exist for the webhook to take callbacks.
const client = testClientForBlock({ config: { whatsapp: whatsappConfig('http://127.0.0.1:9/v21.0') } });

function feeReply(family: ReminderFamily, messageId: number, body: unknown) {
  return family.parent.post(`/api/v1/parent/messages/${messageId}/fee-reply`, body);
}

async function messageRow(id: number) {
  const [row] = await client().db.query<{ call_requested_at: string | null; read_at: string | null }>(
    'SELECT call_requested_at, read_at FROM messages WHERE id = $1',
    [id],
  );
  return row;
}

async function lastActivity() {
  const [row] = await client().db.query<{ description: string; user_id: number | null }>(
    "SELECT description, user_id FROM activities WHERE action = 'fees.reminder_answered' ORDER BY id DESC LIMIT 1",
  );
  return row;
}

describe('a fee reminder in the parent app', () => {
  it('offers the fee replies (not the alert ones) until answered, and shows the answer after', async () => {
    const family = await reminderFamily(client());
    const { messageId } = await sendReminder(client(), family);
    const inbox = (await family.parent.get('/api/v1/parent/messages')).json();
    expect(inbox.messages.find((m: { id: number }) => m.id === messageId)).toMatchObject({
      kind: 'fee_reminder',
      can_reply: false,
      can_fee_reply: true,
      fee_answer: null,
    });

    const answered = await feeReply(family, messageId, { reply: 'paid', reference: '  UTR 4411 2233  ' });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toMatchObject({
      id: messageId,
      can_fee_reply: false,
      can_reply: false,
      read_at: expect.any(String),
      fee_answer: { reply: 'paid', reference: 'UTR 4411 2233', date: null, at: expect.any(String) },
    });
    expect(await answersOf(client(), messageId)).toEqual([
      { reply: 'paid', reference: 'UTR 4411 2233', promised_on: null, via: 'parent_app' },
    ]);
    expect(await tasksOf(client(), family.familyId)).toEqual([
      { id: expect.any(Number), reference: 'UTR 4411 2233', via: 'parent_app', status: 'open', message_id: messageId },
    ]);
    expect(await lastActivity()).toEqual({
      user_id: null,
      description: 'Meena Rao says the fees are paid already (reference UTR 4411 2233, parent app)',
    });
    const again = (await family.parent.get(`/api/v1/parent/messages?limit=5`)).json();
    expect(again.messages.find((m: { id: number }) => m.id === messageId).fee_answer.reply).toBe('paid');

    expectRefusal(await feeReply(family, messageId, { reply: 'call' }), 409, 'This fee reminder was already answered');
    expect(await tasksOf(client(), family.familyId)).toHaveLength(1);
  });

  it('"Will pay on" records the promise for a day from tomorrow to 60 days ahead', async () => {
    const family = await reminderFamily(client());
    const { messageId } = await sendReminder(client(), family);
    const date = addDays(today(), 60);
    const answered = await feeReply(family, messageId, { reply: 'will_pay', date });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().fee_answer).toMatchObject({ reply: 'will_pay', date, reference: null });
    expect(await answersOf(client(), messageId)).toEqual([
      { reply: 'will_pay', reference: null, promised_on: date, via: 'parent_app' },
    ]);
    expect(await tasksOf(client(), family.familyId)).toEqual([]);
    expect((await lastActivity())?.description).toBe(
      `Meena Rao promises to pay the fees on ${readableDate(date)} (parent app)`,
    );
  });

  it.each([
    [
      'today',
      () => ({ reply: 'will_pay', date: today() }),
      /^date: must be a day from tomorrow \(\d{4}-\d\d-\d\d\) to \d{4}-\d\d-\d\d$/,
    ],
    ['61 days ahead', () => ({ reply: 'will_pay', date: addDays(today(), 61) }), /^date: must be a day from tomorrow/],
    [
      'a day that does not exist',
      () => ({ reply: 'will_pay', date: `${Number(today().slice(0, 4)) + 1}-02-30` }),
      /^date: must be a day from tomorrow/,
    ],
    ['a date in another form', () => ({ reply: 'will_pay', date: '5/12/2026' }), 'date: must be a date as yyyy-MM-dd'],
    [
      'an empty reference',
      () => ({ reply: 'paid', reference: '   ' }),
      'reference: must be the payment reference, 1 to 35 characters',
    ],
    [
      'a reference of 36 characters',
      () => ({ reply: 'paid', reference: 'X'.repeat(36) }),
      'reference: must be the payment reference, 1 to 35 characters',
    ],
    ['another reply', () => ({ reply: 'later' }), /reply must be one of paid, will_pay or call/],
  ])('refuses %s with 422 and records nothing', async (_name, body, detail) => {
    const family = await reminderFamily(client());
    const { messageId } = await sendReminder(client(), family);
    expectRefusal(await feeReply(family, messageId, body()), 422, detail);
    expect(await answersOf(client(), messageId)).toEqual([]);
    expect(await tasksOf(client(), family.familyId)).toEqual([]);
    expect((await messageRow(messageId))?.read_at).toBeNull();
  });

  it('"Please call me" puts the reminder on the call list', async () => {
    const family = await reminderFamily(client());
    const { messageId } = await sendReminder(client(), family);
    const answered = await feeReply(family, messageId, { reply: 'call' });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().fee_answer).toMatchObject({ reply: 'call', reference: null, date: null });
    expect(await messageRow(messageId)).toEqual({ call_requested_at: expect.any(String), read_at: expect.any(String) });
    expect((await lastActivity())?.description).toBe('Meena Rao asked for a call about the fees (parent app)');
    const list = (await client().as('admin').get('/api/v1/communications/call-list')).json();
    expect(JSON.stringify(list)).toContain(`"message_id":${messageId}`);
  });

  it('records one answer when two arrive at once', async () => {
    const family = await reminderFamily(client());
    const { messageId } = await sendReminder(client(), family);
    const answers = await Promise.all([
      feeReply(family, messageId, { reply: 'paid', reference: 'UPI 1' }),
      feeReply(family, messageId, { reply: 'will_pay', date: addDays(today(), 3) }),
      feeReply(family, messageId, { reply: 'call' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await answersOf(client(), messageId)).toHaveLength(1);
    const [answer] = await answersOf(client(), messageId);
    expect(await tasksOf(client(), family.familyId)).toHaveLength(answer?.reply === 'paid' ? 1 : 0);
  });

  it("answers 404 for another family's reminder, a message that is no fee reminder, or none at all; 403 to staff", async () => {
    const family = await reminderFamily(client());
    const other = await reminderFamily(client());
    const { messageId } = await sendReminder(client(), other);
    const notice = await client().db.query<{ id: number }>(
      `INSERT INTO messages (message_type, kind, subject, message, recipient, sent_by)
       VALUES ('IN_APP', 'notice', 'Holiday', 'Closed on Monday', $1, 'Admin') RETURNING id`,
      [family.phone],
    );
    for (const id of [messageId, notice[0]?.id, 2_000_000_000]) {
      expectRefusal(await feeReply(family, id as number, { reply: 'call' }), 404, 'This fee reminder was not found');
    }
    expect(await answersOf(client(), messageId)).toEqual([]);
    for (const role of ['admin', 'teacher'] as const) {
      const staff = await client().as(role).post(`/api/v1/parent/messages/${messageId}/fee-reply`, { reply: 'call' });
      expect(staff.statusCode).toBe(403);
    }
    expect(await answersOf(client(), messageId)).toEqual([]);
  });
});

// ---- WhatsApp ----

function post(messages: unknown[]) {
  return postCallback(client().anonymous(), callbackOf({ messages }));
}

async function tap(family: ReminderFamily, sent: { messageId: number; wamid: string }, reply: string) {
  const button = buttonFrom(family.phone, `fee:${sent.messageId}:${reply}`, reply, sent.wamid);
  expect((await post([button])).statusCode).toBe(200);
  return button;
}

async function text(family: ReminderFamily, body: string) {
  expect((await post([textFrom(family.phone, body)])).statusCode).toBe(200);
}

/** What the centre wrote back to the family on WhatsApp, oldest first. */
async function toldOnWhatsapp(phone: string): Promise<string[]> {
  const rows = await client().db.query<{ message: string }>(
    "SELECT message FROM messages WHERE recipient = $1 AND kind = 'whatsapp' ORDER BY id",
    [phone],
  );
  return rows.map((row) => row.message);
}

describe('a fee reminder answered on WhatsApp', () => {
  it('"Please call me" puts it on the call list at once; the same callback twice does it once', async () => {
    const family = await reminderFamily(client());
    const sent = await sendReminder(client(), family, true);
    const button = await tap(family, sent, 'call');
    expect((await post([button])).statusCode).toBe(200);
    expect(await answersOf(client(), sent.messageId)).toEqual([
      { reply: 'call', reference: null, promised_on: null, via: 'whatsapp' },
    ]);
    expect((await messageRow(sent.messageId))?.call_requested_at).toEqual(expect.any(String));
    const activities = await client().db.query(
      "SELECT 1 FROM activities WHERE action = 'fees.reminder_answered' AND description LIKE '%(WhatsApp)' AND actor = 'Meena Rao'",
    );
    expect(activities.length).toBeGreaterThanOrEqual(1);
    expect(await toldOnWhatsapp(family.phone)).toEqual([]);
  });

  it('"Paid already" opens a task, asks for the reference, and the next text fills it in (trimmed, 35 characters)', async () => {
    const family = await reminderFamily(client());
    const sent = await sendReminder(client(), family, true);
    await tap(family, sent, 'paid');
    expect(await answersOf(client(), sent.messageId)).toEqual([
      { reply: 'paid', reference: null, promised_on: null, via: 'whatsapp' },
    ]);
    expect(await tasksOf(client(), family.familyId)).toMatchObject([
      { reference: null, via: 'whatsapp', status: 'open' },
    ]);
    const told = await toldOnWhatsapp(family.phone);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/payment reference \(the UPI\/UTR number or the cheque number\)/);

    await text(family, `   UTR ${'9'.repeat(40)}  `);
    const reference = `UTR ${'9'.repeat(31)}`;
    expect(await tasksOf(client(), family.familyId)).toMatchObject([{ reference, status: 'open' }]);
    expect((await answersOf(client(), sent.messageId))[0]?.reference).toBe(reference);

    // Only the next text: a later one is a message like any other.
    await text(family, 'Thank you');
    expect(await tasksOf(client(), family.familyId)).toMatchObject([{ reference }]);
    // The same button again answers nothing twice.
    await tap(family, sent, 'paid');
    expect(await tasksOf(client(), family.familyId)).toHaveLength(1);
    expect(await toldOnWhatsapp(family.phone)).toHaveLength(1);
  });

  it('of two texts at once after "Paid already", one is the reference, on the task and the answer alike', async () => {
    const family = await reminderFamily(client());
    const sent = await sendReminder(client(), family, true);
    await tap(family, sent, 'paid');
    await Promise.all([text(family, 'UTR 111111'), text(family, 'UTR 222222')]);
    const [task] = await tasksOf(client(), family.familyId);
    expect(['UTR 111111', 'UTR 222222']).toContain(task?.reference);
    expect((await answersOf(client(), sent.messageId))[0]?.reference).toBe(task?.reference);
  });

  it("asks in the family's language", async () => {
    const family = await reminderFamily(client());
    await client().db.query("UPDATE students SET parent_language = 'hi' WHERE parent_phone = $1", [family.phone]);
    const sent = await sendReminder(client(), family, true);
    await tap(family, sent, 'will_pay');
    expect(await toldOnWhatsapp(family.phone)).toEqual([
      'धन्यवाद। कृपया वह तारीख लिखकर जवाब दें जिस दिन आप भुगतान करेंगे, जैसे 5/12।',
    ]);
  });

  it('"Will pay on" asks for the day, and the next text records the promise and confirms it', async () => {
    const family = await reminderFamily(client());
    const sent = await sendReminder(client(), family, true);
    await tap(family, sent, 'will_pay');
    expect(await answersOf(client(), sent.messageId)).toEqual([]);
    expect(await toldOnWhatsapp(family.phone)).toEqual([
      'Thank you. Please reply with the date you will pay, e.g. 5/12.',
    ]);
    const date = addDays(today(), 5);
    await text(family, `${Number(date.slice(8))}/${Number(date.slice(5, 7))}`);
    expect(await answersOf(client(), sent.messageId)).toEqual([
      { reply: 'will_pay', reference: null, promised_on: date, via: 'whatsapp' },
    ]);
    expect((await toldOnWhatsapp(family.phone))[1]).toBe(
      `Thank you. We have noted that you will pay on ${readableDate(date)}; there will be no reminders until then.`,
    );
  });

  it('asks once more for a day it cannot read, then puts the family on the call list', async () => {
    const family = await reminderFamily(client());
    const sent = await sendReminder(client(), family, true);
    await tap(family, sent, 'will_pay');
    await text(family, 'next week');
    expect(await answersOf(client(), sent.messageId)).toEqual([]);
    expect((await toldOnWhatsapp(family.phone))[1]).toMatch(
      /^Sorry, we could not read that date\. .*from tomorrow to 60 days ahead/,
    );
    await text(family, addDays(today(), 90).split('-').reverse().join('/'));
    expect(await answersOf(client(), sent.messageId)).toEqual([
      { reply: 'call', reference: null, promised_on: null, via: 'whatsapp' },
    ]);
    expect((await messageRow(sent.messageId))?.call_requested_at).toEqual(expect.any(String));
    expect((await toldOnWhatsapp(family.phone))[2]).toBe(
      'Sorry, we could not read the date. The centre will call you.',
    );
    await text(family, '5');
    expect(await toldOnWhatsapp(family.phone)).toHaveLength(3);
  });

  it('a button from another phone, or on another message than its own, records nothing', async () => {
    const family = await reminderFamily(client());
    const other = await reminderFamily(client());
    const sent = await sendReminder(client(), family, true);
    const elsewhere = await sendReminder(client(), family, true);
    await tap(other, sent, 'paid');
    expect(
      (await post([buttonFrom(family.phone, `fee:${sent.messageId}:call`, 'call', elsewhere.wamid)])).statusCode,
    ).toBe(200);
    expect(await answersOf(client(), sent.messageId)).toEqual([]);
    expect(await tasksOf(client(), other.familyId)).toEqual([]);
    expect(await toldOnWhatsapp(other.phone)).toEqual([]);
  });
});

describe('reading the day a parent writes', () => {
  // The centre's today is 28 Nov 2026 (the test server's zone decides; noon keeps it the same day).
  const now = new Date('2026-11-28T06:30:00Z');
  it.each([
    ['5/12', '2026-12-05'],
    ['05-12', '2026-12-05'],
    ['5.12.', '2026-12-05'],
    ['5/12/2026', '2026-12-05'],
    ['5/12/26', '2026-12-05'],
    ['29/11', '2026-11-29'],
    ['2/1', '2027-01-02'],
    ['5', '2026-12-05'],
    ['30', '2026-11-30'],
    [' 27 ', '2026-12-27'],
  ])('%s is %s', (written, date) => {
    expect(readPromiseDate(written, now)).toBe(date);
  });
  it.each(['28/11', '31/2', '0/1', '5/13', '28/1', 'tomorrow', '5 Dec', '', '1/2/2027/3'])(
    '%s is no day of the promise window',
    (written) => {
      expect(readPromiseDate(written, now)).toBeUndefined();
    },
  );
});
