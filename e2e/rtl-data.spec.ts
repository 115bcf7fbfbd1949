// Right to left for data too (issue 28, item 10; ADR 048): in Urdu, a phone number and a student ID read
// left to right inside the right-to-left page (isolated), and a long name is cut at its END, its start
// in view. Checked on the rendered page, not on the words: each element's computed direction, and where
// the browser drew the first and last characters of its text.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/kit/server';
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
const LONG_NAME = 'Priyamvada Lakshminarayanan Venkataraghavan Saxena';
const LONG_PARENT = 'Rajalakshmi Subramaniam Venkatachalapathy Iyengar';

const locale = (namespace: string) =>
  JSON.parse(readFileSync(path.join(ROOT, `apps/web/src/i18n/locales/ur/${namespace}.json`), 'utf8'));
const urdu = {
  imports: locale('imports') as { card: { studentsFile: string; check: string }; result: { toImport: string } },
  messages: locale('messages') as { callList: { label: string } },
  students: locale('students') as { list: { searchPlaceholder: string } },
};

/** The element reads left to right, its first character drawn left of its last. */
async function expectLeftToRight(element: Locator, text: string) {
  await element.waitFor();
  const shown = await drawn(element);
  expect(shown.direction).toBe('ltr');
  expect(shown.text).toBe(text);
  expect(shown.first, `${text}: its first character is drawn left of its last`).toBeLessThan(shown.last);
}

