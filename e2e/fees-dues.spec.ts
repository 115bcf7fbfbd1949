// Fees › Dues (issue 29 items 3, 5 and 7; ADR 055): a family charged by a plan is in the dues, its
// statement opens, a part payment by UPI is recorded with a receipt number and the balance drops, the
// receipt prints alone, the payment is reversed and the balance is back. At 1280 and 390 px, axe clean,
// once in Urdu; a teacher has no Fees in the menu.
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
  signIn,
  uniquePhone,
  useBrowser,
} from './support/browser';

const { browser } = useBrowser();
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const tag = `${process.pid % 100000}`;
const urdu = JSON.parse(readFileSync(path.join(ROOT, 'apps/web/src/i18n/locales/ur/fees.json'), 'utf8')) as {
  page: { title: string };
  dues: { label: string; open: string; search: string };
};

/** The dues list shows a page of families at a time: a test finds its own by its phone. */
async function findFamily(page: Page, phone: string, label = 'Search name or phone') {
  await page.getByRole('searchbox', { name: label }).fill(phone);
}

/** A family of one child in class 9, charged ₹2,500 by a one-time plan and this month's charge run. */
async function chargedFamily(name: string): Promise<{ familyId: number; parent: string; phone: string }> {
  const phone = uniquePhone();
  const parent = `${name} Parent ${tag}`;
  const student = await api<{ id: number }>('/students/', {
    json: { full_name: `${name} Child ${tag}`, class_name: '9', parent_name: parent, parent_phone: phone },
  });
  await api('/fees/plans', {
    json: { name: `Admission ${name} ${tag}`, kind: 'one_time', amount_paise: 250_000, student_ids: [student.id] },
  });
  await api('/fees/charges/run', { json: { month: new Date().toISOString().slice(0, 7) } });
  const family = await api<{ family_id: number; balance_paise: number }>(`/fees/students/${student.id}/family`);
  expect(family.balance_paise).toBe(250_000);
  return { familyId: family.family_id, parent, phone };
}

async function adminPage(viewport: { width: number; height: number }) {
  const opened = await newPage(browser(), viewport);
  opened.page.setDefaultTimeout(45_000);
  await signIn(opened.page, ADMIN.username, ADMIN.password);
  return opened;
}

/** The family's balance line on its statement. */
const balance = (page: Page) => page.getByTestId('family-balance');

async function collect(page: Page, amount: string, mode: string, reference?: string): Promise<string> {
  await page.getByRole('button', { name: 'Collect payment', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /^Collect payment:/ });
  await dialog.getByRole('textbox', { name: /Amount/ }).fill(amount);
  await dialog.getByRole('combobox', { name: 'Mode' }).click();
  await page.getByRole('option', { name: mode, exact: true }).click();
  if (reference) await dialog.getByRole('textbox', { name: /UPI reference/ }).fill(reference);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Record payment' }).click();
  const number = dialog.locator('strong bdi');
  await number.waitFor();
  return (await number.textContent()) ?? '';
}

