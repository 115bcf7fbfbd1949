import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../scripts/kit/chromium';
import { choosePassword, type RunningServer, startServer } from '../scripts/kit/server';
import { expectAccessible, useBrowser } from './support/browser';

const { browser } = useBrowser();

const GIVEN = 'outage-initial-secret';
const CHOSEN = 'outage-console-secret';
const BANNER = 'The server cannot be reached. What you see may be out of date.';

/**
 * A server of this spec's own, on its own database, so that it can really be stopped (and started
 * again on the same port and data) while the page is open, without touching the server the other
 * specs share.
 */
let server: RunningServer;
let dataDir: string;
let token: string;

async function call<T>(route: string, json?: unknown): Promise<T> {
  const response = await fetch(`${server.base}/api/v1${route}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tuitiondesk-outage-'));
  server = await startServer({ dataDir, env: { ADMIN_PASSWORD: GIVEN }, timeoutMs: 180_000 });
  token = await choosePassword(server.base, 'admin', GIVEN, CHOSEN);
  const names = ['Meera Iyer', 'Nikhil Bose'];
  const ids: number[] = [];
  for (const [index, full_name] of names.entries()) {
    const student = await call<{ id: number }>('/students/', {
      full_name,
      class_name: '8',
      parent_name: 'Parent',
      parent_phone: `+9198765${String(43210 + index)}`,
    });
    ids.push(student.id);
  }
  const today = new Date().toLocaleDateString('en-CA');
  await call('/attendance/mark', {
    date: today,
    records: ids.map((student_id, index) => ({ student_id, status: index === 0 ? 'present' : 'absent' })),
  });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function rowsShown(page: Page): Promise<void> {
  await page.getByText('Meera Iyer').first().waitFor();
  await page.getByText('Nikhil Bose').first().waitFor();
}

describe('a stopped server', () => {
  it('shows the banner and keeps the rows; once the server is back, Retry clears the banner', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 }, baseURL: server.base });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signIn(page, 'admin', CHOSEN);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Attendance History' }).click();
    await rowsShown(page);
    // Every page's code is fetched in the background soon after sign-in: let it arrive first (the
    // Students page's among it), and nothing more come for a second.
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((entry) => /\/assets\/students-[^/]*\.js$/.test(entry.name)),
    );
    await page.waitForFunction(
      () =>
        new Promise<boolean>((resolve) => {
          const before = performance.getEntriesByType('resource').length;
          setTimeout(() => resolve(performance.getEntriesByType('resource').length === before), 1000);
        }),
      undefined,
      { polling: 100 },
    );
    expect(await page.getByText(BANNER).count()).toBe(0);

    await server.stop();

    // Students was never opened: it says it could not load, not that there are no students.
    await menu.getByRole('link', { name: 'Students' }).click();
    await page.getByText(BANNER).waitFor();
    await page.getByText('Cannot reach the server. Check your connection and try again.').waitFor();
    expect(await page.getByText('No students yet').count()).toBe(0);

    // Back on History, fetched again and failing: the rows stay, under the banner.
    await menu.getByRole('link', { name: 'Attendance History' }).click();
    await page.getByText(BANNER).waitFor();
    await rowsShown(page);
    expect(await page.getByText('No attendance records found for the selected filters.').count()).toBe(0);
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByText(BANNER).waitFor();
    await rowsShown(page);
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 900 });

    server = await startServer({ dataDir, port: server.port, timeoutMs: 90_000 });
    await page.getByRole('alert').filter({ hasText: BANNER }).getByRole('button', { name: 'Retry' }).click();
    await page.getByText(BANNER).waitFor({ state: 'detached' });
    await rowsShown(page);
    await context.close();
  });
});
