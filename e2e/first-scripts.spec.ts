import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, expectAccessible, useBrowser } from './support/browser';

/**
 * A page whose first scripts cannot be fetched (a first visit on a flaky network, or a deploy): the
 * page's own guard (apps/web/build/load-guard.js, inline in the HTML, ADR 030) says so, reloads by
 * itself after 1, 2 and 4 seconds, then stops and offers Retry; once the scripts come, the app starts.
 * Each case blocks one file by its build name: the entry script, the runtime chunk it imports first,
 * and the shared vendor chunk (React), for the console and for the parent app.
 */

const { browser } = useBrowser();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const ATTEMPTS_KEY = { console: 'tuitiondesk.load-attempts.console', parent: 'tuitiondesk.load-attempts.parent' };
/** Set SCREENSHOTS_DIR to keep the pages the tests see as PNG files. */
const SCREENSHOTS = process.env.SCREENSHOTS_DIR;

type App = 'console' | 'parent';
const PAGE_OF: Record<App, string> = { console: '/login', parent: '/parent/' };
const TITLE: Record<App, string> = {
  console: 'The console could not be loaded.',
  parent: 'The app could not be loaded.',
};
const GAVE_UP: Record<App, string> = {
  console: 'Check the connection and try again.',
  parent: 'Check the connection and try again. If it happens again, close the app and open it again.',
};

