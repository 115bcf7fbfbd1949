// Fees › Plans and the charge run (issue 29, items 2 and 7; ADR 052, 056): an admin makes a monthly plan
// for a class in the console, raises the month's charges (n > 0), runs the month again (0: nothing
// twice), and the dashboard's Overdue card shows what the ledger's ageing says. At 1280 and 390 px, axe
// clean, and once in Urdu (right to left).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/kit/server';
import { ADMIN, api, expectAccessible, newPage, signIn, uniquePhone, useBrowser } from './support/browser';

const { browser } = useBrowser();
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const urdu = JSON.parse(readFileSync(path.join(ROOT, 'apps/web/src/i18n/locales/ur/feePlans.json'), 'utf8')) as {
  plans: { heading: string; add: string };
  run: { title: string };
};

const urduDashboard = JSON.parse(
  readFileSync(path.join(ROOT, 'apps/web/src/i18n/locales/ur/dashboard.json'), 'utf8'),
) as { fees: { overdue: string; collectedToday: string } };

interface Ageing {
  overdue_paise: number;
  overdue_families: number;
}

const tag = `${process.pid % 100000}`;

async function signedInPage(viewport: { width: number; height: number }) {
  const opened = await newPage(browser(), viewport);
  opened.page.setDefaultTimeout(45_000);
  await signIn(opened.page, ADMIN.username, ADMIN.password);
  return opened;
}

/** ₹1,250.00 as the console shows it in English (Indian grouping). */
function rupees(paise: number): string {
  return new Intl.NumberFormat('en-IN-u-nu-latn', { style: 'currency', currency: 'INR' }).format(paise / 100);
}

/** What the ledger's ageing says is owed past its due date: the Overdue card's figure and caption. */
async function overdue(): Promise<{ paise: number; families: number }> {
  const ageing = await api<Ageing>('/fees/ageing');
  return { paise: ageing.overdue_paise, families: ageing.overdue_families };
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'nothing wider than the screen').toBeLessThanOrEqual(0);
}

