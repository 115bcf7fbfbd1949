// The product in Hindi and Urdu, in a browser: the sign-in page (the browser's language), the dashboard
// and a class's register (the account's language, chosen with PUT /auth/me/language on a new account:
// the shared admin keeps English), the parent app's inbox (the family's language). Each screen has
// <html lang>, right to left in Urdu with the menu on the right, a translated text, and no serious or
// critical axe violation at 1280 and 390 px. The texts come from the catalogues, so a rewording there
// does not break this test, but a screen that still shows English does.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  api,
  baseUrl,
  createTeacherAccount,
  expectAccessible,
  newPage,
  uniquePhone,
  useBrowser,
} from './support/browser';

const { browser } = useBrowser();

const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const CONSOLE_LOCALES = path.resolve(import.meta.dirname, '../apps/web/src/i18n/locales');
const TEXTS = path.resolve(import.meta.dirname, '../packages/contract/texts');
// Unique in this run: names a test made are told from other specs' data by it.
const STAMP = `${process.pid % 1000}${Date.now() % 100_000}`;

type Values = Record<string, string | number>;

/** A text from a catalogue file, `{{placeholders}}` filled: exactly what the screen should show. */
function textIn(file: string, key: string, values: Values = {}): string {
  const catalogue = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], catalogue);
  if (typeof text !== 'string') throw new Error(`${file} has no text for ${key}`);
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name]));
}

/** The console's words in a language: `t('shell', 'menu.dashboard')`. */
const consoleWords = (language: string) => (namespace: string, key: string, values?: Values) =>
  textIn(path.join(CONSOLE_LOCALES, language, `${namespace}.json`), key, values);

/** The parent app's words in a language (texts/parent/<lang>.json: flat keys, `{placeholders}`, ADR 041). */
const parentWords =
  (language: string) =>
  (key: string, values: Values = {}) => {
    const file = path.join(TEXTS, 'parent', `${language}.json`);
    const text = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)[key];
    if (text === undefined) throw new Error(`${file} has no text for ${key}`);
    return text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
  };

const LANGUAGES = [
  { language: 'hi', locale: 'hi-IN', rtl: false },
  { language: 'ur', locale: 'ur-PK', rtl: true },
] as const;

/** <html lang> and dir as the language needs them. */
async function expectLanguage(page: Page, language: string, rtl: boolean): Promise<void> {
  await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
  expect(await page.locator('html').getAttribute('dir')).toBe(rtl ? 'rtl' : 'ltr');
}

/** axe at 1280 px and at 390 px, back at 1280 px after. */
async function expectAccessibleAtBothWidths(page: Page, settled: () => Promise<unknown>): Promise<void> {
  await page.setViewportSize(WIDE);
  await settled();
  await expectAccessible(page);
  await page.setViewportSize(PHONE);
  await settled();
  await expectAccessible(page);
  await page.setViewportSize(WIDE);
}

