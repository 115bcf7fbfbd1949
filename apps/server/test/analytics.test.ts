import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, firstDayOfMonth, today } from '../src/lib/time';
import { UTILITY_PRICE_INR } from '../src/modules/analytics/service';
import { expectRefusal } from './helpers/answers';
import { type TestClient, testClient } from './helpers/client';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

const ANALYTICS = '/api/v1/communications/analytics';
const ZERO = {
  families: 0,
  in_app: 0,
  whatsapp: 0,
  delivered: 0,
  read: 0,
  replies: 0,
  sent_by_hand: 0,
  not_reached: 0,
};

interface FamilyMessage {
  status: 'queued' | 'sent' | 'delivered' | 'read' | 'failed';
  type?: 'IN_APP' | 'WHATSAPP';
  reply?: 'sick' | 'family' | 'late' | 'call';
  kind?: string;
  /** When it was sent, if not when its send was. */
  at?: Date;
}

let phones = 0;

/** `messages` stored as the senders store them, one per family, under one send at `at` (or none). */
async function storeSend(
  at: Date,
  subject: string,
  messages: FamilyMessage[],
  options: { withSend?: boolean; kind?: string } = {},
): Promise<{ sendId: number | null; messageIds: number[] }> {
  let sendId: number | null = null;
  if (options.withSend !== false) {
    const [send] = await api.db.query<{ id: number }>(
      `INSERT INTO message_sends (kind, subject, recipients, sent_by, sent_at)
       VALUES ($1, $2, 'all_parents', 'Administrator', $3) RETURNING id`,
      [options.kind ?? 'notice', subject, at.toISOString()],
    );
    sendId = send?.id ?? null;
  }
  const messageIds: number[] = [];
  for (const message of messages) {
    phones += 1;
    const sentAt = (message.at ?? at).toISOString();
    const [row] = await api.db.query<{ id: number }>(
      `INSERT INTO messages (message_type, kind, subject, message, recipient, sent_by, sent_at, delivery_status,
                             delivered_at, read_at, failure_reason, reply, replied_at, send_id)
       VALUES ($1, $2, $3, 'Body', $4, 'Administrator', $5, $6,
               CASE WHEN $6 IN ('delivered', 'read') THEN $5::timestamptz END,
               CASE WHEN $6 = 'read' THEN $5::timestamptz END,
               CASE WHEN $6 = 'failed' THEN 'No channel reaches this family' END,
               $7, CASE WHEN $7::text IS NOT NULL THEN $5::timestamptz END, $8)
       RETURNING id`,
      [
        message.type ?? 'IN_APP',
        message.kind ?? options.kind ?? 'notice',
        subject,
        `+9198${String(phones).padStart(8, '0')}`,
        sentAt,
        message.status,
        message.reply ?? null,
        sendId,
      ],
    );
    messageIds.push(row?.id as number);
  }
  return { sendId, messageIds };
}

/** Noon (or another hour) of a centre day, in the centre's time zone. */
const atHour = (day: string, time = '12:00:00') => new Date(`${day}T${time}`);
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

