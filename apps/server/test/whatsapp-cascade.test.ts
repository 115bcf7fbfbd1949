import { pushPayloadSchema } from '@tuitiondesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WhatsappWorker } from '../src/modules/delivery/whatsapp-worker';
import { expectRefusal } from './helpers/answers';
import { waitFor } from './helpers/async';
import type { TestClient } from './helpers/client';
import type { FakeCloudApi } from './helpers/fake-cloud-api';
import type { FakeDevice, FakePushService } from './helpers/fake-push-service';
import { checkIntegrity } from './helpers/integrity';
import { loopbackPush, parentWithToken, startPushApp, stopPushApp } from './helpers/push';
import { uniquePhone } from './helpers/test-app';
import { postCallback, whatsappConfig } from './helpers/whatsapp';
import { startTestCloudApi, withQuickWhatsappWorker } from './helpers/whatsapp-worker';

/**
 * The delivery cascade end to end, against the fake push service and the fake Cloud API together: the
 * real push worker, the real WhatsApp adapter and worker, and the real webhook.
 */
let api: TestClient;
let push: FakePushService;
let cloud: FakeCloudApi;

beforeAll(async () => {
  cloud = await startTestCloudApi({ autoStatuses: { delivered: 15 } });
  ({ api, fake: push } = await startPushApp({
    config: { push: loopbackPush(), whatsapp: whatsappConfig(cloud.baseUrl, { dailyLimit: 1000 }) },
    prepare: withQuickWhatsappWorker,
  }));
  cloud.deliver = async (body, signature) => (await postCallback(api.anonymous(), body, signature)).statusCode;
  api.ctx.whatsappWorker?.start();
  await setFallbackMinutes(10);
});

afterAll(async () => {
  await api?.ctx.whatsappWorker?.stop(1000);
  await cloud?.settle();
  await cloud?.close();
  await stopPushApp(api, push);
});

async function setFallbackMinutes(minutes: number) {
  await api.db.query("UPDATE settings SET value = $1 WHERE key = 'whatsapp_fallback_minutes'", [String(minutes)]);
}

interface Family {
  phone: string;
  name: string;
  device?: FakeDevice;
}

/** A family in `className`: with the parent app and a device, opted in to WhatsApp, both, or neither. */
async function family(className: string, name: string, has: { app?: boolean; whatsapp?: boolean }): Promise<Family> {
  if (has.app) {
    const parent = await parentWithToken(api, name);
    await api.db.query('UPDATE students SET class_name = $2 WHERE parent_phone = $1', [parent.phone, className]);
    const device = push.createDevice();
    const subscribed = await api.as('parent', parent).post('/api/v1/parent/push/subscriptions', {
      endpoint: device.endpoint,
      keys: device.keys,
    });
    expect(subscribed.statusCode).toBe(201);
    if (has.whatsapp) {
      const [student] = await api.db.query<{ id: number }>('SELECT id FROM students WHERE parent_phone = $1', [
        parent.phone,
      ]);
      await api.as('admin').put(`/api/v1/students/${student?.id}`, { parent_whatsapp_opt_in: true });
    }
    return { phone: parent.phone, name, device };
  }
  const phone = uniquePhone();
  await api.student({
    full_name: `${name} Child`,
    class_name: className,
    parent_name: name,
    parent_phone: phone,
    parent_whatsapp_opt_in: has.whatsapp === true,
  });
  return { phone, name };
}

async function messageTo(phone: string, subject: string) {
  const rows = await api.db.query<{
    id: number;
    message_type: string;
    delivery_status: string;
    failure_reason: string | null;
  }>('SELECT id, message_type, delivery_status, failure_reason FROM messages WHERE recipient = $1 AND subject = $2', [
    phone,
    subject,
  ]);
  expect(rows).toHaveLength(1);
  return rows[0] as (typeof rows)[number];
}