/** What the built page starts: its entry script, and the files the entry imports, in order, with sizes. */
async function scriptsOf(app: App): Promise<{ entry: string; runtime: string; vendor: string }> {
  const html = await (await fetch(`${baseUrl()}${PAGE_OF[app]}`)).text();
  const entry = /<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error(`${app}: no entry script in the page`);
  const code = await (await fetch(`${baseUrl()}${entry}`)).text();
  const imports = [...code.matchAll(/\bimport\s*(?:[^"'();]*?\bfrom\s*)?["']\.\/([^"']+\.js)["']/g)].map(
    (match) => `/assets/${match[1]}`,
  );
  const [runtime] = imports;
  if (!runtime) throw new Error(`${app}: the entry imports nothing`);
  const sizes = await Promise.all(
    imports.map(async (file) => (await (await fetch(`${baseUrl()}${file}`)).arrayBuffer()).byteLength),
  );
  const vendor = imports[sizes.indexOf(Math.max(...sizes))] ?? runtime;
  return { entry, runtime, vendor };
}

/** A fresh page with no service worker (a first visit: nothing kept yet to start from). */
async function freshPage(
  options: { viewport?: { width: number; height: number }; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page; loads: () => number; violations: string[] }> {
  const context = await browser().newContext({
    viewport: options.viewport ?? DESKTOP,
    baseURL: baseUrl(),
    serviceWorkers: 'block',
    locale: options.locale ?? 'en-GB',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  let documents = 0;
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents += 1;
  });
  // Whether the message was ever shown, watched from before the page's own scripts run.
  await page.addInitScript(() => {
    const seen = window as unknown as { guardShown: boolean };
    seen.guardShown = false;
    new MutationObserver(() => {
      const box = document.getElementById('load-failure');
      if (box && !box.hidden) seen.guardShown = true;
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden'] });
  });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return { context, page, loads: () => documents, violations };
}

/** Answers `file` with a failure while `gate.blocked` (404, or no answer at all), counting each refusal. */
async function gate(page: Page, file: string, how: 'not-found' | 'network' | 'hang') {
  const state = { blocked: true, refused: 0, hanging: [] as Route[] };
  await page.route(
    (url) => url.pathname === file,
    async (route) => {
      if (!state.blocked) return route.continue();
      state.refused += 1;
      if (how === 'hang') {
        state.hanging.push(route);
        return;
      }
      if (how === 'network') return route.abort('internetdisconnected');
      return route.fulfill({ status: 404, contentType: 'application/json', body: '{"detail":"No such file"}' });
    },
  );
  return state;
}

const message = (page: Page) => page.locator('#load-failure');

/** The app's first screen, as it shows once its scripts have come. */
async function expectStarted(page: Page, app: App): Promise<void> {
  if (app === 'console') await page.getByLabel(/^Username/).waitFor();
  else await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  expect(await message(page).count(), 'the guard steps aside once the app runs').toBe(0);
  expect(await page.evaluate((key) => sessionStorage.getItem(key), ATTEMPTS_KEY[app])).toBeNull();
}

async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

describe("a page whose first scripts cannot be fetched (the page's own guard)", () => {
  it('loads the console and the parent app with no message shown at any moment, and no policy violation', async () => {
    for (const app of ['console', 'parent'] as const) {
      const { context, page, loads, violations } = await freshPage();
      await page.goto(PAGE_OF[app]);
      await expectStarted(page, app);
      // Longer than the guard would wait before a reload, had it missed the start.
      await page.waitForTimeout(1500);
      expect(await page.evaluate(() => (window as unknown as { guardShown: boolean }).guardShown)).toBe(false);
      expect(loads()).toBe(1);
      expect(violations).toEqual([]);
      await context.close();
    }
  });

  it.each([
    ['entry script', 'console', 'entry', 'network'],
    ['runtime chunk', 'console', 'runtime', 'not-found'],
    ['vendor chunk (React)', 'console', 'vendor', 'network'],
    ['entry script', 'parent', 'entry', 'not-found'],
    ['runtime chunk', 'parent', 'runtime', 'network'],
    ['vendor chunk (React)', 'parent', 'vendor', 'not-found'],
  ] as const)(
    '%s of the %s: says so, reloads after 1, 2 and 4 s, stops, and Retry starts the app once it is served',
    async (_name, app, which, how) => {
      const file = (await scriptsOf(app))[which];
      const { context, page, loads, violations } = await freshPage();
      const blocked = await gate(page, file, how);
      const started = Date.now();
      await page.goto(PAGE_OF[app]);

      const box = message(page);
      await box.getByRole('alert').getByText(TITLE[app]).waitFor();
      await box.getByText('Trying again…').waitFor();
      expect(await box.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
      expect(violations, 'the inline guard runs under the page policy').toEqual([]);

      // Three reloads by itself (the first load and three more), 1 + 2 + 4 s apart, then it gives up.
      await box.getByText(GAVE_UP[app]).waitFor({ timeout: 20_000 });
      const gaveUpAfter = Date.now() - started;
      expect(loads()).toBe(4);
      expect(blocked.refused).toBeGreaterThanOrEqual(4);
      expect(gaveUpAfter).toBeGreaterThanOrEqual(7000);
      expect(await page.evaluate((key) => sessionStorage.getItem(key), ATTEMPTS_KEY[app])).toMatch(/^3:\d+$/);
      await page.waitForTimeout(5000);
      expect(loads(), 'no reload after the third').toBe(4);

      await expectAccessible(page);
      await screenshot(page, `${app}-${which}-1280`);
      await page.setViewportSize(PHONE);
      const button = box.getByRole('button', { name: 'Retry' });
      const inside = await button.boundingBox();
      expect(inside && inside.x >= 0 && inside.x + inside.width <= PHONE.width && inside.height >= 44).toBe(true);
      await expectAccessible(page);
      await screenshot(page, `${app}-${which}-390`);

      blocked.blocked = false;
      await button.click();
      await expectStarted(page, app);
      expect(loads()).toBe(5);
      await context.close();
    },
  );

  it('starts the console by itself on an automatic reload once the runtime chunk is served again', async () => {
    const { runtime } = await scriptsOf('console');
    const { context, page, loads } = await freshPage({ viewport: PHONE });
    const blocked = await gate(page, runtime, 'not-found');
    await page.goto(PAGE_OF.console);
    await message(page).getByText('Trying again…').waitFor();
    blocked.blocked = false;
    await expectStarted(page, 'console');
    expect(loads()).toBe(2);
    await context.close();
  });

  it('starts the parent app by itself after a second failed load', async () => {
    const { entry } = await scriptsOf('parent');
    const { context, page, loads } = await freshPage({ viewport: PHONE });
    const blocked = await gate(page, entry, 'network');
    page.on('request', (request) => {
      if (request.isNavigationRequest() && blocked.refused >= 2) blocked.blocked = false;
    });
    await page.goto(PAGE_OF.parent);
    await expectStarted(page, 'parent');
    expect(loads()).toBe(3);
    expect(blocked.refused).toBe(2);
    await context.close();
  });

  it('says so too when the entry script never answers, and reloads after the wait', async () => {
    const { entry } = await scriptsOf('console');
    const { context, page, loads } = await freshPage();
    const blocked = await gate(page, entry, 'hang');
    await page.goto(PAGE_OF.console, { waitUntil: 'commit' });
    await page.waitForTimeout(5000);
    expect(await message(page).isHidden(), 'not before the wait is over').toBe(true);
    blocked.blocked = false;
    await message(page).getByText('Trying again…').waitFor({ timeout: 25_000 });
    await expectStarted(page, 'console');
    expect(loads()).toBe(2);
    for (const route of blocked.hanging) await route.abort().catch(() => undefined);
    await context.close();
  }, 180_000);

  it("speaks the browser's language, and the language the app last showed, right to left in Urdu", async () => {
    const { entry: consoleEntry } = await scriptsOf('console');
    const tamil = await freshPage({ locale: 'ta-IN' });
    await gate(tamil.page, consoleEntry, 'not-found');
    await tamil.page.goto(PAGE_OF.console);
    await message(tamil.page).getByText('கன்சோலை ஏற்ற முடியவில்லை.').waitFor();
    await message(tamil.page).getByRole('button', { name: 'மீண்டும் முயற்சிக்கவும்' }).waitFor();
    expect(await message(tamil.page).getAttribute('lang')).toBe('ta');
    await tamil.context.close();

    const { entry: parentEntry } = await scriptsOf('parent');
    const urdu = await freshPage({ locale: 'en-GB', viewport: PHONE });
    await urdu.page.addInitScript(() => localStorage.setItem('parent_language', 'ur'));
    await gate(urdu.page, parentEntry, 'not-found');
    await urdu.page.goto(PAGE_OF.parent);
    await message(urdu.page).getByText('ایپ لوڈ نہیں ہو سکی۔').waitFor();
    expect(await message(urdu.page).getAttribute('dir')).toBe('rtl');
    // Once it has given up (no reload under way), as a parent would read it.
    await message(urdu.page)
      .getByText(/^براہ کرم انٹرنیٹ کنکشن دیکھیں/)
      .waitFor({ timeout: 20_000 });
    await message(urdu.page).getByRole('button', { name: 'دوبارہ کوشش کریں' }).waitFor();
    await expectAccessible(urdu.page);
    await screenshot(urdu.page, 'parent-urdu-390');
    await urdu.context.close();
  });
});

describe('the service workers keep no page whose scripts they do not hold', () => {
  /** A page controlled by its app's service worker, the worker's caches filled on the first visit. */
  async function pageWithWorker(app: App) {
    const context = await browser().newContext({ viewport: PHONE, baseURL: baseUrl(), locale: 'en-GB' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(PAGE_OF[app]);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await expectStarted(page, app);
    return { context, page };
  }

  it("the console's worker starts offline from its precached page, never from a page of another version", async () => {
    const { context, page } = await pageWithWorker('console');
    // What a worker that kept pages as they came would hold after a deploy: an earlier version's page,
    // whose entry script is gone.
    await page.evaluate(async () => {
      const html = await (await fetch('/login', { cache: 'no-store' })).text();
      const earlier = html.replace(/\/assets\/console-[\w-]+\.js/, '/assets/console-Earlier1.js');
      const cache = await caches.open('console-pages');
      await cache.put('/students', new Response(earlier, { headers: { 'content-type': 'text/html; charset=utf-8' } }));
    });
    await context.setOffline(true);
    await page.goto('/students');
    await expectStarted(page, 'console');
    await context.close();
  });

  it("the parent app's worker keeps a new page only once it holds every file the page names", async () => {
    const { context, page } = await pageWithWorker('parent');
    // A deploy under way: the server's page names an entry script that cannot be fetched yet.
    const html = await (await fetch(`${baseUrl()}/parent/`)).text();
    const next = html.replace(/\/assets\/parent-[\w-]+\.js/, '/assets/parent-Next1.js');
    expect(next).not.toBe(html);
    let askedByWorker = 0;
    await context.route(
      (url) => url.pathname === '/parent/',
      (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: next }),
    );
    await context.route(
      (url) => url.pathname === '/assets/parent-Next1.js',
      (route) => {
        if (route.request().serviceWorker()) askedByWorker += 1;
        return route.fulfill({ status: 404, contentType: 'application/json', body: '{"detail":"No such file"}' });
      },
    );
    await page.goto('/parent/');
    await message(page).getByText(TITLE.parent).waitFor();
    // The worker tried to keep the new page with its files, and could not fetch them all.
    await expect.poll(() => askedByWorker).toBeGreaterThan(0);
    await page.waitForTimeout(500);

    await context.unrouteAll();
    await context.setOffline(true);
    await page.goto('/parent/');
    await expectStarted(page, 'parent');
    await context.close();
  });
});
