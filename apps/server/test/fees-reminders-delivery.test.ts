import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeeReplyPayload } from '../src/modules/delivery';
import { familyIdForPhone, type ReminderPayLinks, runReminderRound } from '../src/modules/fees';
import { waitFor } from './helpers/async';
import type { TestClient } from './helpers/client';
import { APPROVED_TEMPLATES, type FakeCloudApi } from './helpers/fake-cloud-api';
import type { FakeDevice, FakePushService } from './helpers/fake-push-service';
import { day, pay, postCharge } from './helpers/fees-ledger';
import { loopbackPush, parentWithToken, startPushApp, stopPushApp } from './helpers/push';
import { uniquePhone } from './helpers/test-app';
import { postCallback, whatsappConfig } from './helpers/whatsapp';
import { startTestCloudApi, withQuickWhatsappWorker } from './helpers/whatsapp-worker';

/**
 * A fee reminder through the delivery cascade (ADR 061), against the fake push service and the fake
 * Cloud API: WhatsApp's utility template with the reply buttons, and never to a family that paid
 * meanwhile, neither as the WhatsApp fallback nor from the send list.
 */
let api: TestClient;
let push: FakePushService;
let cloud: FakeCloudApi;
const links: ReminderPayLinks = {
  make: async () => {
    throw new Error('online payment is off here');
  },
};

beforeAll(async () => {
  cloud = await startTestCloudApi({
    // As docs/whatsapp.md has the centre submit it: five parameters, three quick replies.
    templates: {
      ...APPROVED_TEMPLATES,
      tuitiondesk_fee_reminder: { languages: ['en', 'hi', 'mr', 'ta', 'bn', 'ur'], parameters: 5, buttons: 3 },
    },
    autoStatuses: { delivered: 15 },
  });
  ({ api, fake: push } = await startPushApp({
    config: { push: loopbackPush(), whatsapp: whatsappConfig(cloud.baseUrl, { dailyLimit: 1000 }) },
    prepare: withQuickWhatsappWorker,
  }));
  cloud.deliver = async (body, signature) => (await postCallback(api.anonymous(), body, signature)).statusCode;
  api.ctx.whatsappWorker?.start();
  await api.db.query("UPDATE settings SET value = '10' WHERE key = 'whatsapp_fallback_minutes'");
  await api.db.query("UPDATE settings SET value = 'Bright Minds' WHERE key = 'centre_name'");
});

afterAll(async () => {
  await api?.ctx.whatsappWorker?.stop(1000);
  await cloud?.settle();
  await cloud?.close();
  await stopPushApp(api, push);
});

/** Each test reminds of charges due on days of its own, so the rounds never meet. */
let offset = 200;
function freshDue(): string {
  offset += 30;
  return day(offset);
}

/** A family owing ₹750 due `dueOn`: with the parent app and a device, opted in to WhatsApp, both or neither. */
async function owingFamily(dueOn: string, has: { app?: boolean; whatsapp?: boolean }, language = 'en') {
  let phone: string;
  let device: FakeDevice | undefined;
  if (has.app) {
    const parent = await parentWithToken(api, 'Sunita Das');
    phone = parent.phone;
    device = push.createDevice();
    const subscribed = await api.as('parent', parent).post('/api/v1/parent/push/subscriptions', {
      endpoint: device.endpoint,
      keys: device.keys,
    });
    expect(subscribed.statusCode).toBe(201);
    await api.db.query('UPDATE students SET parent_whatsapp_opt_in = $2 WHERE parent_phone = $1', [
      phone,
      has.whatsapp === true,
    ]);
  } else {
    phone = uniquePhone();
    await api.student({ full_name: 'Rohan Das', parent_phone: phone, parent_whatsapp_opt_in: has.whatsapp === true });
  }
  await api.db.query('UPDATE students SET parent_language = $2 WHERE parent_phone = $1', [phone, language]);
  const familyId = await api.db.transaction((tx) => familyIdForPhone(tx, phone));
  const [student] = await api.db.query<{ id: number }>('SELECT id FROM students WHERE parent_phone = $1', [phone]);
  await postCharge(api.db, familyId, student?.id ?? null, 75_000, dueOn);
  return { phone, familyId, device };
}

const roundOn = (dueOn: string) => runReminderRound(api.ctx, links, { now: new Date(`${dueOn}T06:30:00Z`) });
const whatsappTo = (phone: string) => cloud.accepted.filter((message) => message.to === phone.slice(1));

