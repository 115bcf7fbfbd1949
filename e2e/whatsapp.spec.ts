import { pushPayloadSchema } from '@tuitiondesk/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVED_TEMPLATES, type FakeCloudApi, startFakeCloudApi } from '../apps/server/test/helpers/fake-cloud-api';
import { FakePushService } from '../apps/server/test/helpers/fake-push-service';
import { metaSignature, WHATSAPP_TEST } from '../apps/server/test/helpers/whatsapp';
import { signIn } from '../scripts/kit/chromium';
import { choosePassword, type RunningServer, startServer } from '../scripts/kit/server';
import { expectAccessible, useBrowser } from './support/browser';

/**
 * The delivery cascade in the built product: a server of its own, with WhatsApp switched on against the
 * fake Cloud API (whose signed callbacks go to the server's webhook over HTTP) and Web Push against the
 * fake push service. Staff send to a class in the console; one family gets it in the parent app, one on
 * WhatsApp; the history shows both; a parent's one-tap reply shows on the day's record.
 */
const { browser } = useBrowser();
const PASSWORD = 'Lantern-Meadow-Copper-58';
let server: RunningServer;
let cloud: FakeCloudApi;
let push: FakePushService;
let token: string;

async function call<T>(path: string, init: { method?: string; json?: unknown; token?: string } = {}): Promise<T> {
  const response = await fetch(`${server.base}/api/v1${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${init.token ?? token}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  push = await FakePushService.start();
  cloud = await startFakeCloudApi({
    accessToken: WHATSAPP_TEST.accessToken,
    phoneNumberId: WHATSAPP_TEST.phoneNumberId,
    appSecret: WHATSAPP_TEST.appSecret,
    templates: APPROVED_TEMPLATES,
    autoStatuses: { delivered: 50, read: 150 },
  });
  server = await startServer({
    env: {
      ADMIN_PASSWORD: 'e2e-whatsapp-initial',
      WHATSAPP_ACCESS_TOKEN: WHATSAPP_TEST.accessToken,
      WHATSAPP_PHONE_NUMBER_ID: WHATSAPP_TEST.phoneNumberId,
      WHATSAPP_BUSINESS_ACCOUNT_ID: WHATSAPP_TEST.businessAccountId,
      WHATSAPP_APP_SECRET: WHATSAPP_TEST.appSecret,
      WHATSAPP_VERIFY_TOKEN: WHATSAPP_TEST.verifyToken,
      WHATSAPP_API_BASE_URL: cloud.baseUrl,
      PUSH_ALLOW_LOOPBACK_ENDPOINTS_FOR_TESTS: 'true',
      PUSH_POLL_MS: '200',
    },
    timeoutMs: 180_000,
  });
  token = await choosePassword(server.base, 'admin', 'e2e-whatsapp-initial', PASSWORD);
  // Meta posts its callbacks to the webhook, signed with the app secret.
  cloud.deliver = async (body, signature) =>
    (
      await fetch(`${server.base}/api/v1/whatsapp/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        body,
      })
    ).status;
});

afterAll(async () => {
  await cloud?.settle();
  await server?.stop();
  await cloud?.close();
  await push?.close();
});

async function consolePage(): Promise<Page> {
  const context = await browser().newContext({ viewport: { width: 1366, height: 900 }, baseURL: server.base });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await signIn(page, 'admin', PASSWORD);
  return page;
}