/** Adds a monthly plan for `className` through the dialog, due on the 1st (so this month is past due). */
async function addMonthlyPlan(page: Page, name: string, classLabel: string) {
  await page.goto('/fees?tab=plans');
  await page.getByRole('button', { name: 'Add plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a fee plan' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('textbox', { name: 'Amount a month' }).fill('1,500.50');
  await dialog.getByText('₹1,500.50').waitFor();
  await dialog.getByRole('combobox', { name: 'Classes' }).click();
  await page.getByRole('option', { name: classLabel, exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Due day of the month' }).fill('1');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByText(`${name} added`).waitFor();
  await page.getByText('₹1,500.50 a month').first().waitFor();
}

/** Runs the month the tab offers (this month in the centre's zone) twice: n > 0, then nothing new. */
async function runTwice(page: Page): Promise<number> {
  await page.goto('/fees?tab=charges');
  const month = await page.getByRole('textbox', { name: 'Month', exact: true }).inputValue();
  expect(month).toMatch(/^\d{4}-\d\d$/);
  const [year, number] = month.split('-').map(Number);
  const monthName = new Intl.DateTimeFormat('en-u-nu-latn', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year ?? 1970, (number ?? 1) - 1, 1)),
  );
  await page.getByText('Running a month again never charges twice', { exact: false }).waitFor();
  const run = page.getByRole('button', { name: `Raise charges for ${monthName}` });
  await run.click();
  const raised = page.getByText(new RegExp(`^(\\d+) charges? raised for ${monthName}\\.$`));
  await raised.waitFor();
  const created = Number((await raised.textContent())?.split(' ')[0]);
  expect(created).toBeGreaterThan(0);
  await expectAccessible(page);
  await run.click();
  await page.getByText(`Nothing new was raised: ${monthName} was already charged.`).waitFor();
  return created;
}

describe('fee plans and the charge run', () => {
  it('at 1280 px: a monthly plan for a class, the month charged once, and the Overdue card as the ageing says', async () => {
    await api('/students/', {
      json: {
        full_name: `Kavya Fees ${tag}`,
        class_name: '9',
        parent_name: `Anita ${tag}`,
        parent_phone: uniquePhone(),
      },
    });
    const before = await overdue();
    const { context, page } = await signedInPage(WIDE);
    try {
      await addMonthlyPlan(page, `Class 9 tuition ${tag}`, 'Class 9');
      await expectAccessible(page);
      await runTwice(page);

      const after = await overdue();
      // The plan falls due on the 1st: this month's charges are past due, so more is overdue than before.
      expect(after.paise).toBeGreaterThan(before.paise);
      await page.goto('/dashboard');
      const card = page.locator('.MuiCard-root').filter({ hasText: 'Overdue' });
      await card.getByText(rupees(after.paise), { exact: true }).waitFor();
      await card
        .getByText(`${after.families} ${after.families === 1 ? 'family owes' : 'families owe'} past the due date`)
        .waitFor();
      expect(await card.getByRole('link').getAttribute('href')).toBe('/fees');
      await page.locator('.MuiCard-root').filter({ hasText: 'Collected today' }).getByText('payment').waitFor();
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('at 390 px: the same as cards, nothing wider than the phone', async () => {
    await api('/students/', {
      json: {
        full_name: `Ravi Fees ${tag}`,
        class_name: '10',
        parent_name: `Sunil ${tag}`,
        parent_phone: uniquePhone(),
      },
    });
    const { context, page } = await signedInPage(PHONE);
    try {
      await addMonthlyPlan(page, `Class 10 tuition ${tag}`, 'Class 10');
      // Below the medium breakpoint the plans are cards, with their actions in view.
      const planCard = page.locator('li').filter({ hasText: `Class 10 tuition ${tag}` });
      await planCard.getByRole('button', { name: `Change Class 10 tuition ${tag}` }).waitFor();
      await noSidewaysScroll(page);
      await expectAccessible(page);
      await runTwice(page);
      await noSidewaysScroll(page);
      await page.goto('/dashboard');
      await page.locator('.MuiCard-root').filter({ hasText: 'Overdue' }).getByText('past the due date').waitFor();
      await noSidewaysScroll(page);
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('in Urdu, right to left', async () => {
    await api('/fees/plans', {
      json: { name: `Urdu plan ${tag}`, kind: 'monthly', amount_paise: 100000, class_names: ['8'] },
    });
    await api('/auth/me/language', { method: 'PUT', json: { language: 'ur' } });
    try {
      const { context, page } = await signedInPage(WIDE);
      try {
        await page.goto('/fees?tab=plans');
        await page.getByRole('heading', { name: urdu.plans.heading }).waitFor();
        await page.getByRole('button', { name: urdu.plans.add }).waitFor();
        expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
        // The spec's class in the glossary's word, the amount in the language's own order.
        const row = page.locator('tr').filter({ hasText: `Urdu plan ${tag}` });
        await row.getByText('جماعت 8').waitFor();
        await row.getByText('₹1,000.00', { exact: false }).waitFor();
        await expectAccessible(page);
        await page.goto('/fees?tab=charges');
        await page.getByText(urdu.run.title).waitFor();
        await expectAccessible(page);
        // The dashboard's fee cards in Urdu, their figures left to right in a right-to-left page.
        await page.goto('/dashboard');
        const overdueCard = page.locator('.MuiCard-root').filter({ hasText: urduDashboard.fees.overdue });
        await overdueCard.getByText('₹').waitFor();
        await page.locator('.MuiCard-root').filter({ hasText: urduDashboard.fees.collectedToday }).waitFor();
        await expectAccessible(page);
      } finally {
        await context.close();
      }
    } finally {
      await api('/auth/me/language', { method: 'PUT', json: { language: 'en' } });
    }
  }, 300_000);
});
