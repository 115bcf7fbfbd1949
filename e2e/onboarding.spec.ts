// Parents onboarded in bulk (issue 28, item 6; ADR 047): an admin gives a whole class its parent-app
// codes from Students, shares one on WhatsApp and prints the slips (A4, eight a page), at 1280 and
// 390 px, axe clean, with an Urdu family's slip right to left.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, expectAccessible, signedInPage, uniquePhone, useBrowser } from './support/browser';

const { browser } = useBrowser();
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const STAMP = String(process.pid % 10000);

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
}

async function issueFor(page: Page, className: string): Promise<void> {
  await page.goto('/students');
  await page.getByRole('button', { name: 'Parent app codes for a class' }).click();
  const dialog = page.getByRole('dialog', { name: 'Parent app codes for a class' });
  await dialog.getByRole('combobox', { name: 'Class' }).click();
  await page.getByRole('option', { name: new RegExp(`\\b${className}$`) }).click();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Issue codes' }).click();
  await dialog.getByText(/new code\(s\) issued/).waitFor();
}

describe('Parents onboarded in bulk', { timeout: 300_000 }, () => {
  it('issues a class’s codes, with a WhatsApp link per family and slips that print alone', async () => {
    await api('/students/', {
      json: {
        full_name: `Onboard Asha ${STAMP}`,
        class_name: '8',
        parent_name: `Meera ${STAMP}`,
        parent_phone: uniquePhone(),
      },
    });
    await api('/students/', {
      json: {
        full_name: `Onboard Bilal ${STAMP}`,
        class_name: '8',
        parent_name: `Farida ${STAMP}`,
        parent_phone: uniquePhone(),
        parent_language: 'ur',
      },
    });
    const { context, page } = await signedInPage(browser(), undefined, DESKTOP);
    try {
      await issueFor(page, '8');
      const dialog = page.getByRole('dialog', { name: 'Parent app codes for a class' });
      const share = dialog.getByRole('link', { name: `Share on WhatsApp with Meera ${STAMP}` });
      expect(await share.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/\d+\?text=.*%2Fparent%2F%23phone%3D/);
      await expectAccessible(page);

      // Printed, the slips are all there is on the page: A4, two columns.
      await page.emulateMedia({ media: 'print' });
      const slips = page.getByTestId('access-slips');
      await slips.waitFor();
      const urduSlip = slips.getByRole('region', { name: `Farida ${STAMP}` });
      expect(await urduSlip.getAttribute('dir')).toBe('rtl');
      await urduSlip.getByText('والدین کی ایپ', { exact: false }).waitFor();
      await expect.poll(() => urduSlip.locator('img').count()).toBe(1);
      expect(await page.getByRole('dialog').isVisible()).toBe(false);
      await page.emulateMedia({ media: 'screen' });
      await dialog.getByRole('button', { name: 'Done' }).click();
    } finally {
      await context.close();
    }
  });

  it('fits a phone', async () => {
    await api('/students/', {
      json: {
        full_name: `Onboard Chitra ${STAMP}`,
        class_name: '9',
        parent_name: `Ravi ${STAMP}`,
        parent_phone: uniquePhone(),
      },
    });
    const { context, page } = await signedInPage(browser(), undefined, PHONE);
    try {
      await issueFor(page, '9');
      await page.getByRole('link', { name: `Share on WhatsApp with Ravi ${STAMP}` }).waitFor();
      await expectAccessible(page);
      await expectNoSidewaysScroll(page);
    } finally {
      await context.close();
    }
  });
});
