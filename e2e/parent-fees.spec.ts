import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, baseUrl, expectAccessible, newPage, uniquePhone, useBrowser } from './support/browser';

/**
 * Fees in the parent app (ADR 059): a parent signs in, opens Fees and sees the balance and the
 * statement the staff API shows for the family, on a phone and a wide screen, in English and in Urdu
 * (right to left), each view axe-clean and without sideways scrolling. Online payment is off on the
 * test server: the app says to pay at the centre.
 */
const { browser } = useBrowser();
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };

interface Statement {
  family_id: number;
  balance_paise: number;
  entries: { date: string; kind: string; debit_paise: number; credit_paise: number; balance_paise: number }[];
}

function yesterday(): string {
  return new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
}

/** A family with one child, a one-time fee of ₹3,000 charged by the charge run, and ₹500 paid in cash. */
async function owingFamily(): Promise<{ phone: string; code: string; familyId: number; receipt: string }> {
  const child = await api<{ id: number; parent_phone: string }>('/students/', {
    json: {
      full_name: 'Zoya Khan',
      class_name: '9',
      parent_name: 'Imran Khan',
      parent_phone: uniquePhone(),
    },
  });
  const issued = await api<{ code: string; phone: string }>(`/students/${child.id}/parent-access`, { method: 'POST' });
  await api('/fees/plans', {
    json: { name: `Admission ${child.id}`, kind: 'one_time', amount_paise: 300_000, student_ids: [child.id] },
  });
  await api('/fees/charges/run', { json: { month: new Date().toISOString().slice(0, 7) } });
  const family = await api<{ family_id: number; balance_paise: number }>(`/fees/students/${child.id}/family`);
  expect(family.balance_paise).toBe(300_000);
  const paid = await api<{ receipt_number: string }>('/fees/payments', {
    json: {
      family_id: family.family_id,
      amount_paise: 50_000,
      mode: 'cash',
      received_on: yesterday(),
      client_id: crypto.randomUUID(),
    },
  });
  return { phone: issued.phone, code: issued.code, familyId: family.family_id, receipt: paid.receipt_number };
}

async function signedInParent(
  on: Browser,
  family: { phone: string; code: string },
  viewport: { width: number; height: number },
): Promise<Page> {
  const { page } = await newPage(on, viewport);
  await page.goto(`/parent/#phone=${encodeURIComponent(family.phone)}&code=${family.code}`);
  await page.locator('nav.tabs').waitFor();
  return page;
}

/** Nothing wider than the screen: no sideways scrolling, and no tab label cut off. */
async function expectNoOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    tabs: Array.from(document.querySelectorAll<HTMLElement>('.tab'))
      .filter((tab) => {
        const box = tab.getBoundingClientRect();
        return tab.scrollWidth > tab.clientWidth + 1 || box.left < 0 || box.right > window.innerWidth + 0.5;
      })
      .map((tab) => tab.textContent),
  }));
  expect(overflow).toEqual({ page: 0, tabs: [] });
}

/** An amount as the page itself formats it in `language` (₹2,500.00 in English). */
function moneyIn(page: Page, language: string, paise: number): Promise<string> {
  return page.evaluate(
    ([tag, value]) =>
      new Intl.NumberFormat(`${tag}-IN-u-nu-latn`, { style: 'currency', currency: 'INR' }).format(Number(value) / 100),
    [language, String(paise)],
  );
}

