// The centre's first set-up, Centre settings and the parent app's sign-in with the centre's name
// (issue 28, ADR 042), on a server of its own: its centre has never been set up, which the shared
// servers' have (scripts/kit/server.ts choosePassword), and its admin's language changes here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type RunningServer, startServer } from '../scripts/kit/server';
import { expectAccessible, useBrowser } from './support/browser';

const { browser } = useBrowser();
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const GIVEN = 'e2e-centre-initial';
const CHOSEN = 'Orchard-Lantern-Cobalt-58';
/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const urdu = JSON.parse(readFileSync(path.join(ROOT, 'apps/web/src/i18n/locales/ur/centre.json'), 'utf8')) as {
  title: string;
  name: { label: string };
};

let server: RunningServer;
let token: string;

async function call<T>(pathname: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const response = await fetch(`${server.base}/api/v1${pathname}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function open(viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  // The admin's browser is in India; the server runs in this machine's zone (UTC on CI).
  const context = await browser().newContext({ viewport, baseURL: server.base, timezoneId: 'Asia/Kolkata' });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { context, page };
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel(/^Username/).fill('admin');
  await page.getByLabel(/^Password/).fill(CHOSEN);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

beforeAll(async () => {
  server = await startServer({ env: { ADMIN_PASSWORD: GIVEN, TZ: '' }, timeoutMs: 180_000 });
  // The admin's own password, chosen through the API; the centre itself is left as a fresh install has it.
  const login = await fetch(`${server.base}/api/v1/auth/login`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'admin', password: GIVEN }),
  });
  const first = ((await login.json()) as { access_token: string }).access_token;
  const changed = await fetch(`${server.base}/api/v1/auth/change-password`, {
    method: 'POST',
    headers: { authorization: `Bearer ${first}`, 'content-type': 'application/json' },
    body: JSON.stringify({ current_password: GIVEN, new_password: CHOSEN }),
  });
  token = ((await changed.json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  await server?.stop();
});

describe("the centre's settings", () => {
  it("a centre never set up: the admin's first sign-in lands on the set-up, the zone is the browser's, then the dashboard", async () => {
    const { context, page } = await open();
    try {
      await signIn(page);
      await page.waitForURL('**/settings');
      await page.getByRole('heading', { name: 'Set up your centre' }).waitFor();
      const zone = page.getByRole('combobox', { name: 'Time zone' });
      // The browser's own name for it (Chromium's Intl still says Asia/Calcutta).
      await expect.poll(() => zone.inputValue()).toMatch(/^Asia\/(Kolkata|Calcutta)$/);
      await expectAccessible(page);

      await page.getByRole('textbox', { name: 'Centre name' }).fill('Bright Minds Tuition');
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await page.waitForURL('**/dashboard');
      // The console names the centre where it named itself.
      await page.getByText('Bright Minds Tuition').first().waitFor();
      const centre = await call<{ time_zone: string; needs_set_up: boolean; name: string }>('/settings/centre');
      expect(centre).toMatchObject({ needs_set_up: false, name: 'Bright Minds Tuition' });
      expect(centre.time_zone).toMatch(/^Asia\/(Kolkata|Calcutta)$/);
    } finally {
      await context.close();
    }
  });

  it('Centre settings at 1280 and 390 px: a logo uploaded and previewed, the zone searchable, the country code, axe clean', async () => {
    const { context, page } = await open();
    try {
      await signIn(page);
      await page.waitForURL('**/dashboard');
      await page.getByRole('link', { name: 'Centre Settings' }).click();
      await page.getByRole('heading', { name: 'Centre settings', level: 2 }).waitFor();
      await page.getByTestId('logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
      await page.getByText('Logo saved').waitFor();
      await page.getByRole('img', { name: 'Logo of Bright Minds Tuition' }).waitFor();

      const zone = page.getByRole('combobox', { name: 'Time zone' });
      await zone.fill('london');
      await page.getByRole('option', { name: 'Europe/London' }).click();
      await zone.fill('kolkata');
      await page.getByRole('option', { name: 'Asia/Kolkata' }).click();
      await expect.poll(() => zone.inputValue()).toBe('Asia/Kolkata');
      await page.getByRole('textbox', { name: /^Country code/ }).waitFor();
      await page.getByRole('link', { name: 'Manage classes and subjects' }).waitFor();
      await expectAccessible(page);

      await page.setViewportSize(PHONE);
      await page.getByRole('heading', { name: 'Centre settings', level: 2 }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'nothing wider than the phone').toBeLessThanOrEqual(0);
      await expectAccessible(page);

      // The parent app's sign-in shows the centre, not the product.
      const parent = await context.newPage();
      await parent.goto('/parent/');
      await parent.getByRole('heading', { level: 1, name: 'Bright Minds Tuition' }).waitFor();
      await expect
        .poll(() => parent.locator('.signin-brand img').getAttribute('src'))
        .toMatch(/^\/api\/v1\/centre\/logo\?v=/);
      await expectAccessible(parent);
    } finally {
      await context.close();
    }
  });

  it('in Urdu, right to left, axe clean at both widths', async () => {
    await call('/auth/me/language', { method: 'PUT', json: { language: 'ur' } });
    const { context, page } = await open();
    try {
      await signIn(page);
      await page.waitForURL('**/dashboard');
      await page.goto('/settings');
      await page.getByRole('heading', { name: urdu.title, level: 2 }).waitFor();
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
      await page.getByRole('textbox', { name: urdu.name.label }).waitFor();
      await expectAccessible(page);
      await page.setViewportSize(PHONE);
      await page.getByRole('heading', { name: urdu.title, level: 2 }).waitFor();
      await expectAccessible(page);
    } finally {
      await context.close();
      await call('/auth/me/language', { method: 'PUT', json: { language: 'en' } });
    }
  });
});
