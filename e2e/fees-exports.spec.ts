// The accountant's exports in the console (issue 29 item 7; ADR 058): from Fees › Dues the admin
// downloads the dues as CSV, today's collections as CSV and a family's statement as Excel; each file
// is what the server made (BOM, CRLF, formula-looking text behind a quote; Excel numbers as numbers).
// The menu is axe clean at 1280 px, and at 390 px in Urdu, right to left.
import { readFile } from 'node:fs/promises';
import * as XLSX from '@e965/xlsx';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, api, expectAccessible, newPage, signIn, uniquePhone, useBrowser } from './support/browser';

const { browser } = useBrowser();
const tag = `${process.pid % 100000}`;

/** A family that has paid ₹750.50 by cash today (an advance), its parent named as an attacker would. */
async function payingFamily(): Promise<{ familyId: number; parent: string; phone: string; receipt: string }> {
  const parent = `=HYPERLINK("http://evil/${tag}")`;
  const phone = uniquePhone();
  const student = await api<{ id: number }>('/students/', {
    json: { full_name: `Export Child ${tag}`, class_name: '8', parent_name: parent, parent_phone: phone },
  });
  const { family_id: familyId } = await api<{ family_id: number }>(`/fees/students/${student.id}/family`);
  const paid = await api<{ receipt_number: string }>('/fees/payments', {
    json: {
      family_id: familyId,
      amount_paise: 75_050,
      mode: 'cash',
      // The centre's today, whatever the zone: a date past it is refused as in the future.
      received_on: (await api<{ today: string }>('/settings/centre')).today,
      client_id: crypto.randomUUID(),
    },
  });
  return { familyId, parent, phone, receipt: paid.receipt_number };
}

/** Opens the menu of the Export button named `name`, checks it with axe, and downloads `format`. */
async function exportFrom(page: Page, name: string, format: string): Promise<Download> {
  await page.getByRole('button', { name, exact: true }).click();
  await page.getByRole('menu').waitFor();
  await expectAccessible(page);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: format, exact: true }).click(),
  ]);
  return download;
}

describe('Fees exports', { timeout: 300_000 }, () => {
  it('at 1280 px: the dues and collections as CSV, a statement as Excel, each as the server made it', async () => {
    const family = await payingFamily();
    const { context, page } = await newPage(browser(), { width: 1280, height: 900 });
    page.setDefaultTimeout(45_000);
    try {
      await signIn(page, ADMIN.username, ADMIN.password);
      await page.goto('/fees');
      await page.getByRole('heading', { name: 'Families that owe' }).waitFor();

      const dues = await exportFrom(page, 'Export dues', 'CSV file');
      expect(dues.suggestedFilename()).toMatch(/^fees-dues-\d{4}-\d{2}-\d{2}\.csv$/);
      const duesCsv = await readFile((await dues.path()) as string, 'utf8');
      expect(duesCsv.startsWith('\uFEFF"Family id","Parent","Phone","Children (class)","Balance (₹)"')).toBe(true);
      expect(duesCsv.endsWith('\r\n')).toBe(true);

      const collected = await exportFrom(page, 'Export Collected today', 'CSV file');
      expect(collected.suggestedFilename()).toMatch(/^fees-collections-.*\.csv$/);
      const lines = (await readFile((await collected.path()) as string, 'utf8')).split('\r\n');
      const ours = lines.find((line) => line.includes(family.receipt)) as string;
      // The parent's name is text behind a quote (a spreadsheet shows it, never runs it); the money is a number.
      expect(ours).toContain(`"'${family.parent.replaceAll('"', '""')}"`);
      expect(ours).toContain('"cash"');
      expect(ours).toContain('"750.50"');

      await page.goto(`/fees?tab=dues&family=${family.familyId}`);
      const statement = await exportFrom(page, 'Export statement', 'Excel file (.xlsx)');
      expect(statement.suggestedFilename()).toMatch(new RegExp(`^fees-statement-family-${family.familyId}-.*\\.xlsx$`));
      const book = XLSX.read(await readFile((await statement.path()) as string), { type: 'buffer', cellNF: true });
      const sheet = book.Sheets.Statement as XLSX.WorkSheet;
      expect(sheet.A1?.v).toBe('Date');
      expect(sheet.F2).toMatchObject({ t: 'n', v: 750.5, z: '#,##0.00' });
      expect(sheet.G2).toMatchObject({ t: 'n', v: -750.5 });
      expect(sheet.C3).toMatchObject({ t: 's', v: `${family.parent} (${family.phone})` });
    } finally {
      await context.close();
    }
  });

  it('at 390 px in Urdu: the menu reads right to left, axe clean, and still downloads', async () => {
    const { context, page } = await newPage(browser(), { width: 390, height: 844 });
    page.setDefaultTimeout(45_000);
    try {
      // The account's language, kept per account: the console opens in it at sign-in.
      await api('/auth/me/language', { method: 'PUT', json: { language: 'ur' } });
      await signIn(page, ADMIN.username, ADMIN.password);
      await page.locator('html[lang="ur"][dir="rtl"]').waitFor({ state: 'attached' });
      await page.goto('/fees');
      await page.locator('html[lang="ur"][dir="rtl"]').waitFor({ state: 'attached' });
      const download = await exportFrom(page, 'واجبات برآمد کریں', 'CSV فائل');
      expect(download.suggestedFilename()).toMatch(/^fees-dues-.*\.csv$/);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
    } finally {
      await api('/auth/me/language', { method: 'PUT', json: { language: 'en' } });
      await context.close();
    }
  });
});