describe('fees in the parent app', () => {
  it('shows the balance and statement the staff see, on a phone and a wide screen, and a receipt', async () => {
    const family = await owingFamily();
    const staff = await api<Statement>(`/fees/families/${family.familyId}/statement`);
    expect(staff.balance_paise).toBe(250_000);

    for (const viewport of [PHONE, WIDE]) {
      const page = await signedInParent(browser(), family, viewport);
      await page.getByRole('button', { name: 'Fees' }).click();
      await page.getByRole('heading', { name: 'Fees', level: 1 }).waitFor();
      const balance = page.locator('.fees-balance');
      await balance.getByText('You owe').waitFor();
      expect(await balance.locator('.balance-line').textContent()).toBe('You owe ₹2,500.00');
      await balance.getByText('Pay at the centre.').waitFor();
      expect(await page.getByRole('button', { name: /Pay .* online/ }).count()).toBe(0);

      // The statement: the staff's lines, newest first, each with the staff's running balance.
      const lines = page.getByRole('list', { name: 'Statement' }).getByRole('listitem');
      expect(await lines.count()).toBe(staff.entries.length);
      const newestFirst = [...staff.entries].reverse();
      for (const [index, entry] of newestFirst.entries()) {
        const text = await lines.nth(index).textContent();
        // The payment (yesterday) comes before the charge (today): the family was in advance in between.
        const running = await moneyIn(page, 'en', Math.abs(entry.balance_paise));
        expect(text).toContain(entry.balance_paise < 0 ? `Advance ${running}` : `Balance ${running}`);
        expect(text).toContain(await moneyIn(page, 'en', entry.debit_paise || entry.credit_paise));
      }
      const receipts = page.getByRole('list', { name: 'Receipts' }).getByRole('listitem');
      expect(await receipts.count()).toBe(1);
      expect(await receipts.first().textContent()).toContain(family.receipt);
      await expectNoOverflow(page);
      await expectAccessible(page);

      await page.getByRole('button', { name: `Open receipt ${family.receipt}` }).click();
      await page.getByRole('heading', { name: `Receipt ${family.receipt}` }).waitFor();
      const receipt = page.locator('article.receipt');
      expect(await receipt.textContent()).toContain('Imran Khan');
      expect(await receipt.textContent()).toContain('₹500.00');
      await page.getByRole('button', { name: 'Print' }).waitFor();
      // The PDF staff print, saved from the app.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Save PDF' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${family.receipt.replaceAll('/', '-')}.pdf`);
      await expectNoOverflow(page);
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Back to fees' }).click();
      await page.getByRole('heading', { name: 'Fees', level: 1 }).waitFor();
      await page.context().close();
    }
  });

  it('reads right to left in Urdu on a phone, the amounts in Urdu, axe-clean', async () => {
    const family = await owingFamily();
    const page = await signedInParent(browser(), family, PHONE);
    const token = await page.evaluate(() => localStorage.getItem('parent_token'));
    const set = await fetch(`${baseUrl()}/api/v1/parent/language`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ language: 'ur' }),
    });
    expect(set.status).toBe(200);
    await page.reload();
    await page.getByRole('button', { name: 'فیس' }).click();
    await page.locator('html[dir="rtl"]').waitFor({ state: 'attached' });
    const balance = page.locator('.fees-balance');
    await balance.getByText('آپ کے ذمے').waitFor();
    const owed = await moneyIn(page, 'ur', 250_000);
    expect(await balance.locator('.balance-figure').textContent()).toContain(owed);
    await balance.getByText('مرکز پر ادا کریں۔').waitFor();
    const lines = page.getByRole('list', { name: 'حساب کی تفصیل' }).getByRole('listitem');
    expect(await lines.count()).toBeGreaterThan(0);
    const kinds = await lines.locator('.fee-kind').allTextContents();
    expect(kinds).toContain('ادائیگی');
    expect(kinds).toContain('فیس');
    await expectNoOverflow(page);
    await expectAccessible(page);
    await page.context().close();
  });

  it('fits every language on a phone: five tabs, none cut off', async () => {
    const family = await owingFamily();
    const page = await signedInParent(browser(), family, PHONE);
    const token = await page.evaluate(() => localStorage.getItem('parent_token'));
    for (const language of ['en', 'hi', 'mr', 'ta', 'bn', 'ur']) {
      await fetch(`${baseUrl()}/api/v1/parent/language`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ language }),
      });
      await page.reload();
      await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
      await page.locator('.tab').nth(3).click();
      await page.locator('.fees-balance').waitFor();
      if (process.env.E2E_SHOTS)
        await page.screenshot({ path: `${process.env.E2E_SHOTS}/fees-${language}.png`, fullPage: true });
      await expectNoOverflow(page);
    }
    await page.context().close();
  });
});
