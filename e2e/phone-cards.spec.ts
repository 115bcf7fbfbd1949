import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, api, expectAccessible, signedInPage, uniquePhone, useBrowser } from './support/browser';

const { browser } = useBrowser();

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 900 };

/** The page does not scroll sideways: nothing sits off the right of the screen. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
  expect(width, `scroll width of ${page.url()}`).toBeLessThanOrEqual(PHONE.width);
}

/** Every one of these controls lies within the screen's width (scrolled to, if below the fold). */
async function expectWithinScreen(controls: Locator): Promise<number> {
  const count = await controls.count();
  for (let index = 0; index < count; index += 1) {
    const control = controls.nth(index);
    await control.scrollIntoViewIfNeeded();
    const box = await control.boundingBox();
    const name = (await control.getAttribute('aria-label')) ?? (await control.textContent());
    expect(box, `${name} is on the page`).not.toBeNull();
    if (!box) continue;
    expect(box.x, `${name} starts on the screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${name} ends on the screen`).toBeLessThanOrEqual(PHONE.width);
  }
  return count;
}

describe('lists on a phone are cards, with every value and action on the screen', () => {
  // Seven screens at two widths, with axe on each: more than the default minute on a loaded machine.
  it('Students, Teacher Attendance, Approval and the other lists at 390 px, and tables at 1280 px', async () => {
    const tag = `${process.pid % 10000}-${Date.now() % 100000}`;
    const studentName = `Card Pupil ${tag}`;
    const teacherFirst = `Cardteacher${tag.replace('-', '')}`;
    const student = await api<{ id: number; full_name: string }>('/students/', {
      json: { full_name: studentName, class_name: '10', parent_name: 'Card Parent', parent_phone: uniquePhone() },
    });
    await api('/teachers/', {
      json: {
        first_name: teacherFirst,
        last_name: 'Card',
        phone_number: uniquePhone(),
        subjects: ['Science'],
        classes_assigned: ['10'],
      },
    });
    const today = new Date().toLocaleDateString('en-CA');
    await api('/attendance/mark', {
      json: { date: today, records: [{ student_id: student.id, status: 'absent', remarks: 'Fever' }] },
    });

    const phone = await signedInPage(browser(), ADMIN, PHONE);
    const { page } = phone;

    // Students: a card a student, every action of every card on the screen.
    await page.goto('/students');
    await page.getByRole('heading', { level: 1, name: 'Students' }).waitFor();
    const students = page.getByRole('list', { name: 'Students' });
    await students.waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    const actions = students.getByRole('listitem').getByRole('button');
    expect(await expectWithinScreen(actions)).toBeGreaterThan(0);
    await page.getByRole('searchbox', { name: 'Search students' }).fill(studentName);
    const card = students.getByRole('listitem', { name: studentName });
    await card.waitFor();
    for (const action of [`Parent access for ${studentName}`, `Edit ${studentName}`, `Delete ${studentName}`]) {
      await card.getByRole('button', { name: action }).waitFor();
    }
    expect(await expectWithinScreen(card.getByRole('button'))).toBeGreaterThanOrEqual(3);
    await card.getByRole('checkbox', { name: `Select ${studentName}` }).check();
    await page.getByRole('button', { name: 'Delete Selected (1)' }).waitFor();
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await expectNoSidewaysScroll(page);
    await page.getByRole('searchbox', { name: 'Search students' }).fill('');
    await expectAccessible(page);

    // Teacher Attendance: every teacher's status picker on the screen.
    await page.goto('/teacher-attendance');
    await page.getByRole('heading', { level: 1, name: 'Teacher Attendance' }).waitFor();
    const teacherCard = page.getByRole('listitem', { name: `${teacherFirst} Card` });
    await teacherCard.waitFor();
    await teacherCard.getByRole('combobox', { name: `Status of ${teacherFirst} Card` }).waitFor();
    const pickers = page.getByRole('combobox', { name: /^Status of / });
    expect(await expectWithinScreen(pickers)).toBeGreaterThan(0);
    expect(await expectWithinScreen(page.getByRole('button', { name: 'Save Attendance' }))).toBe(1);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);

    // Approval: the status of each pending record is in view, with its checkbox.
    await page.goto('/attendance');
    await page.getByRole('heading', { level: 1, name: 'Attendance Approval' }).waitFor();
    const record = page.getByRole('listitem', { name: studentName });
    await record.waitFor();
    const status = record.getByText('ABSENT', { exact: true });
    expect(await expectWithinScreen(status)).toBe(1);
    expect(await status.isVisible()).toBe(true);
    await record.getByText('Fever').waitFor();
    await record.getByRole('checkbox', { name: `Select ${studentName}` }).check();
    await page.getByRole('button', { name: 'Approve Attendance (1)' }).waitFor();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);

    // The other lists: no table scrolled sideways, nothing off the screen.
    for (const [path, title] of [
      ['/teachers', 'Teachers'],
      ['/attendance-history', 'Attendance History'],
      ['/leave', 'Leave'],
      ['/communications', 'Communications'],
      ['/audit', 'Audit'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('table').count(), `${title} has no table on a phone`).toBe(0);
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);
    }
    await expectWithinScreen(page.getByRole('list', { name: 'Audit log' }).getByRole('listitem').first());
    await phone.context.close();

    // On a laptop the same lists are tables.
    const laptop = await signedInPage(browser(), ADMIN, LAPTOP);
    for (const [path, table] of [
      ['/students', 'Students'],
      ['/teacher-attendance', /^Teacher attendance, /],
      ['/attendance', /^Pending attendance, /],
      ['/audit', 'Audit log'],
    ] as const) {
      await laptop.page.goto(path);
      await laptop.page.getByRole('table', { name: table }).first().waitFor();
      await laptop.page.waitForLoadState('networkidle');
      expect(
        await laptop.page
          .getByRole('listitem')
          .filter({ has: laptop.page.getByRole('checkbox') })
          .count(),
      ).toBe(0);
      await expectAccessible(laptop.page);
    }
    await laptop.context.close();
  }, 400_000);
});
