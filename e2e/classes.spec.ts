// Classes and subjects the centre defines (issue 28, ADR 043): the admin's page at /classes at 1280 and
// 390 px and in Urdu, and a class added there offered by the Add Student dialog.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/kit/server';
import { ADMIN, acceptDialogs, api, expectAccessible, signedInPage, uniquePhone, useBrowser } from './support/browser';

const { browser } = useBrowser();
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const STAMP = String(process.pid % 10000);
const urdu = JSON.parse(readFileSync(path.join(ROOT, 'apps/web/src/i18n/locales/ur/classes.json'), 'utf8')) as {
  title: string;
  classes: { heading: string; add: string };
};

/** Pages on a busy machine (six test runs on two cores): 45 s a step rather than 15. */
function patient<T extends { page: Page }>(opened: T): T {
  opened.page.setDefaultTimeout(45_000);
  opened.page.setDefaultNavigationTimeout(45_000);
  return opened;
}

/** Nothing wider than the screen: no sideways scrolling on a phone. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
}

describe('Classes and subjects', { timeout: 400_000 }, () => {
  it('an admin adds a batch, relabels, moves, archives and unarchives it, and deletes an unused one', async () => {
    const batch = `Batch ${STAMP}`;
    const spare = `Spare ${STAMP}`;
    const { context, page } = patient(await signedInPage(browser(), undefined, DESKTOP));
    const dialogs = acceptDialogs(page);
    try {
      await page.goto('/classes');
      await page.getByRole('heading', { level: 2, name: 'Classes and subjects' }).waitFor();
      await page.getByRole('table', { name: 'Classes' }).getByText('Class 10', { exact: true }).waitFor();
      await expectAccessible(page);

      const addClass = page.getByRole('form', { name: 'Add class' });
      for (const value of [batch, spare]) {
        await addClass.getByRole('textbox', { name: 'Class name' }).fill(value);
        await addClass.getByRole('button', { name: 'Add class' }).click();
        await page.getByText(`${value} added`).waitFor();
      }
      // Used by a student, it cannot be deleted, only archived.
      await api('/students/', {
        json: { full_name: `Pupil ${STAMP}`, class_name: batch, parent_name: 'Parent', parent_phone: uniquePhone() },
      });
      await page.reload();

      await page.getByRole('button', { name: `Edit ${batch}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Shown as' }).fill(`Evening ${STAMP}`);
      await dialog.getByRole('textbox', { name: 'Section' }).fill('B');
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Save' }).click();
      const shown = `Evening ${STAMP} – B`;
      await page.getByText(`${shown} saved`).waitFor();

      await page.getByRole('button', { name: `Move ${shown} up` }).click();
      await page.getByText('New order saved').waitFor();
      expect(await page.getByRole('button', { name: `Delete ${shown}` }).count()).toBe(0);

      await page.getByRole('button', { name: `Archive ${shown}` }).click();
      await page.getByText(`${shown} archived: it is no longer offered`).waitFor();
      const options = await api<{ value: string }[]>('/students/classes');
      expect(options.map((option) => option.value)).not.toContain(batch);
      await page.getByRole('button', { name: `Unarchive ${shown}` }).click();
      await page.getByText(`${shown} is offered again`).waitFor();

      await page.getByRole('button', { name: `Delete ${spare}` }).click();
      await page.getByText(`${spare} deleted`).waitFor();
      expect(dialogs).toEqual([`Delete ${spare}? Nothing uses it yet. This cannot be undone.`]);

      // The Add Student dialog offers the batch under the centre's label.
      await page.goto('/students');
      await page.getByRole('button', { name: 'Add Student' }).click();
      await page.getByRole('dialog').getByRole('combobox', { name: /Class/ }).click();
      await page.getByRole('option', { name: shown }).waitFor();
      expect(await page.getByRole('option', { name: '7', exact: true }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('fits a phone, and reads right to left in Urdu', async () => {
    const phone = patient(await signedInPage(browser(), undefined, PHONE));
    try {
      await phone.page.goto('/classes');
      await phone.page.getByRole('heading', { level: 2, name: 'Classes and subjects' }).waitFor();
      await phone.page.getByText('Class 7', { exact: true }).first().waitFor();
      await expectAccessible(phone.page);
      await expectNoSidewaysScroll(phone.page);
    } finally {
      await phone.context.close();
    }

    await api('/auth/me/language', { method: 'PUT', json: { language: 'ur' } });
    try {
      for (const viewport of [DESKTOP, PHONE]) {
        // Signed in in the browser's English; the console then speaks the account's Urdu.
        const { context, page } = patient(await signedInPage(browser(), ADMIN, viewport));
        try {
          await page.goto('/classes');
          await page.getByRole('heading', { level: 2, name: urdu.title }).waitFor();
          await page.getByRole('heading', { name: urdu.classes.heading, exact: true }).waitFor();
          expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
          expect(await page.evaluate(() => document.documentElement.lang)).toBe('ur');
          await page.getByRole('button', { name: urdu.classes.add }).waitFor();
          await expectAccessible(page);
          if (viewport === PHONE) await expectNoSidewaysScroll(page);
        } finally {
          await context.close();
        }
      }
    } finally {
      await api('/auth/me/language', { method: 'PUT', json: { language: 'en' } });
    }
  });
});
