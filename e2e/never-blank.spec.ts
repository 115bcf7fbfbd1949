import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, baseUrl, expectAccessible, signIn, useBrowser } from './support/browser';

const { browser } = useBrowser();

/** The History page's own code, as the build names it (`history-page-<hash>.js`). */
const HISTORY_CHUNK = /\/assets\/history-page-[^/]+\.js$/;

/**
 * A page with no service worker: the worker's precache would answer the chunk itself. The case
 * tested is the one it cannot cover: the worker not installed yet, or a new version's worker that
 * no longer holds the old files.
 */
async function pageWithoutWorker(viewport = { width: 1280, height: 900 }) {
  const context = await browser().newContext({ viewport, baseURL: baseUrl(), serviceWorkers: 'block' });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { context, page };
}

/** Answers the History chunk 404 while `gate.blocked`, and counts each refusal. */
async function gateHistoryChunk(page: Page) {
  const gate = { blocked: true, refused: 0 };
  await page.route(HISTORY_CHUNK, async (route) => {
    if (!gate.blocked) return route.continue();
    gate.refused += 1;
    return route.fulfill({ status: 404, contentType: 'application/json', body: '{"detail":"No such file"}' });
  });
  return gate;
}

/** Marks the document: a full reload makes a new one, without the mark. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });
}
const isSameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

describe('a page whose code cannot be fetched', () => {
  it('says so inside the shell with the menu there, and Retry shows the page once its code is served again, without a reload', async () => {
    const { context, page } = await pageWithoutWorker();
    const gate = await gateHistoryChunk(page);
    await signIn(page, ADMIN.username, ADMIN.password);
    await markDocument(page);
    const refusedBefore = gate.refused;

    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Attendance History' }).click();
    await page.getByText('This page could not be loaded.').waitFor();
    await page.getByText('Check the connection and try again.').waitFor();
    // The click fetched the chunk itself (a failed background preload is not kept as the answer).
    expect(gate.refused).toBeGreaterThan(refusedBefore);
    expect(await menu.getByRole('link', { name: 'Students' }).isVisible()).toBe(true);
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open menu' }).waitFor();
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 900 });

    gate.blocked = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('Total Records').waitFor();
    expect(await page.getByText('This page could not be loaded.').count()).toBe(0);
    expect(await isSameDocument(page)).toBe(true);
    await context.close();
  });

  it('clears when another menu item is chosen, and the failed page loads when chosen again', async () => {
    const { context, page } = await pageWithoutWorker();
    const gate = await gateHistoryChunk(page);
    await signIn(page, ADMIN.username, ADMIN.password);
    await markDocument(page);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Attendance History' }).click();
    await page.getByText('This page could not be loaded.').waitFor();

    await menu.getByRole('link', { name: 'Students' }).click();
    await page.getByRole('button', { name: 'Add Student' }).waitFor();
    expect(await page.getByText('This page could not be loaded.').count()).toBe(0);

    gate.blocked = false;
    await menu.getByRole('link', { name: 'Attendance History' }).click();
    await page.getByText('Total Records').waitFor();
    expect(await isSameDocument(page)).toBe(true);
    await context.close();
  });

  it('reloads once, and only once, when the server has a new version', async () => {
    const { context, page } = await pageWithoutWorker();
    await gateHistoryChunk(page);
    // A new version is out: the server's page now starts another entry script.
    let versionChecks = 0;
    await page.route(/\/\?version=\d+$/, async (route) => {
      versionChecks += 1;
      await route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<!doctype html><script type="module" crossorigin src="/assets/console-NewVersion1.js"></script>',
      });
    });
    await signIn(page, ADMIN.username, ADMIN.password);
    await markDocument(page);
    let loads = 0;
    page.on('load', () => {
      loads += 1;
    });

    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Attendance History' }).click();
    // The reload fetches the page again: History's code is still missing, and this time it says so.
    await page.getByText('This page could not be loaded.').waitFor();
    await expect.poll(() => versionChecks, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(await isSameDocument(page)).toBe(false);
    expect(loads).toBe(1);
    expect(await page.evaluate(() => sessionStorage.getItem('tuitiondesk.reloaded-for-version'))).toBe(
      '/assets/console-NewVersion1.js',
    );
    // No second reload for the same version.
    await page.waitForTimeout(1000);
    expect(loads).toBe(1);
    await context.close();
  });
});
