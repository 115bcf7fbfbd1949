// Connecting WhatsApp from the console (issue 28, item 5, ADR 045), on a server of its own with no
// WHATSAPP_* variables, its Graph API pointed at the fake Cloud API: an admin pastes Meta's values,
// a refusal shows on its field, the connect turns WhatsApp on without a restart, a test goes out;
// at 1280 and 390 px, axe clean, and in Urdu (right to left).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVED_TEMPLATES, type FakeCloudApi, startFakeCloudApi } from '../apps/server/test/helpers/fake-cloud-api';
import { WHATSAPP_TEST } from '../apps/server/test/helpers/whatsapp';
import { signIn } from '../scripts/kit/chromium';
import { choosePassword, ROOT, type RunningServer, startServer } from '../scripts/kit/server';
import { expectAccessible, useBrowser } from './support/browser';

const { browser } = useBrowser();
const PASSWORD = 'Harbour-Willow-Amber-73';
const APP_SECRET = '0123456789abcdef0123456789abcdef';
const PHONE = { width: 390, height: 844 };
const urdu = JSON.parse(readFileSync(path.join(ROOT, 'apps/web/src/i18n/locales/ur/whatsapp.json'), 'utf8')) as {
  status: { connected: string };
  form: { reconnect: string };
};
let server: RunningServer;
let cloud: FakeCloudApi;
let token: string;

async function call(pathname: string, init: { method?: string; json?: unknown } = {}): Promise<Response> {
  return fetch(`${server.base}/api/v1${pathname}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
}

beforeAll(async () => {
  cloud = await startFakeCloudApi({
    accessToken: WHATSAPP_TEST.accessToken,
    phoneNumberId: WHATSAPP_TEST.phoneNumberId,
    appSecret: APP_SECRET,
    templates: { ...APPROVED_TEMPLATES, hello_world: { languages: ['en_US'], parameters: 0, buttons: 0 } },
    autoStatuses: false,
  });
  server = await startServer({
    env: { ADMIN_PASSWORD: 'e2e-whatsapp-connect-initial', WHATSAPP_API_BASE_URL: cloud.baseUrl },
    // A server of its own starts on a fresh database: on a busy machine that takes a while.
    timeoutMs: 180_000,
  });
  token = await choosePassword(server.base, 'admin', 'e2e-whatsapp-connect-initial', PASSWORD);
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await cloud?.close();
});

async function open(viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser().newContext({ viewport, baseURL: server.base });
  const page = await context.newPage();
  page.setDefaultTimeout(45_000);
  await signIn(page, 'admin', PASSWORD);
  await page.goto('/communications');
  await page.getByRole('tab', { name: 'WhatsApp' }).click();
  return page;
}

describe('WhatsApp connected from the console', () => {
  it('a refusal on its field, then connected without a restart, a test sent; axe clean at 1280 and 390 px', async () => {
    const page = await open();
    try {
      await page.getByText('Not connected').waitFor();
      const webhook = page.getByRole('textbox', { name: 'Callback URL' });
      expect(await webhook.inputValue()).toBe(`${server.base}/api/v1/whatsapp/webhook`);
      await expectAccessible(page);

      const form = page.getByRole('form', { name: 'Connect WhatsApp' });
      await form.getByLabel('Access token').fill('EAAwrong-token-0000000000');
      await form.getByLabel('Phone number id').fill(WHATSAPP_TEST.phoneNumberId);
      await form.getByLabel('WhatsApp Business Account id').fill(WHATSAPP_TEST.businessAccountId);
      await form.getByLabel('App secret').fill(APP_SECRET);
      await form.getByRole('button', { name: 'Check and connect' }).click();
      await page.getByText(/Meta does not accept this access token/).waitFor();
      expect((await (await call('/settings/whatsapp')).json()).connected).toBe(false);

      await form.getByLabel('Access token').fill(WHATSAPP_TEST.accessToken);
      await form.getByRole('button', { name: 'Check and connect' }).click();
      await page.getByText('Connected', { exact: true }).waitFor();
      await page.getByText('+91 80 4000 1111').waitFor();
      await page.getByRole('table', { name: 'Templates' }).waitFor();
      await expectAccessible(page);

      await page.getByLabel('Your WhatsApp number').fill('+919812345670');
      await page.getByRole('button', { name: 'Send test' }).click();
      await page.getByText(/Test sent to \+919812345670 \(hello_world\)/).waitFor();
      expect(cloud.accepted.at(-1)).toMatchObject({ template: 'hello_world', to: '919812345670' });

      await page.setViewportSize(PHONE);
      await page.getByText('Connected', { exact: true }).waitFor();
      await expectAccessible(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    } finally {
      await page.context().close();
    }
  }, 240_000);

  it('in Urdu, right to left, axe clean at both widths', async () => {
    await call('/auth/me/language', { method: 'PUT', json: { language: 'ur' } });
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 }, baseURL: server.base });
    const page = await context.newPage();
    page.setDefaultTimeout(45_000);
    try {
      await signIn(page, 'admin', PASSWORD);
      await page.goto('/communications');
      await page.getByRole('tab', { name: 'WhatsApp' }).click();
      await page.getByText(urdu.status.connected, { exact: true }).waitFor();
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
      await page.getByRole('heading', { name: urdu.form.reconnect }).waitFor();
      await expectAccessible(page);
      await page.setViewportSize(PHONE);
      await page.getByText(urdu.status.connected, { exact: true }).waitFor();
      await expectAccessible(page);
    } finally {
      await context.close();
      await call('/auth/me/language', { method: 'PUT', json: { language: 'en' } });
    }
  }, 240_000);
});
