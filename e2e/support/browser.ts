import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { launchChromium, signIn } from '../../scripts/kit/chromium';
import { ADMIN_NEW_PASSWORD } from './global-setup';

// Pages from newPage() have the server as their base URL: signIn(page, username, password).
export { signIn };

/**
 * This file's server: global-setup.ts starts one per worker, and a worker runs one file at a time
 * (VITEST_POOL_ID, 1 to the number of workers, says which worker), so a file has its server to itself.
 */
export const baseUrl = (): string => {
  const servers = inject('baseUrls');
  const server = servers[Number(process.env.VITEST_POOL_ID ?? 1) - 1];
  if (!server) throw new Error(`no server for worker ${process.env.VITEST_POOL_ID} of ${servers.length}`);
  return server;
};
export const ADMIN = { username: 'admin', password: ADMIN_NEW_PASSWORD };

/** One Chromium per spec file; each test takes a fresh context (its own storage) from it. */
export function useBrowser(): { browser: () => Browser } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    browser: () => {
      if (!browser) throw new Error('the browser is not running yet');
      return browser;
    },
  };
}

export async function newPage(
  browser: Browser,
  viewport = { width: 1366, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl(), acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { context, page };
}

/** A fresh page (as from newPage) signed in as `account`, the admin unless said, on the dashboard. */
export async function signedInPage(
  browser: Browser,
  account: { username: string; password: string } = ADMIN,
  viewport?: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser, viewport);
  await signIn(opened.page, account.username, account.password);
  return opened;
}

/** No serious or critical accessibility violations on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  // A dialog or menu fading in or out is half transparent: measure contrast once it has settled.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`),
    `accessibility on ${page.url()}`,
  ).toEqual([]);
}

/** Calls the API directly, as the admin unless a token is given: test data without clicking. */
export async function api<T>(path: string, init: { method?: string; json?: unknown; token?: string } = {}): Promise<T> {
  const token = init.token ?? (await adminToken());
  const response = await fetch(`${baseUrl()}/api/v1${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

let token: Promise<string> | undefined;
export function adminToken(): Promise<string> {
  token ??= fetch(`${baseUrl()}/api/v1/auth/login`, {
    method: 'POST',
    body: new URLSearchParams(ADMIN),
  })
    .then((response) => response.json() as Promise<{ access_token: string }>)
    .then((body) => body.access_token);
  return token;
}

let phone = 0;
export function uniquePhone(): string {
  phone += 1;
  return `+9197${String(process.pid % 10000).padStart(4, '0')}${String(phone).padStart(4, '0')}`;
}

/** A teacher account with a password of their own (the first-sign-in change done through the API). */
export async function createTeacherAccount(
  fields: Record<string, unknown>,
  password: string,
): Promise<{ id: number; username: string; full_name: string; password: string }> {
  const teacher = await api<{ id: number; username: string; full_name: string; initial_password: string }>(
    '/teachers/',
    { json: { phone_number: uniquePhone(), subjects: ['Mathematics'], classes_assigned: ['9'], ...fields } },
  );
  const login = await fetch(`${baseUrl()}/api/v1/auth/login`, {
    method: 'POST',
    body: new URLSearchParams({ username: teacher.username, password: teacher.initial_password }),
  }).then((response) => response.json() as Promise<{ access_token: string }>);
  await api('/auth/change-password', {
    token: login.access_token,
    json: { current_password: teacher.initial_password, new_password: password },
  });
  return { ...teacher, password };
}

/** Accepts every browser confirmation and alert on the page, and remembers their texts. */
export function acceptDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog) => {
    seen.push(dialog.message());
    void dialog.accept();
  });
  return seen;
}
