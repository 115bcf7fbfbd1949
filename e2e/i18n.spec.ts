import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { api, expectAccessible, signedInPage, useBrowser } from './support/browser';

const { browser } = useBrowser();

const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Account menu → Language → a language (by its own name) → Save, in the words the console shows now. */
async function chooseLanguage(
  page: Page,
  words: { account: string; language: string; save: string },
  name: string,
): Promise<void> {
  await page.getByRole('button', { name: words.account }).click();
  await page.getByRole('menuitem', { name: words.language }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name }).check();
  await dialog.getByRole('button', { name: words.save }).click();
  await dialog.waitFor({ state: 'hidden' });
}

const html = (page: Page, attribute: string) => page.locator('html').getAttribute(attribute);

describe('the console in Hindi and Urdu', { timeout: 120_000 }, () => {
  // The shared admin reads English again for every other spec, whatever happened here.
  afterAll(async () => {
    await api('/auth/me/language', { method: 'PUT', json: { language: null } });
  });

  it('speaks Hindi once chosen from the account menu, and keeps it on reload (kept on the server)', async () => {
    const { context, page } = await signedInPage(browser(), undefined, WIDE);
    try {
      await chooseLanguage(page, { account: 'Account', language: 'Language', save: 'Save' }, 'हिन्दी');
      const menu = page.getByRole('navigation', { name: 'मुख्य मेनू' });
      await menu.getByText('उपस्थिति स्वीकृति').waitFor();
      await page.getByRole('heading', { level: 1, name: 'डैशबोर्ड' }).waitFor();
      await page.getByText('कुल विद्यार्थी').waitFor();
      expect(await html(page, 'lang')).toBe('hi');
      expect(await html(page, 'dir')).toBe('ltr');
      await expectAccessible(page);

      await page.reload();
      await page.getByText('कुल विद्यार्थी').waitFor();
      expect(await html(page, 'lang')).toBe('hi');
      const me = await api<{ language: string | null }>('/auth/me');
      expect(me.language).toBe('hi');

      await page.setViewportSize(PHONE);
      await page.getByRole('button', { name: 'मेनू खोलें' }).waitFor();
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });

  it('follows the account to another device; is right to left in Urdu, the menu on the right; goes back to English', async () => {
    // The account chose Hindi above: a new sign-in elsewhere (a fresh browser context) comes in Hindi.
    const { context, page } = await signedInPage(browser(), undefined, WIDE);
    try {
      await page.getByRole('heading', { level: 1, name: 'डैशबोर्ड' }).waitFor();
      expect(await html(page, 'lang')).toBe('hi');
      await chooseLanguage(page, { account: 'खाता', language: 'भाषा', save: 'सहेजें' }, 'اردو');
      await page.getByRole('heading', { level: 1, name: 'ڈیش بورڈ' }).waitFor();
      expect(await html(page, 'lang')).toBe('ur');
      expect(await html(page, 'dir')).toBe('rtl');
      const menu = page.getByRole('navigation', { name: 'مرکزی مینو' });
      const box = await menu.boundingBox();
      expect(box, 'the menu is shown').not.toBeNull();
      // Mirrored: the sidebar sits at the right edge, the page to its left.
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeGreaterThan(WIDE.width - 10);
      const main = await page.getByRole('main').boundingBox();
      expect((main?.x ?? WIDE.width) + (main?.width ?? 0)).toBeLessThanOrEqual((box?.x ?? 0) + 1);
      await expectAccessible(page);

      await page.setViewportSize(PHONE);
      await page.getByRole('button', { name: 'مینو کھولیں' }).waitFor();
      await expectAccessible(page);

      await page.setViewportSize(WIDE);
      await chooseLanguage(page, { account: 'اکاؤنٹ', language: 'زبان', save: 'محفوظ کریں' }, 'English');
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      expect(await html(page, 'lang')).toBe('en');
      expect(await html(page, 'dir')).toBe('ltr');
      expect((await api<{ language: string | null }>('/auth/me')).language).toBe('en');
    } finally {
      await context.close();
    }
  });
});