describe('Fees › Dues', { timeout: 300_000 }, () => {
  it('at 1280 px: dues, statement, a part payment by UPI, its receipt printed, reversed', async () => {
    const family = await chargedFamily('Wide');
    const { context, page } = await adminPage(WIDE);
    try {
      await page.goto('/fees');
      await findFamily(page, family.phone);
      const table = page.getByRole('table', { name: 'Families that owe, oldest debt first' });
      const row = table.getByRole('row').filter({ hasText: family.parent });
      await row.waitFor();
      await row.getByText('₹2,500.00').waitFor();
      await page.getByRole('heading', { name: 'Dues by age' }).waitFor();
      // Every column and both buttons fit at 1280 px: the table does not scroll sideways.
      expect(
        await table.evaluate((element) => {
          const box = element.parentElement as HTMLElement;
          return box.scrollWidth <= box.clientWidth;
        }),
      ).toBe(true);
      await expectAccessible(page);

      await row.getByRole('button', { name: 'Statement' }).click();
      await page.waitForURL(`**/fees?tab=dues&family=${family.familyId}`);
      await page.getByRole('heading', { name: `${family.parent}'s family` }).waitFor();
      expect(await balance(page).textContent()).toBe('Owes ₹2,500.00');
      await expectAccessible(page);

      // Online payment is off on this server (no Razorpay settings): the link's dialog says so, nothing breaks.
      await page.getByRole('button', { name: 'Payment link' }).click();
      const link = page.getByRole('dialog', { name: `Payment link: ${family.parent}` });
      await link.getByText(/^Online payment is not set up/).waitFor();
      await expectAccessible(page);
      await link.getByRole('button', { name: 'Close' }).click();
      await link.waitFor({ state: 'detached' });

      const receiptNumber = await collect(page, '1,000.50', 'UPI', `4123${tag.padStart(8, '0')}`);
      expect(receiptNumber).toMatch(/^[A-Z0-9/-]{1,16}$/);
      const done = page.getByRole('dialog', { name: /^Collect payment:/ });
      await done.getByText('How it was allocated').waitFor();
      await expectAccessible(page);
      await done.getByRole('button', { name: 'Print receipt' }).click();

      const receipt = page.getByRole('dialog', { name: 'Receipt' });
      await receipt.getByText(receiptNumber).first().waitFor();
      await expectAccessible(page);
      // Printed, the receipt is alone on the page: the console's chrome and the dialog are hidden.
      await page.emulateMedia({ media: 'print' });
      const printed = page.getByTestId('receipt-print');
      expect(await printed.isVisible()).toBe(true);
      expect(await printed.textContent()).toContain(receiptNumber);
      expect(await page.getByRole('navigation', { name: 'Main menu' }).isVisible()).toBe(false);
      expect(await page.locator('.MuiDialog-root').first().isVisible()).toBe(false);
      await page.emulateMedia({ media: 'screen' });
      expect(await printed.isVisible()).toBe(false);
      await receipt.getByRole('button', { name: 'Close' }).click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="family-balance"]')?.textContent === 'Owes ₹1,499.50',
      );

      // The payment's row on the statement opens its receipt; reversing it puts the money back on the account.
      await page
        .getByRole('table', { name: 'Statement entries' })
        .getByRole('button', { name: 'Receipt' })
        .first()
        .click();
      await receipt.getByRole('button', { name: 'Reverse payment' }).click();
      const confirm = page.getByRole('dialog', { name: `Reverse payment ${receiptNumber}?` });
      await confirm.getByRole('textbox', { name: /Reason/ }).fill('Entered twice by mistake');
      await expectAccessible(page);
      await confirm.getByRole('button', { name: 'Reverse' }).click();
      await receipt.getByText(/^Reversed on .+: Entered twice by mistake$/).waitFor();
      await receipt.getByRole('button', { name: 'Close' }).click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="family-balance"]')?.textContent === 'Owes ₹2,500.00',
      );
      const statement = await api<{ entries: { kind: string; payment_id: number | null }[] }>(
        `/fees/families/${family.familyId}/statement`,
      );
      expect(statement.entries.map((entry) => entry.kind)).toEqual(['charge', 'payment', 'reversal']);
      // The payment's entry and its reversal name the payment whose receipt the console opened.
      const [charge, payment, reversal] = statement.entries;
      expect(charge?.payment_id).toBeNull();
      expect(payment?.payment_id).toEqual(expect.any(Number));
      expect(reversal?.payment_id).toBe(payment?.payment_id);
      const reversed = await api<{ receipt_number: string; reversed: boolean }>(
        `/fees/receipts/${payment?.payment_id}`,
      );
      expect(reversed).toMatchObject({ receipt_number: receiptNumber, reversed: true });
    } finally {
      await context.close();
    }
  });

  it('at 390 px: the family is a card, a cash payment is recorded from it, one more offline (across a reload with no network) once back online, and the balance drops', async () => {
    const family = await chargedFamily('Phone');
    const { context, page } = await adminPage(PHONE);
    try {
      await page.goto('/fees');
      // The console's service worker controls the page, so what the page reads online is kept.
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await page.reload();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await findFamily(page, family.phone);
      const list = page.getByRole('list', { name: 'Families that owe, oldest debt first' });
      const card = list.getByRole('listitem', { name: family.parent });
      await card.waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectAccessible(page);
      await card.getByRole('button', { name: 'Statement' }).click();
      await page.getByRole('heading', { name: `${family.parent}'s family` }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectAccessible(page);
      const receiptNumber = await collect(page, '500', 'Cash');
      expect(receiptNumber.length).toBeGreaterThan(0);
      await page
        .getByRole('dialog', { name: /^Collect payment:/ })
        .getByRole('button', { name: 'Close' })
        .click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="family-balance"]')?.textContent === 'Owes ₹2,000.00',
      );

      // No network: the payment is kept on the phone, shown on the family, and recorded once back online.
      await context.setOffline(true);
      await page.getByRole('button', { name: 'Collect payment', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: /^Collect payment:/ });
      await dialog.getByRole('textbox', { name: /Amount/ }).fill('200');
      await dialog.getByRole('button', { name: 'Record payment' }).click();
      await dialog.getByText('Saved on this phone; it will be recorded when you are online.').waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await page.getByText('Payments kept on this phone').waitFor();
      await page.getByText(/waiting to be recorded/).waitFor();
      await expectAccessible(page);
      // Still no network, the page opened again: the family as last seen and the waiting payment.
      await page.reload();
      await page.getByRole('heading', { name: `${family.parent}'s family` }).waitFor();
      await page.getByText(/waiting to be recorded/).waitFor();
      expect(await page.getByTestId('family-balance').textContent()).toBe('Owes ₹2,000.00');
      await context.setOffline(false);
      await page.getByText(/recorded, receipt /).waitFor();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="family-balance"]')?.textContent === 'Owes ₹1,800.00',
      );
      const statement = await api<{ entries: { kind: string }[] }>(`/fees/families/${family.familyId}/statement`);
      expect(statement.entries.filter((entry) => entry.kind === 'payment')).toHaveLength(2);
    } finally {
      await context.close();
    }
  });

  it('in Urdu: right to left, the phone left to right, axe clean', async () => {
    const family = await chargedFamily('Urdu');
    const created = await api<{ username: string; initial_password: string }>('/admins', {
      json: { username: `fees-urdu-${tag}`, full_name: 'Fees Urdu Admin' },
    });
    const login = await fetch(`${baseUrl()}/api/v1/auth/login`, {
      method: 'POST',
      body: new URLSearchParams({ username: created.username, password: created.initial_password }),
    }).then((response) => response.json() as Promise<{ access_token: string }>);
    const password = 'saffron-ledger-52';
    const changed = await api<{ access_token: string }>('/auth/change-password', {
      token: login.access_token,
      json: { current_password: created.initial_password, new_password: password },
    });
    await api('/auth/me/language', { method: 'PUT', json: { language: 'ur' }, token: changed.access_token });
    const { context, page } = await newPage(browser(), WIDE);
    page.setDefaultTimeout(45_000);
    try {
      await signIn(page, created.username, password);
      await page.locator('html[lang="ur"][dir="rtl"]').waitFor({ state: 'attached' });
      await page.goto('/fees');
      await page.getByRole('heading', { name: urdu.page.title }).first().waitFor();
      await findFamily(page, family.phone, urdu.dues.search);
      const row = page
        .getByRole('table', { name: urdu.dues.label })
        .getByRole('row')
        .filter({ hasText: family.parent });
      await row.waitFor();
      expect(await row.locator('bdi', { hasText: family.phone }).getAttribute('dir')).toBe('ltr');
      await expectAccessible(page);
      await row.getByRole('button', { name: urdu.dues.open }).click();
      await page.getByTestId('family-balance').waitFor();
      expect(await page.getByTestId('family-balance').textContent()).toContain('₹2,500.00');
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });

  it('a teacher has no Fees in the menu, and the fees routes answer 403', async () => {
    const teacher = await createTeacherAccount({ first_name: 'Nofees', last_name: tag }, 'copper-violet-17');
    const { context, page } = await newPage(browser(), WIDE);
    page.setDefaultTimeout(45_000);
    try {
      await signIn(page, teacher.username, teacher.password);
      const menu = page.getByRole('navigation', { name: 'Main menu' });
      await menu.getByRole('link').first().waitFor();
      expect(await menu.getByRole('link', { name: 'Fees' }).count()).toBe(0);
      const login = await fetch(`${baseUrl()}/api/v1/auth/login`, {
        method: 'POST',
        body: new URLSearchParams({ username: teacher.username, password: teacher.password }),
      }).then((response) => response.json() as Promise<{ access_token: string }>);
      const answer = await fetch(`${baseUrl()}/api/v1/fees/dues`, {
        headers: { authorization: `Bearer ${login.access_token}` },
      });
      expect(answer.status).toBe(403);
    } finally {
      await context.close();
    }
  });
});