async function reminderTo(phone: string) {
  const rows = await api.db.query<{ id: number; delivery_status: string; failure_reason: string | null }>(
    "SELECT id, delivery_status, failure_reason FROM messages WHERE recipient = $1 AND kind = 'fee_reminder'",
    [phone],
  );
  expect(rows).toHaveLength(1);
  return rows[0] as (typeof rows)[number];
}

async function whatsappAttempt(messageId: number) {
  const [row] = await api.db.query<{ status: string; failure_reason: string | null }>(
    "SELECT status, failure_reason FROM message_attempts WHERE message_id = $1 AND channel = 'whatsapp'",
    [messageId],
  );
  return row;
}

/** A family with the app and WhatsApp reminded: the push went, the WhatsApp fallback waits. */
async function remindedOnTheApp() {
  const due = freshDue();
  const family = await owingFamily(due, { app: true, whatsapp: true });
  expect((await roundOn(due)).sent).toBe(1);
  const message = await reminderTo(family.phone);
  await waitFor('the push', () => push.receivedBy((family.device as FakeDevice).endpoint)[0]);
  return { family, message };
}

/** As if the fallback time had passed, the app not having confirmed: the WhatsApp attempt falls due. */
async function fallbackFallsDue(messageId: number) {
  await api.db.query(
    "UPDATE message_attempts SET next_attempt_at = now() WHERE message_id = $1 AND channel = 'whatsapp'",
    [messageId],
  );
  api.ctx.whatsappWorker?.wake();
}

/** Settles the worker's rounds, so a message it would send has been sent by now. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

describe('a fee reminder on WhatsApp', () => {
  it('goes as the utility template in the family’s language, with the three reply buttons', async () => {
    const due = freshDue();
    const family = await owingFamily(due, { whatsapp: true }, 'hi');
    expect((await roundOn(due)).sent).toBe(1);
    const message = await reminderTo(family.phone);
    const [template] = await waitFor('the WhatsApp reminder', () =>
      whatsappTo(family.phone).length > 0 ? whatsappTo(family.phone) : undefined,
    );
    expect(template).toMatchObject({ type: 'template', template: 'tuitiondesk_fee_reminder', language: 'hi' });
    expect(template?.parameters?.[0]).toBe('Bright Minds');
    expect(template?.parameters?.[1]).toBe('₹750.00');
    expect(template?.parameters?.[4]).toBe('सेंटर पर भुगतान करें।');
    expect(template?.buttonPayloads?.map(parseFeeReplyPayload)).toEqual([
      { messageId: message.id, reply: 'paid' },
      { messageId: message.id, reply: 'will_pay' },
      { messageId: message.id, reply: 'call' },
    ]);
  });

  it('is not sent as the fallback to a family that paid between the queue and the fallback', async () => {
    const { family, message } = await remindedOnTheApp();
    expect(await whatsappAttempt(message.id)).toMatchObject({ status: 'queued' });

    await pay(api, family.familyId, 75_000);
    await fallbackFallsDue(message.id);
    await waitFor('the fallback decided', async () => {
      const attempt = await whatsappAttempt(message.id);
      return attempt?.status === 'queued' ? undefined : attempt;
    });
    await settle();
    expect(whatsappTo(family.phone)).toEqual([]);
    expect(await whatsappAttempt(message.id)).toEqual({
      status: 'failed',
      failure_reason: 'Paid before the reminder went out.',
    });
  });

  it('still goes as the fallback to a family that has not paid', async () => {
    const { family, message } = await remindedOnTheApp();
    // A part payment: the family still owes.
    await pay(api, family.familyId, 25_000);
    await fallbackFallsDue(message.id);
    await waitFor('the WhatsApp fallback', () => (whatsappTo(family.phone).length > 0 ? true : undefined));
  });
});

describe('a fee reminder on the send list', () => {
  const listed = async (messageId: number) => {
    const list = await api.as('admin').get('/api/v1/communications/call-list');
    expect(list.statusCode, list.body).toBe(200);
    return (list.json() as { items: { message_id: number }[] }).items.some((item) => item.message_id === messageId);
  };

  it('is listed for a family no channel reaches, and left out once the family paid', async () => {
    const due = freshDue();
    const family = await owingFamily(due, {});
    expect((await roundOn(due)).sent).toBe(1);
    const message = await reminderTo(family.phone);
    expect(message.delivery_status).toBe('failed');
    expect(await listed(message.id)).toBe(true);

    await pay(api, family.familyId, 75_000);
    expect(await listed(message.id)).toBe(false);
  });
});
