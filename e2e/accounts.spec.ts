// No one locked out (issue 28, item 7; ADR 046): the sign-in page's Forgot your password?, a teacher's
// password reset and the Admins page, at 1280 and 390 px, axe clean, and the Admins page in Urdu.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/kit/server';
import {
  ADMIN,
  api,
  baseUrl,
  createTeacherAccount,
  expectAccessible,
  newPage,
  signedInPage,
  useBrowser,
} from './support/browser';

const { browser } = useBrowser();
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const STAMP = String(process.pid % 10000);
const urdu = JSON.parse(readFileSync(path.join(ROOT, 'apps/web/src/i18n/locales/ur/teachers.json'), 'utf8')) as {
  admins: { title: string; add: string };
};

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
}

async function signInStatus(username: string, password: string): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/v1/auth/login`, {
    method: 'POST',
    body: new URLSearchParams({ username, password }),
  });
  return response.status;
}

describe('No one locked out', { timeout: 300_000 }, () => {
  it('the sign-in page says what to do about a forgotten password, on a phone too', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await newPage(browser(), viewport);
      try {
        await page.goto('/login');
        const forgot = page.getByRole('button', { name: 'Forgot your password?' });
        await forgot.click();
        await page.getByText(/ask an admin of the centre to reset it/).waitFor();
        await page.getByText('npm run reset-password -- admin').waitFor();
        await expectAccessible(page);
        if (viewport === PHONE) await expectNoSidewaysScroll(page);
      } finally {
        await context.close();
      }
    }
  });

  it('an admin resets a teacher’s password: the new one is shown once and the old one stops working', async () => {
    const teacher = await createTeacherAccount({ first_name: 'Reset', last_name: `Me${STAMP}` }, 'meadow-signal-47');
    const { context, page } = await signedInPage(browser(), undefined, DESKTOP);
    try {
      await page.goto('/teachers');
      await page.getByRole('button', { name: `Reset password for ${teacher.full_name}` }).click();
      const ask = page.getByRole('dialog', { name: `Reset password for ${teacher.full_name}` });
      await ask.waitFor();
      await expectAccessible(page);
      await ask.getByRole('button', { name: 'Reset password' }).click();
      const shown = page.getByRole('dialog', { name: 'Password reset' });
      await shown.waitFor();
      await expectAccessible(page);
      const text = await shown.innerText();
      const password = text.match(/New password\s+(\S{16})/)?.[1] as string;
      expect(password).toBeDefined();
      expect(await signInStatus(teacher.username, 'meadow-signal-47')).toBe(401);
      expect(await signInStatus(teacher.username, password)).toBe(200);
      await shown.getByRole('button', { name: 'Done' }).click();
    } finally {
      await context.close();
    }
  });

  it('the Admins page adds an admin, fits a phone and reads right to left in Urdu', async () => {
    const { context, page } = await signedInPage(browser(), undefined, DESKTOP);
    try {
      await page.goto('/admins');
      await page.getByRole('heading', { name: 'Admins', level: 2 }).waitFor();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Add Admin' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Admin' });
      await dialog.getByRole('textbox', { name: /Full Name/ }).fill(`Deputy ${STAMP}`);
      await dialog.getByRole('textbox', { name: /Username/ }).fill(`deputy${STAMP}`);
      await dialog.getByRole('button', { name: 'Create' }).click();
      const shown = page.getByRole('dialog', { name: 'Admin account created' });
      await shown.waitFor();
      await expectAccessible(page);
      await shown.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('listitem', { name: `Deputy ${STAMP}` }).waitFor();
    } finally {
      await context.close();
    }

    const phone = await signedInPage(browser(), undefined, PHONE);
    try {
      await phone.page.goto('/admins');
      await phone.page.getByRole('listitem', { name: `Deputy ${STAMP}` }).waitFor();
      await expectAccessible(phone.page);
      await expectNoSidewaysScroll(phone.page);
    } finally {
      await phone.context.close();
    }

    await api('/auth/me/language', { method: 'PUT', json: { language: 'ur' } });
    try {
      for (const viewport of [DESKTOP, PHONE]) {
        const { context: c, page: p } = await newPage(browser(), viewport);
        try {
          await p.goto('/login');
          await p.getByLabel(/^Username/).fill(ADMIN.username);
          await p.getByLabel(/^Password/).fill(ADMIN.password);
          await p.getByRole('button', { name: /Sign In|سائن ان/ }).click();
          await p.waitForURL('**/dashboard');
          await p.goto('/admins');
          await p.getByRole('heading', { name: urdu.admins.title, level: 2 }).waitFor();
          await p.getByRole('button', { name: urdu.admins.add }).waitFor();
          expect(await p.evaluate(() => document.documentElement.dir)).toBe('rtl');
          await expectAccessible(p);
          if (viewport === PHONE) await expectNoSidewaysScroll(p);
        } finally {
          await c.close();
        }
      }
    } finally {
      await api('/auth/me/language', { method: 'PUT', json: { language: 'en' } });
    }
  });
});