async function analytics(query: string, role: 'admin' | 'teacher' = 'admin') {
  const response = await api.as(role).get(`${ANALYTICS}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('GET /communications/analytics: the counts', () => {
  it('counts families, reached in the app and on WhatsApp, delivered, read, replies and not reached', async () => {
    const day = addDays(today(), -40);
    const { sendId } = await storeSend(atHour(day), 'Exam timetable', [
      { status: 'read' },
      { status: 'delivered' },
      { status: 'delivered', type: 'WHATSAPP' },
      { status: 'read', type: 'WHATSAPP', reply: 'sick' },
      { status: 'failed' },
      { status: 'sent' },
      { status: 'queued', type: 'WHATSAPP' },
      { status: 'failed', type: 'WHATSAPP', reply: 'call' },
    ]);
    const body = await analytics(`?from=${day}&to=${day}`, 'teacher');
    const expected = {
      families: 8,
      in_app: 2,
      whatsapp: 2,
      delivered: 4,
      read: 2,
      replies: 2,
      sent_by_hand: 0,
      not_reached: 4,
    };
    expect(body.from).toBe(day);
    expect(body.to).toBe(day);
    expect(body.totals).toEqual(expected);
    expect(body.days).toEqual([{ date: day, ...expected }]);
    expect(body.sends).toEqual([
      {
        id: sendId,
        kind: 'notice',
        subject: 'Exam timetable',
        recipients: 'all_parents',
        sent_at: expect.stringMatching(new RegExp(`^${day}T12:00:00\\.000[+-]\\d\\d:\\d\\d$`)),
        sent_by: 'Administrator',
        ...expected,
      },
    ]);
  });

  it('counts a message queued or sent as not reached only once not_reached_minutes have passed, as the call list does', async () => {
    const { sendId } = await storeSend(minutesAgo(1), 'Just now', [
      { status: 'sent', at: minutesAgo(45) },
      { status: 'queued', at: minutesAgo(45) },
      { status: 'sent', at: minutesAgo(20) },
      { status: 'queued', at: minutesAgo(1) },
      { status: 'failed', at: minutesAgo(1) },
      { status: 'delivered', at: minutesAgo(45) },
    ]);
    const sendOf = (body: { sends: { id: number }[] }) => body.sends.find((send) => send.id === sendId);
    // The default 30 minutes: the two 45-minute-old ones, and the failed one at once.
    expect(sendOf(await analytics(''))).toMatchObject({ families: 6, delivered: 1, not_reached: 3 });

    await api.db.query(`UPDATE settings SET value = '60' WHERE key = 'not_reached_minutes'`);
    try {
      expect(sendOf(await analytics(''))).toMatchObject({ families: 6, not_reached: 1 });
      await api.db.query(`UPDATE settings SET value = '10' WHERE key = 'not_reached_minutes'`);
      expect(sendOf(await analytics(''))).toMatchObject({ families: 6, not_reached: 4 });
    } finally {
      await api.db.query(`UPDATE settings SET value = '30' WHERE key = 'not_reached_minutes'`);
    }
  });

  it('counts notices and absence and late alerts, never one-off WhatsApp messages nor app access notices', async () => {
    const day = addDays(today(), -60);
    await storeSend(atHour(day), 'Absence alert', [{ status: 'read', reply: 'family' }], { kind: 'absence_alert' });
    await storeSend(atHour(day), 'Late arrival', [{ status: 'delivered', type: 'WHATSAPP' }], { kind: 'late_alert' });
    await storeSend(
      atHour(day),
      'Not for families',
      [
        { status: 'delivered', type: 'WHATSAPP', kind: 'whatsapp' },
        { status: 'failed', kind: 'access_notice' },
      ],
      { withSend: false },
    );
    const body = await analytics(`?from=${day}&to=${day}`);
    expect(body.totals).toEqual({ ...ZERO, families: 2, in_app: 1, whatsapp: 1, delivered: 2, read: 1, replies: 1 });
    expect(body.sends.map((send: { subject: string; kind: string }) => [send.kind, send.subject]).sort()).toEqual([
      ['absence_alert', 'Absence alert'],
      ['late_alert', 'Late arrival'],
    ]);
  });

  it('counts each send on its own, newest first, and messages stored without a send in the totals and days only', async () => {
    const day = addDays(today(), -80);
    const morning = await storeSend(atHour(day, '08:00:00'), 'Morning notice', [
      { status: 'read' },
      { status: 'delivered', type: 'WHATSAPP' },
    ]);
    const evening = await storeSend(atHour(day, '18:00:00'), 'Evening notice', [{ status: 'failed' }]);
    await storeSend(atHour(day, '10:00:00'), 'Older message', [{ status: 'delivered' }, { status: 'read' }], {
      withSend: false,
    });
    const body = await analytics(`?from=${day}&to=${day}`);
    expect(body.totals).toEqual({
      ...ZERO,
      families: 5,
      in_app: 3,
      whatsapp: 1,
      delivered: 4,
      read: 2,
      not_reached: 1,
    });
    expect(body.days).toEqual([{ date: day, ...body.totals }]);
    expect(body.sends).toEqual([
      expect.objectContaining({ id: evening.sendId, subject: 'Evening notice', ...ZERO, families: 1, not_reached: 1 }),
      expect.objectContaining({
        id: morning.sendId,
        subject: 'Morning notice',
        ...ZERO,
        families: 2,
        in_app: 1,
        whatsapp: 1,
        delivered: 2,
        read: 1,
      }),
    ]);
  });
});

describe('GET /communications/analytics: the days', () => {
  it('answers every day of the range, days without messages as zeros, each message on its centre day', async () => {
    const from = addDays(today(), -120);
    const to = addDays(from, 4);
    await storeSend(atHour(from, '00:00:00'), 'First minute', [{ status: 'read' }]);
    await storeSend(atHour(addDays(from, 2), '23:59:59'), 'Last minute', [
      { status: 'delivered', type: 'WHATSAPP' },
      { status: 'failed' },
    ]);
    await storeSend(atHour(addDays(from, 3), '00:00:00'), 'Next midnight', [{ status: 'delivered' }]);
    // Just outside the range on either side.
    await storeSend(atHour(addDays(from, -1), '23:59:59'), 'Day before', [{ status: 'read' }]);
    await storeSend(atHour(addDays(to, 1), '00:00:00'), 'Day after', [{ status: 'read' }]);

    const body = await analytics(`?from=${from}&to=${to}`);
    expect(body.days).toEqual([
      { date: from, ...ZERO, families: 1, in_app: 1, delivered: 1, read: 1 },
      { date: addDays(from, 1), ...ZERO },
      { date: addDays(from, 2), ...ZERO, families: 2, whatsapp: 1, delivered: 1, not_reached: 1 },
      { date: addDays(from, 3), ...ZERO, families: 1, in_app: 1, delivered: 1 },
      { date: to, ...ZERO },
    ]);
    expect(body.totals.families).toBe(4);
    expect(body.sends.map((send: { subject: string }) => send.subject)).toEqual([
      'Next midnight',
      'Last minute',
      'First minute',
    ]);
  });

  it('covers the last 30 days up to today when no range is given, and 30 days up to `to` when only it is', async () => {
    const body = await analytics('');
    expect(body.to).toBe(today());
    expect(body.from).toBe(addDays(today(), -29));
    expect(body.days).toHaveLength(30);
    expect(body.days[0].date).toBe(body.from);
    expect(body.days.at(-1).date).toBe(today());

    const to = addDays(today(), -100);
    const earlier = await analytics(`?to=${to}`);
    expect([earlier.from, earlier.to, earlier.days.length]).toEqual([addDays(to, -29), to, 30]);
  });

  it('answers an empty range as zeros, and takes a whole year of 366 days', async () => {
    const from = addDays(today(), -1000);
    const to = addDays(from, 365);
    const body = await analytics(`?from=${from}&to=${to}`);
    expect(body.totals).toEqual(ZERO);
    expect(body.sends).toEqual([]);
    expect(body.days).toHaveLength(366);
    expect(body.days.every((day: Record<string, unknown>) => day.families === 0)).toBe(true);
    expect(body.days.at(-1).date).toBe(to);
  });
});

describe('GET /communications/analytics: the WhatsApp cost of the month', () => {
  it("counts this month's WhatsApp template messages sent, at Meta's utility price for India", async () => {
    const before = (await analytics('')).whatsapp_cost;
    expect(before).toEqual({
      month: today().slice(0, 7),
      template_messages: 0,
      price_per_message: UTILITY_PRICE_INR,
      currency: 'INR',
      estimate: 0,
    });
    expect(UTILITY_PRICE_INR).toBe(0.115);

    const { messageIds } = await storeSend(minutesAgo(5), 'Costed', [
      { status: 'delivered', type: 'WHATSAPP' },
      { status: 'read', type: 'WHATSAPP' },
      { status: 'failed', type: 'WHATSAPP' },
      { status: 'delivered' },
      { status: 'delivered', type: 'WHATSAPP' },
      { status: 'queued', type: 'WHATSAPP' },
    ]);
    const monthStart = atHour(firstDayOfMonth(today()), '00:00:00');
    const attempt = (id: number | undefined, channel: string, template: string | null, sentAt: Date | null) =>
      api.db.query(
        `INSERT INTO message_attempts (message_id, channel, status, whatsapp_template, sent_at)
         VALUES ($1, $2, 'sent', $3, $4)`,
        [id, channel, template, sentAt?.toISOString() ?? null],
      );
    // Counted: three templates sent this month (one at its very first moment, one that failed later).
    await attempt(messageIds[0], 'whatsapp', 'tuitiondesk_notice', minutesAgo(5));
    await attempt(messageIds[1], 'whatsapp', 'tuitiondesk_absence_alert', monthStart);
    await attempt(messageIds[2], 'whatsapp', 'tuitiondesk_notice', minutesAgo(4));
    // Not counted: a push, free text inside the parent's window, one still queued, one last month.
    await attempt(messageIds[3], 'push', null, minutesAgo(5));
    await attempt(messageIds[4], 'whatsapp', null, minutesAgo(5));
    await attempt(messageIds[5], 'whatsapp', 'tuitiondesk_notice', null);
    await attempt(messageIds[3], 'whatsapp', 'tuitiondesk_notice', new Date(monthStart.getTime() - 1));

    const body = await analytics(`?from=${addDays(today(), -400)}&to=${addDays(today(), -300)}`);
    // The month's cost whatever range the counts cover.
    expect(body.totals).toEqual(ZERO);
    expect(body.whatsapp_cost).toEqual({
      month: today().slice(0, 7),
      template_messages: 3,
      price_per_message: 0.115,
      currency: 'INR',
      estimate: 0.35,
    });
  });
});

describe('GET /communications/analytics: refusals', () => {
  it.each([
    [`?from=${today()}&to=${addDays(today(), -1)}`, `to: must not be before from (${today()})`],
    [`?from=${addDays(today(), 1)}`, `to: must not be before from (${addDays(today(), 1)})`],
    [
      `?from=${addDays(today(), -366)}&to=${today()}`,
      'to: must be at most 366 days after from: choose a shorter period',
    ],
    ['?from=2026-02-30', 'from: is not a real calendar date'],
    ['?to=22-11-2026', 'to: must be a date written yyyy-MM-dd'],
  ])('refuses %s with 422', async (query, detail) => {
    expectRefusal(await api.as('admin').get(`${ANALYTICS}${query}`), 422, detail);
  });

  it('answers admins and teachers, refuses parents and callers without a token', async () => {
    expect((await api.as('admin').get(ANALYTICS)).statusCode).toBe(200);
    expect((await api.as('teacher').get(ANALYTICS)).statusCode).toBe(200);
    const family = await api.family();
    expectRefusal(await api.as('parent', family).get(ANALYTICS), 403, 'A parent sign-in cannot use the staff console');
    expect((await api.anonymous().get(ANALYTICS)).statusCode).toBe(401);
  });
});