async function tokenOf(username: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl()}/api/v1/auth/login`, {
    method: 'POST',
    body: new URLSearchParams({ username, password }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The element's computed direction, and the left edges of its text's first and last characters as drawn. */
async function drawn(element: Locator) {
  return element.evaluate((node) => {
    const text = Array.from(node.childNodes).find((child) => child.nodeType === Node.TEXT_NODE) as Text | undefined;
    const edge = (index: number) => {
      if (!text) return Number.NaN;
      const range = document.createRange();
      range.setStart(text, index);
      range.setEnd(text, index + 1);
      return range.getBoundingClientRect().left;
    };
    const length = text?.data.length ?? 0;
    const box = node.getBoundingClientRect();
    return {
      direction: getComputedStyle(node).direction,
      overflow: getComputedStyle(node).textOverflow,
      text: text?.data ?? '',
      first: edge(0),
      last: edge(length - 1),
      boxLeft: box.left,
      boxRight: box.right,
    };
  });
}

async function signInInUrdu(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/dashboard');
  await page.locator('html[lang="ur"][dir="rtl"]').waitFor({ state: 'attached' });
}

describe('right to left for data (Urdu)', { timeout: 300_000 }, () => {
  it('phones and IDs read left to right; a long name shows its start, cut at its end', async () => {
    const phone = uniquePhone();
    const student = await api<{ id: number; unique_id: string }>('/students/', {
      json: { full_name: LONG_NAME, class_name: '9', parent_name: 'Parent', parent_phone: phone },
    });
    const teacher = await createTeacherAccount(
      { first_name: 'Rukhsana', last_name: 'Data', classes_assigned: ['9'] },
      'velvet-harbour-64',
    );
    await api('/auth/me/language', {
      method: 'PUT',
      json: { language: 'ur' },
      token: await tokenOf(teacher.username, teacher.password),
    });
    const { context, page } = await newPage(browser(), WIDE);
    await signInInUrdu(page, teacher.username, teacher.password);

    // The students list: the parent's phone reads "+91…" left to right, the ID too.
    await page.goto('/students');
    // Other files on this server add students too: the list is searched for this one, which may not be on page 1.
    await page.getByPlaceholder(urdu.students.list.searchPlaceholder).fill(phone);
    const phoneCell = page.locator('bdi', { hasText: phone }).first();
    await phoneCell.waitFor();
    const shownPhone = await drawn(phoneCell);
    expect(shownPhone.direction).toBe('ltr');
    expect(shownPhone.text).toBe(phone);
    expect(shownPhone.first, 'the + is drawn left of the last digit').toBeLessThan(shownPhone.last);
    const idCell = page.locator('bdi', { hasText: student.unique_id }).first();
    const shownId = await drawn(idCell);
    expect(shownId.direction).toBe('ltr');
    expect(shownId.first).toBeLessThan(shownId.last);
    await expectAccessible(page);

    // The register on a phone: the long name is cut at its end, its first letter in view.
    await page.setViewportSize(PHONE);
    await page.goto('/mark-attendance?class_name=9');
    const name = page.locator('.name-text', { hasText: 'Priyamvada' }).first();
    await name.waitFor();
    const shownName = await drawn(name);
    expect(shownName.direction, 'a Latin name takes its own direction').toBe('ltr');
    expect(shownName.overflow).toBe('ellipsis');
    expect(shownName.first, 'its start is in view').toBeGreaterThanOrEqual(shownName.boxLeft - 1);
    expect(shownName.last, 'its end is the part cut off').toBeGreaterThan(shownName.boxRight);
    // It sits at the page's start, the right in Urdu.
    const row = page.locator('li', { has: name }).first();
    const rowBox = await row.boundingBox();
    expect(rowBox && shownName.boxRight > rowBox.x + rowBox.width / 2).toBe(true);
    await expectAccessible(page);

    // The wide register: the ID under the name reads left to right too.
    await page.setViewportSize(WIDE);
    const wideId = page.locator('bdi', { hasText: student.unique_id }).first();
    await wideId.waitFor();
    expect((await drawn(wideId)).direction).toBe('ltr');
    await context.close();
  });

  it('the call list and an import’s result: phones read left to right, a long name is cut at its end', async () => {
    // A second admin who reads Urdu: the first admin's language stays as the other files expect it.
    const tag = `${process.pid % 100000}`;
    const created = await api<{ username: string; initial_password: string }>('/admins', {
      json: { username: `urdu-admin-${tag}`, full_name: 'Urdu Admin' },
    });
    const first = await tokenOf(created.username, created.initial_password);
    const password = 'lantern-quartz-83';
    const changed = await api<{ access_token: string }>('/auth/change-password', {
      token: first,
      json: { current_password: created.initial_password, new_password: password },
    });
    await api('/auth/me/language', { method: 'PUT', json: { language: 'ur' }, token: changed.access_token });
    // A family no channel reaches, sent a message: it is on the send list with its phone and name.
    const phone = uniquePhone();
    await api('/students/', {
      json: { full_name: `Zoya ${tag}`, class_name: '10', parent_name: LONG_PARENT, parent_phone: phone },
    });
    await api('/messages/send-to-parents', {
      json: { subject: `Right to left ${tag}`, message: 'Please bring the fees.', recipients: '10' },
    });

    const { context, page } = await newPage(browser(), PHONE);
    page.setDefaultTimeout(45_000);
    try {
      await signInInUrdu(page, created.username, password);
      await page.goto('/communications?tab=call-list');
      const list = page.getByRole('list', { name: urdu.messages.callList.label });
      const row = list.getByRole('listitem').filter({ hasText: phone }).first();
      await expectLeftToRight(row.locator(`a[href="tel:${phone}"] bdi`), phone);
      const name = row.locator('.name-text', { hasText: 'Rajalakshmi' });
      await name.waitFor();
      const shownName = await drawn(name);
      expect(shownName.direction, 'a Latin name takes its own direction').toBe('ltr');
      expect(shownName.overflow).toBe('ellipsis');
      expect(shownName.first, 'its start is in view').toBeGreaterThanOrEqual(shownName.boxLeft - 1);
      expect(shownName.last, 'its end is the part cut off').toBeGreaterThan(shownName.boxRight);
      await expectAccessible(page);

      // An import's check: each record's phone reads left to right under its name.
      await page.setViewportSize(WIDE);
      const imported = uniquePhone();
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(
        book,
        XLSX.utils.aoa_to_sheet([
          ['First Name', 'Last Name', 'Class', 'Parent Phone', 'Parent Name'],
          ['Nargis', `Import ${tag}`, 10, imported, 'Parent Import'],
        ]),
        'Students',
      );
      await page.goto('/import');
      await page.getByLabel(urdu.imports.card.studentsFile).setInputFiles({
        name: 'students.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer,
      });
      await page.getByRole('button', { name: urdu.imports.card.check }).first().click();
      const records = page.getByRole('list', { name: urdu.imports.result.toImport });
      await expectLeftToRight(records.locator('bdi', { hasText: imported }).first(), imported);
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });
});