async function attemptsOf(messageId: number) {
  return api.db.query<{ channel: string; status: string; waiting_reason: string | null }>(
    'SELECT channel, status, waiting_reason FROM message_attempts WHERE message_id = $1 ORDER BY id',
    [messageId],
  );
}

/** The push the device got, confirmed as the parent app's service worker does. */
async function confirmPush(device: FakeDevice) {
  const received = await waitFor('the push', () => push.receivedBy(device.endpoint).at(-1));
  const payload = pushPayloadSchema.parse(JSON.parse(received.plaintext));
  const confirmed = await api.anonymous().post('/api/v1/parent/receipts', { receipt: payload.receipt });
  expect(confirmed.statusCode).toBe(200);
  return payload;
}

/** As if the centre's fallback time had passed: WhatsApp attempts waiting for it fall due now. */
async function fallbackTimePasses() {
  await api.db.query(
    `UPDATE message_attempts SET next_attempt_at = now() WHERE channel = 'whatsapp' AND status = 'queued' AND tries = 0`,
  );
  api.ctx.whatsappWorker?.wake();
}

const whatsappTo = (phone: string) => cloud.accepted.filter((message) => message.to === phone.slice(1));

describe('a message to a class reaches each family on the first channel that can', () => {
  it('app first, WhatsApp for the others, WhatsApp again when the app did not confirm in time, nobody left out unseen', async () => {
    const appOnly = await family('8', 'Anita Rao', { app: true });
    const whatsappOnly = await family('8', 'Bharat Joshi', { whatsapp: true });
    const bothConfirmed = await family('8', 'Chitra Pillai', { app: true, whatsapp: true });
    const bothSilent = await family('8', 'Deepak Menon', { app: true, whatsapp: true });
    const neither = await family('8', 'Esha Kapoor', {});

    const sent = await api.as('teacher').post('/api/v1/messages/send-to-parents', {
      subject: 'Exam timetable',
      message: 'The maths test is on Friday.\nBring a geometry box.',
      recipients: '8',
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({
      // One family of the five has no channel: "sent" is said only of the four a channel took (ADR 044).
      message:
        'Message sent to 4 of 5 parent(s): 3 in the app, 1 on WhatsApp, 1 with no channel yet: they go on your send list.',
      in_app_count: 3,
      whatsapp_count: 1,
      unreachable_count: 1,
      whatsapp_waiting: 0,
    });

    // WhatsApp-only: the notice template at once, the new lines flattened (the Cloud API refuses them).
    const [template] = await waitFor('the WhatsApp message', () =>
      whatsappTo(whatsappOnly.phone).length ? whatsappTo(whatsappOnly.phone) : undefined,
    );
    expect(template).toMatchObject({
      type: 'template',
      template: 'tuitiondesk_notice',
      language: 'en',
      parameters: ['TuitionDesk', 'Exam timetable', 'The maths test is on Friday. Bring a geometry box.'],
    });
    await waitFor('delivered on WhatsApp', async () => {
      const row = await messageTo(whatsappOnly.phone, 'Exam timetable');
      return row.delivery_status === 'delivered' ? row : undefined;
    });
    expect((await messageTo(whatsappOnly.phone, 'Exam timetable')).message_type).toBe('WHATSAPP');

    // The app families get the push; two confirm it.
    await confirmPush(appOnly.device as FakeDevice);
    await confirmPush(bothConfirmed.device as FakeDevice);
    await waitFor(
      'the silent device got its push',
      () => push.receivedBy((bothSilent.device as FakeDevice).endpoint)[0],
    );
    const silent = await messageTo(bothSilent.phone, 'Exam timetable');
    // The push service has the push before the worker has read its answer and marked the attempt sent.
    await waitFor("the silent device's push marked sent", async () =>
      (await attemptsOf(silent.id))[0]?.status === 'sent' ? true : undefined,
    );
    expect(await attemptsOf(silent.id)).toEqual([
      { channel: 'push', status: 'sent', waiting_reason: null },
      {
        channel: 'whatsapp',
        status: 'queued',
        waiting_reason: 'Waits 10 min for the parent app to confirm; sent on WhatsApp if it does not.',
      },
    ]);
    // The confirmed family's fallback is no longer needed.
    const confirmed = await messageTo(bothConfirmed.phone, 'Exam timetable');
    expect(confirmed).toMatchObject({ delivery_status: 'delivered', message_type: 'IN_APP' });
    expect(await attemptsOf(confirmed.id)).toEqual([{ channel: 'push', status: 'delivered', waiting_reason: null }]);

    // Ten minutes on: only the silent family gets it again, on WhatsApp.
    await fallbackTimePasses();
    await waitFor('the fallback delivered', async () => {
      const row = await messageTo(bothSilent.phone, 'Exam timetable');
      return row.delivery_status === 'delivered' ? row : undefined;
    });
    expect(await messageTo(bothSilent.phone, 'Exam timetable')).toMatchObject({ message_type: 'WHATSAPP' });
    expect(whatsappTo(bothConfirmed.phone)).toEqual([]);
    expect(whatsappTo(appOnly.phone)).toEqual([]);

    // Nobody could reach the last family: failed at once, with the reason, on the call list.
    expect(await messageTo(neither.phone, 'Exam timetable')).toMatchObject({
      delivery_status: 'failed',
      failure_reason: 'No channel reaches this family: no parent app notifications and no WhatsApp opt-in.',
    });
    const callList = await api.as('teacher').get('/api/v1/communications/call-list');
    expect(callList.json().items).toEqual(
      expect.arrayContaining([expect.objectContaining({ phone: neither.phone, reason: 'not_reached' })]),
    );

    // The history shows every attempt of the silent family, in order.
    const history = await api.as('teacher').get('/api/v1/communications/history?limit=50');
    const item = history.json().find((entry: { id: number }) => entry.id === silent.id);
    expect(item).toMatchObject({ message_type: 'WHATSAPP', delivery_status: 'delivered', kind: 'notice' });
    expect(item.attempts.map((a: { channel: string; status: string }) => [a.channel, a.status])).toEqual([
      ['push', 'sent'],
      ['whatsapp', 'delivered'],
    ]);
    expect(cloud.windowViolations).toEqual([]);
  });

  it('with a fallback time of 0, sends on WhatsApp at once beside the push', async () => {
    await setFallbackMinutes(0);
    try {
      const both = await family('9', 'Farah Ali', { app: true, whatsapp: true });
      await api
        .as('admin')
        .post('/api/v1/messages/send-to-parents', { subject: 'At once', message: 'Now.', recipients: '9' });
      await waitFor('WhatsApp at once', () => (whatsappTo(both.phone).length > 0 ? true : undefined));
      await waitFor('the push too', () => push.receivedBy((both.device as FakeDevice).endpoint)[0]);
    } finally {
      await setFallbackMinutes(10);
    }
  });
});

describe('the Cloud API refusing, failing and limiting', () => {
  it('retries a rate limit (130429) with back-off and then sends once', async () => {
    const target = await family('10', 'Gita Rao', { whatsapp: true });
    cloud.faultFor.set(target.phone.slice(1), {
      kind: 'refuse',
      status: 429,
      code: 130429,
      message: '(#130429) Rate limit hit',
      times: 2,
    });
    await api
      .as('admin')
      .post('/api/v1/messages/send-to-parents', { subject: 'Busy', message: 'Later.', recipients: '10' });
    await waitFor('sent after the rate limit', () => (whatsappTo(target.phone).length === 1 ? true : undefined));
    const message = await waitFor('sent', async () => {
      const row = await messageTo(target.phone, 'Busy');
      return row.delivery_status !== 'queued' ? row : undefined;
    });
    expect(['sent', 'delivered']).toContain(message.delivery_status);
    expect(cloud.refused.some((refusal) => refusal.code === 130429)).toBe(true);
  });

  it('an undeliverable number (131026) leaves the family on the call list', async () => {
    const target = await family('10', 'Hari Das', { whatsapp: true });
    cloud.quiet.add(target.phone.slice(1));
    await api
      .as('admin')
      .post('/api/v1/messages/send-to-parents', { subject: 'Undeliverable', message: 'Hello.', recipients: '10' });
    const [accepted] = await waitFor('accepted', () =>
      whatsappTo(target.phone).length ? whatsappTo(target.phone) : undefined,
    );
    await cloud.postStatus(accepted?.wamid as string, 'failed', {
      error: { code: 131026, title: 'Message undeliverable', message: 'Unable to deliver message' },
    });
    await cloud.settle();
    const message = await waitFor('failed', async () => {
      const row = await messageTo(target.phone, 'Undeliverable');
      return row.delivery_status === 'failed' ? row : undefined;
    });
    expect(message.failure_reason).toBe('Message undeliverable: Unable to deliver message');
    const callList = await api.as('admin').get('/api/v1/communications/call-list');
    expect(callList.json().items).toEqual(
      expect.arrayContaining([expect.objectContaining({ message_id: message.id, reason: 'not_reached' })]),
    );
  });

  it('a refusal that cannot get better fails the attempt with the code and the reason at once', async () => {
    const target = await family('10', 'Isha Sen', { whatsapp: true });
    cloud.faultFor.set(target.phone.slice(1), {
      kind: 'refuse',
      status: 400,
      code: 131030,
      message: '(#131030) Recipient phone number not in allowed list',
    });
    try {
      await api
        .as('admin')
        .post('/api/v1/messages/send-to-parents', { subject: 'Refused', message: 'No.', recipients: '10' });
      const message = await waitFor('failed', async () => {
        const row = await messageTo(target.phone, 'Refused');
        return row.delivery_status === 'failed' ? row : undefined;
      });
      expect(message.failure_reason).toBe('(#131030) Recipient phone number not in allowed list');
      const [attempt] = await api.db.query<{ error_code: number }>(
        "SELECT error_code FROM message_attempts WHERE message_id = $1 AND channel = 'whatsapp'",
        [message.id],
      );
      expect(attempt?.error_code).toBe(131030);
    } finally {
      cloud.faultFor.delete(target.phone.slice(1));
    }
  });
});

describe('the daily limit on new conversations', () => {
  it('sends what fits, keeps the rest waiting for the window, says so at send time, and sends it later', async () => {
    await api.ctx.whatsappWorker?.stop(1000);
    const limited = new WhatsappWorker({
      db: api.db,
      sender: api.ctx.whatsapp as NonNullable<typeof api.ctx.whatsapp>,
      config: { ...(api.ctx.config.whatsapp as NonNullable<typeof api.ctx.config.whatsapp>), dailyLimit: 0 },
      options: { pollMs: 30 },
    });
    const used = await api.db.query<{ count: number }>(
      `SELECT count(DISTINCT m.recipient)::int AS count FROM message_attempts a JOIN messages m ON m.id = a.message_id
        WHERE a.conversation_at > now() - interval '24 hours'`,
    );
    const limit = (used[0]?.count ?? 0) + 2;
    (limited as unknown as { deps: { config: { dailyLimit: number } } }).deps.config.dailyLimit = limit;
    const saved = api.ctx.config.whatsapp?.dailyLimit;
    (api.ctx.config.whatsapp as { dailyLimit: number }).dailyLimit = limit;
    try {
      const families: Family[] = [];
      for (const name of ['Jaya', 'Kabir', 'Leela', 'Mohan'])
        families.push(await family('7', `${name} Limit`, { whatsapp: true }));
      const sent = await api.as('admin').post('/api/v1/messages/send-to-parents', {
        subject: 'Limited',
        message: 'Four families.',
        recipients: '7',
      });
      expect(sent.json()).toMatchObject({ whatsapp_count: 4, whatsapp_waiting: 2 });
      expect(sent.json().notice).toBe(
        `2 WhatsApp messages are over WhatsApp's daily limit of ${limit} new conversations and will go as the limit allows.`,
      );
      limited.start();
      await waitFor('two sent', () =>
        families.filter((f) => whatsappTo(f.phone).length > 0).length === 2 ? true : undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(families.filter((f) => whatsappTo(f.phone).length > 0)).toHaveLength(2);
      const waiting = await api.db.query<{ waiting_reason: string }>(
        `SELECT a.waiting_reason FROM message_attempts a JOIN messages m ON m.id = a.message_id
          WHERE m.subject = 'Limited' AND a.status = 'queued'`,
      );
      expect(waiting).toHaveLength(2);
      expect(waiting[0]?.waiting_reason).toMatch(/^Over WhatsApp's daily limit of \d+ new conversations; goes when/);

      // A day later the window has moved: the two waiting go.
      await api.db.query(
        "UPDATE message_attempts SET conversation_at = conversation_at - interval '25 hours' WHERE conversation_at IS NOT NULL",
      );
      await api.db.query(
        `UPDATE message_attempts SET next_attempt_at = now() WHERE status = 'queued' AND channel = 'whatsapp'`,
      );
      limited.wake();
      await waitFor('all four sent', () =>
        families.every((f) => whatsappTo(f.phone).length === 1) ? true : undefined,
      );
    } finally {
      await limited.stop(1000);
      (api.ctx.config.whatsapp as { dailyLimit: number }).dailyLimit = saved ?? 1000;
      api.ctx.whatsappWorker?.start();
    }
  });
});

describe('two instances draining one queue', () => {
  it('send each WhatsApp message exactly once', async () => {
    const families: Family[] = [];
    for (let i = 0; i < 12; i += 1) families.push(await family('9', `Twin ${i}`, { whatsapp: true }));
    const second = new WhatsappWorker({
      db: api.db,
      sender: api.ctx.whatsapp as NonNullable<typeof api.ctx.whatsapp>,
      config: api.ctx.config.whatsapp as NonNullable<typeof api.ctx.config.whatsapp>,
      options: { pollMs: 10, batchSize: 3 },
    });
    second.start();
    try {
      const [a, b] = await Promise.all([
        api
          .as('admin')
          .post('/api/v1/messages/send-to-parents', { subject: 'Twice A', message: 'A.', recipients: '9' }),
        api
          .as('teacher')
          .post('/api/v1/messages/send-to-parents', { subject: 'Twice B', message: 'B.', recipients: '9' }),
      ]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      await waitFor('every family got both', () =>
        families.every((f) => whatsappTo(f.phone).length === 2) ? true : undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (const f of families) expect(whatsappTo(f.phone)).toHaveLength(2);
    } finally {
      await second.stop(1000);
    }
  });
});

describe('one WhatsApp message to one parent (send-whatsapp)', () => {
  it('sends the notice template outside the window, free text inside it, and refuses without consent', async () => {
    const optedIn = await family('7', 'Nisha Template', { whatsapp: true });
    const first = await api
      .as('admin')
      .post('/api/v1/communications/send-whatsapp', { to: optedIn.phone, message: 'Fees are due.' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      message: 'WhatsApp message sent',
      delivery_status: 'sent',
      sent_as: 'template',
    });
    expect(whatsappTo(optedIn.phone).at(-1)).toMatchObject({
      type: 'template',
      template: 'tuitiondesk_notice',
      parameters: ['TuitionDesk', 'Message', 'Fees are due.'],
    });

    await cloud.postText(optedIn.phone, 'Thank you, paid today.');
    const answer = await api
      .as('admin')
      .post('/api/v1/communications/send-whatsapp', { to: optedIn.phone, message: 'Received, thank you!' });
    expect(answer.json()).toMatchObject({ sent_as: 'text' });
    expect(whatsappTo(optedIn.phone).at(-1)).toMatchObject({ type: 'text', text: 'Received, thank you!' });

    const stranger = await family('7', 'Omar Noconsent', {});
    const refused = await api
      .as('admin')
      .post('/api/v1/communications/send-whatsapp', { to: stranger.phone, message: 'Hi' });
    expectRefusal(
      refused,
      409,
      "This parent has not agreed to WhatsApp messages and has not written to the centre in the last 24 hours. Record the parent's agreement on the student first.",
    );
    expect(whatsappTo(stranger.phone)).toEqual([]);
    expect(cloud.windowViolations).toEqual([]);
  });

  it("answers 502 with WhatsApp's reason when it refuses, and keeps the failed attempt", async () => {
    const target = await family('7', 'Pooja Refused', { whatsapp: true });
    cloud.faultFor.set(target.phone.slice(1), {
      kind: 'refuse',
      status: 400,
      code: 131009,
      message: '(#131009) Parameter value is not valid',
    });
    try {
      const response = await api
        .as('admin')
        .post('/api/v1/communications/send-whatsapp', { to: target.phone, message: 'x' });
      expectRefusal(response, 502, 'WhatsApp did not accept the message: (#131009) Parameter value is not valid');
      const [row] = await api.db.query<{ delivery_status: string; failure_reason: string }>(
        "SELECT delivery_status, failure_reason FROM messages WHERE recipient = $1 AND kind = 'whatsapp'",
        [target.phone],
      );
      expect(row).toEqual({ delivery_status: 'failed', failure_reason: '(#131009) Parameter value is not valid' });
    } finally {
      cloud.faultFor.delete(target.phone.slice(1));
    }
  });
});

describe('absence alerts on WhatsApp with one-tap replies', () => {
  it("sends the alert template with the four replies; the parent's tap becomes the reason on Approval", async () => {
    const target = await family('10', 'Qasim Khan', { whatsapp: true });
    const [student] = await api.db.query<{ id: number; full_name: string }>(
      'SELECT id, full_name FROM students WHERE parent_phone = $1',
      [target.phone],
    );
    const date = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    await api
      .as('admin')
      .post('/api/v1/attendance/mark', { date, records: [{ student_id: student?.id, status: 'late' }] });
    const pending = await api.as('admin').get(`/api/v1/attendance/pending-approval?attendance_date=${date}`);
    const record = (pending.json() as { id: number; student_id: number }[]).find((r) => r.student_id === student?.id);
    await api.as('admin').post('/api/v1/attendance/approve', { attendance_ids: [record?.id] });

    const [alert] = await waitFor('the alert', () =>
      whatsappTo(target.phone).length ? whatsappTo(target.phone) : undefined,
    );
    const [message] = await api.db.query<{ id: number }>(
      "SELECT id FROM messages WHERE attendance_id = $1 AND kind = 'late_alert'",
      [record?.id],
    );
    expect(alert).toMatchObject({
      template: 'tuitiondesk_late_alert',
      language: 'en',
      buttonPayloads: ['sick', 'family', 'late', 'call'].map((reply) => `reply:${message?.id}:${reply}`),
    });
    expect(alert?.parameters?.slice(0, 2)).toEqual([student?.full_name, 'late']);
    expect(alert?.parameters?.[2]).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);

    expect(
      await cloud.postButton(target.phone, `reply:${message?.id}:late`, 'Coming late', alert?.wamid as string),
    ).toBe(200);
    const history = await api.as('admin').get(`/api/v1/attendance/history?start_date=${date}&end_date=${date}`);
    const row = (history.json() as { student_id: number; parent_reason: string | null }[]).find(
      (r) => r.student_id === student?.id,
    );
    expect(row?.parent_reason).toBe('Coming late');
  });
});

describe('afterwards', () => {
  it('every callback was accepted and the database is consistent', async () => {
    await cloud.settle();
    expect(cloud.callbackAnswers.every((status) => status === 200)).toBe(true);
    expect(await checkIntegrity(api.db)).toEqual([]);
  });
});