async function tokenOf(username: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl()}/api/v1/auth/login`, {
    method: 'POST',
    body: new URLSearchParams({ username, password }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The menu's right edge at the page's right (Urdu) or its left edge at the page's left. */
async function expectMenuSide(page: Page, mainMenu: string, rtl: boolean, width: number): Promise<void> {
  const box = await page.getByRole('navigation', { name: mainMenu }).filter({ visible: true }).boundingBox();
  expect(box, 'the menu is shown').not.toBeNull();
  if (!box) return;
  if (rtl) expect(box.x + box.width).toBeGreaterThan(width - 10);
  else expect(box.x).toBeLessThan(10);
}

/** The page's faces of a font family, as `<weight> <status>` once the page's fonts are settled. */
function fontFaces(page: Page, family: string): Promise<string[]> {
  return page.evaluate(async (family) => {
    await document.fonts.ready;
    const faces: string[] = [];
    document.fonts.forEach((face) => {
      if (face.family.replace(/"/g, '') === family) faces.push(`${face.weight} ${face.status}`);
    });
    return faces;
  }, family);
}

describe('the product in Hindi and Urdu', { timeout: 240_000 }, () => {
  for (const { language, locale, rtl } of LANGUAGES) {
    const t = consoleWords(language);

    it(`${language}: the sign-in page in the browser's language`, async () => {
      const context = await browser().newContext({ viewport: WIDE, baseURL: baseUrl(), locale });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      try {
        await page.goto('/login');
        await expectLanguage(page, language, rtl);
        await page.getByText(t('auth', 'login.subtitle')).waitFor();
        const signIn = page.getByRole('button', { name: t('auth', 'login.signIn') });
        await signIn.waitFor();
        await expectAccessibleAtBothWidths(page, () => signIn.waitFor());
      } finally {
        await context.close();
      }
    });

    it(`${language}: the dashboard and a class's register in the account's language, the menu on its side`, async () => {
      const student = `Lang${STAMP} ${language.toUpperCase()} Pupil`;
      await api('/students/', {
        json: { full_name: student, class_name: '7', parent_name: 'Parent', parent_phone: uniquePhone() },
      });
      const teacher = await createTeacherAccount(
        { first_name: 'Lang', last_name: `${language.toUpperCase()}${STAMP}`, classes_assigned: ['7'] },
        'lantern-harbour-52',
      );
      // The new account's own choice; the browser reads English, so what shows is the account's.
      await api('/auth/me/language', {
        method: 'PUT',
        json: { language },
        token: await tokenOf(teacher.username, teacher.password),
      });
      const { context, page } = await newPage(browser(), WIDE);
      try {
        await page.goto('/login');
        await page.getByLabel(/^Username/).fill(teacher.username);
        await page.getByLabel(/^Password/).fill(teacher.password);
        await page.getByRole('button', { name: 'Sign In' }).click();
        await page.waitForURL('**/dashboard');

        const dashboard = page.getByRole('heading', { level: 1, name: t('shell', 'menu.dashboard') });
        await dashboard.waitFor();
        await expectLanguage(page, language, rtl);
        await expectMenuSide(page, t('shell', 'mainMenu'), rtl, WIDE.width);
        await page.waitForLoadState('networkidle');
        await expectAccessibleAtBothWidths(page, () => dashboard.waitFor());

        // On a phone the menu is a drawer, opened from the top bar: from the right in Urdu.
        await page.setViewportSize(PHONE);
        await page.getByRole('button', { name: t('shell', 'openMenu') }).click();
        await page
          .getByRole('navigation', { name: t('shell', 'mainMenu') })
          .filter({ visible: true })
          .waitFor();
        await page.waitForFunction(() =>
          document.getAnimations().every((animation) => animation.playState !== 'running'),
        );
        await expectMenuSide(page, t('shell', 'mainMenu'), rtl, PHONE.width);
        await page.keyboard.press('Escape');
        await page.setViewportSize(WIDE);

        await page.goto('/mark-attendance?class_name=7');
        const register = page.getByRole('heading', { level: 1, name: t('shell', 'menu.mark-attendance') });
        await register.waitFor();
        await expectLanguage(page, language, rtl);
        const row = page.getByRole('group', { name: t('attendance', 'roster.attendanceOf', { name: student }) });
        await row.waitFor();
        await row.getByRole('button', { name: t('attendance', 'status.absent') }).waitFor();
        await page.getByRole('button', { name: t('attendance', 'roster.submitAttendance') }).waitFor();
        await page.waitForLoadState('networkidle');
        await expectAccessibleAtBothWidths(page, () => row.waitFor());
      } finally {
        await context.close();
      }
    });

    it(`${language}: the parent app's inbox in the family's language`, async () => {
      const p = parentWords(language);
      const child = await api<{ id: number }>('/students/', {
        json: {
          full_name: `Lang${STAMP} ${language.toUpperCase()} Child`,
          class_name: '7',
          parent_name: 'Parent',
          parent_phone: uniquePhone(),
          parent_language: language,
        },
      });
      const issued = await api<{ code: string; phone: string }>(`/students/${child.id}/parent-access`, {
        method: 'POST',
      });
      // The browser reads English: what shows is the family's language, kept on the server.
      const { context, page } = await newPage(browser(), PHONE);
      try {
        await page.goto(`/parent/#phone=${encodeURIComponent(issued.phone)}&code=${issued.code}`);
        const inbox = page.getByRole('heading', { name: new RegExp(`^${p('inbox.title')}`) });
        await inbox.waitFor();
        await expectLanguage(page, language, rtl);
        await page.getByText(p('inbox.empty')).waitFor();
        await page.waitForLoadState('networkidle');
        await expectAccessibleAtBothWidths(page, () => inbox.waitFor());
      } finally {
        await context.close();
      }
    });
  }

  it("keeps the chosen language's font for offline use: Hindi reads the same with no network", async () => {
    const t = consoleWords('hi');
    const teacher = await createTeacherAccount(
      { first_name: 'Font', last_name: `Offline${STAMP}`, classes_assigned: ['7'] },
      'quiet-meadow-81',
    );
    await api('/auth/me/language', {
      method: 'PUT',
      json: { language: 'hi' },
      token: await tokenOf(teacher.username, teacher.password),
    });
    const { context, page } = await newPage(browser(), WIDE);
    try {
      await page.goto('/login');
      await page.getByLabel(/^Username/).fill(teacher.username);
      await page.getByLabel(/^Password/).fill(teacher.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL('**/dashboard');
      const heading = page.getByRole('heading', { level: 1, name: t('shell', 'menu.dashboard') });
      await heading.waitFor();
      // The worker installs on the first visit; from the next load it serves (and keeps) the font.
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await page.reload();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await heading.waitFor();
      const keptFonts = () =>
        page.evaluate(async () => {
          const cache = await caches.open('console-fonts');
          return (await cache.keys()).map((request) => new URL(request.url).pathname);
        });
      await expect.poll(keptFonts, { timeout: 15_000 }).toContainEqual(expect.stringMatching(/devanagari.*\.woff2$/));

      // Offline, and without the browser's own HTTP cache: only what the worker kept can answer.
      await context.setOffline(true);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      await page.reload();
      await heading.waitFor();
      expect(await fontFaces(page, 'Noto Sans Devanagari')).toContain('400 loaded');
    } finally {
      await context.setOffline(false);
      await context.close();
    }
  });

  it("the parent app keeps the family's font and texts too: Hindi reads the same offline, after a reload online", async () => {
    const p = parentWords('hi');
    const child = await api<{ id: number }>('/students/', {
      json: {
        full_name: `Lang${STAMP} Font Child`,
        class_name: '7',
        parent_name: 'Parent',
        parent_phone: uniquePhone(),
        parent_language: 'hi',
      },
    });
    const issued = await api<{ code: string; phone: string }>(`/students/${child.id}/parent-access`, {
      method: 'POST',
    });
    const { context, page } = await newPage(browser(), PHONE);
    try {
      await page.goto(`/parent/#phone=${encodeURIComponent(issued.phone)}&code=${issued.code}`);
      const inbox = page.getByRole('heading', { name: new RegExp(`^${p('inbox.title')}`) });
      await inbox.waitFor();
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await page.reload();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await inbox.waitFor();
      // A second load online: the shell's cache drops assets the page does not name; the font stays.
      await page.reload();
      await inbox.waitFor();
      const keptFonts = () =>
        page.evaluate(async () => {
          const cache = await caches.open('parent-fonts-v1');
          return (await cache.keys()).map((request) => new URL(request.url).pathname);
        });
      await expect.poll(keptFonts, { timeout: 15_000 }).toContainEqual(expect.stringMatching(/devanagari.*\.woff2$/));
      expect(await keptFonts()).toContainEqual(expect.stringMatching(/devanagari-400-.*\.css$/));

      await context.setOffline(true);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      await page.reload();
      // Offline, from the worker's shell, kept answers and kept texts: still in Hindi.
      await inbox.waitFor();
      await page.locator('html[lang="hi"]').waitFor({ state: 'attached' });
      expect(await fontFaces(page, 'Noto Sans Devanagari')).toContain('400 loaded');
    } finally {
      await context.setOffline(false);
      await context.close();
    }
  });
});