describe('every parent reached', () => {
  it('staff send to a class: the app family gets it in the app, the WhatsApp family on WhatsApp; the history shows both; a Sick reply shows on the record', async () => {
    // The Mehta family has the parent app on a phone that allowed notifications.
    const app = await call<{ id: number; parent_phone: string }>('/students/', {
      json: { full_name: 'Asha Mehta', class_name: '8', parent_name: 'Kiran Mehta', parent_phone: '+919811100001' },
    });
    const issued = await call<{ code: string }>(`/students/${app.id}/parent-access`, { method: 'POST' });
    const login = await fetch(`${server.base}/api/v1/parent/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: app.parent_phone, code: issued.code }),
    });
    const parentToken = ((await login.json()) as { access_token: string }).access_token;
    const device = push.createDevice();
    await call('/parent/push/subscriptions', {
      json: { endpoint: device.endpoint, keys: device.keys },
      token: parentToken,
    });
    // The Joshi family has no app, and agreed to WhatsApp.
    const whatsapp = await call<{ id: number; parent_phone: string }>('/students/', {
      json: {
        full_name: 'Bharat Joshi',
        class_name: '8',
        parent_name: 'Sunita Joshi',
        parent_phone: '+919811100002',
        parent_whatsapp_opt_in: true,
      },
    });

    const page = await consolePage();
    await page.goto('/communications');
    await page.getByRole('button', { name: 'Send Message' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Message' });
    await dialog.getByText(/families without the app who agreed to WhatsApp get it on WhatsApp/).waitFor();
    await dialog.getByRole('combobox', { name: 'Recipients' }).click();
    await page.getByRole('option', { name: 'Class 8' }).click();
    await dialog.getByRole('textbox', { name: 'Subject', exact: true }).fill('Exam timetable');
    await dialog.getByRole('textbox', { name: 'Message', exact: true }).fill('The maths test is on Friday.');
    await dialog.getByRole('button', { name: 'Send Message' }).click();
    // Worded by who was reached (ADR 044): one in the app, one on WhatsApp.
    await page.getByText('Message sent to 2 families: 1 in the app, 1 on WhatsApp.').waitFor();

    // The app family's phone gets the push, and its service worker confirms it; the other gets WhatsApp.
    const received = await until('the push', () => push.receivedBy(device.endpoint)[0]);
    const payload = pushPayloadSchema.parse(JSON.parse(received.plaintext));
    await fetch(`${server.base}/api/v1/parent/receipts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ receipt: payload.receipt }),
    });
    const sent = await until('the WhatsApp message', () => cloud.accepted.find((m) => m.to === '919811100002'));
    expect(sent).toMatchObject({
      template: 'tuitiondesk_notice',
      parameters: ['TuitionDesk', 'Exam timetable', 'The maths test is on Friday.'],
    });
    await cloud.settle();

    // The history shows the send as one row (ADR 049); opened, both families, each with its channel and status.
    await page.reload();
    await page
      .getByRole('table', { name: 'Message history' })
      .getByRole('row')
      .filter({ hasText: 'Exam timetable' })
      .getByRole('button', { name: 'Show the 2 families' })
      .click();
    const table = page.getByRole('table', { name: 'Families: Exam timetable' });
    const appRow = table.getByRole('row').filter({ hasText: 'Kiran Mehta' });
    const whatsappRow = table.getByRole('row').filter({ hasText: 'Sunita Joshi' });
    await expect.poll(async () => appRow.getByRole('img', { name: 'In-app message' }).count()).toBe(1);
    await expect.poll(async () => whatsappRow.getByRole('img', { name: 'WhatsApp' }).count()).toBe(1);
    expect(await appRow.getByText('Delivered').count()).toBe(1);
    expect(await whatsappRow.getByText(/^(Delivered|Read)$/).count()).toBe(1);
    await expectAccessible(page);

    // An absence on approval goes to the WhatsApp family with the one-tap replies; the parent taps Sick.
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await call('/attendance/mark', { json: { date: day, records: [{ student_id: whatsapp.id, status: 'absent' }] } });
    const pending = await call<{ id: number; student_id: number }[]>(
      `/attendance/pending-approval?attendance_date=${day}`,
    );
    await call('/attendance/approve', { json: { attendance_ids: pending.map((record) => record.id) } });
    const alert = await until('the alert', () =>
      cloud.accepted.find((m) => m.template === 'tuitiondesk_absence_alert'),
    );
    const sick = alert.buttonPayloads?.[0] as string;
    expect(sick).toMatch(/^reply:\d+:sick$/);
    expect(await cloud.postButton('+919811100002', sick, 'Sick', alert.wamid)).toBe(200);

    await page.goto('/attendance-history');
    await page.getByText('Bharat Joshi').first().waitFor();
    await page.getByText('Parent: Sick').waitFor();

    // A callback that is not Meta's is refused.
    const forged = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    const refused = await fetch(`${server.base}/api/v1/whatsapp/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(forged, 'not-the-secret') },
      body: forged,
    });
    expect(refused.status).toBe(401);
    expect(cloud.windowViolations).toEqual([]);
    await page.context().close();
  });
});
