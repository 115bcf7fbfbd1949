import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, api, expectAccessible, newPage, signedInPage, useBrowser } from './support/browser';

const { browser } = useBrowser();
const PHONE_VIEWPORT = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

interface Student {
  id: number;
  full_name: string;
  parent_phone: string;
}

let counter = 0;
/** A ten-digit Indian mobile number of this run's own (the spec files share one server). */
function localNumber(): string {
  counter += 1;
  return `6${String(process.pid % 10000).padStart(4, '0')}${String(Date.now() % 100).padStart(2, '0')}${String(counter).padStart(3, '0')}`;
}

/** How people in India write one number; each is stored as +91 and the ten digits. */
const WRITTEN_FORMS: [string, (digits: string) => string][] = [
  ['98123 45670', (d) => `${d.slice(0, 5)} ${d.slice(5)}`],
  ['098123-45670', (d) => `0${d.slice(0, 5)}-${d.slice(5)}`],
  ['+91 98123 45670', (d) => `+91 ${d.slice(0, 5)} ${d.slice(5)}`],
  ['0091 9812345670', (d) => `0091 ${d}`],
  ['(981) 234-5670', (d) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`],
  ['9812345670', (d) => d],
];

const SHORT_NUMBER =
  'Enter the phone number with 10 digits (this one has 9), or with its country code, e.g. +91 98123 45670';

async function openAddStudent(page: Page) {
  await page.getByRole('button', { name: 'Add Student' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Student' });
  await dialog.waitFor();
  return dialog;
}

async function fillStudent(page: Page, name: string, phone: string) {
  const dialog = await openAddStudent(page);
  await dialog.getByLabel(/^Full Name/).fill(name);
  await dialog.getByLabel(/^Class/).click();
  await page.getByRole('option', { name: '9', exact: true }).click();
  await dialog.getByLabel(/^Parent Name/).fill('Parent Of Phones');
  await dialog.getByLabel(/^Parent Phone/).fill(phone);
  return dialog;
}

describe('phone numbers as people write them', () => {
  it('an admin adds students with local numbers in six forms; each is stored as E.164', async () => {
    const { context, page } = await signedInPage(browser(), ADMIN, DESKTOP);
    await page.goto('/students');
    await page.getByRole('heading', { level: 1, name: 'Students' }).waitFor();
    // The admin sees which code a number without one takes, where they type phones.
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Country code for local numbers' }).inputValue())
      .toBe('+91');
    const run = Date.now();
    const expected = new Map<string, string>();
    for (const [index, [, write]] of WRITTEN_FORMS.entries()) {
      const digits = localNumber();
      const name = `Phone Form ${index + 1} ${run}`;
      const dialog = await fillStudent(page, name, write(digits));
      await dialog.getByText('Without a country code, +91 is added, e.g. 98123 45670').waitFor();
      await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      expected.set(name, `+91${digits}`);
    }
    const students = await api<Student[]>('/students/');
    const stored = new Map(
      students.filter((student) => expected.has(student.full_name)).map((s) => [s.full_name, s.parent_phone]),
    );
    expect(expected.size).toBe(WRITTEN_FORMS.length);
    expect(stored).toEqual(expected);
    await context.close();
  });

  for (const viewport of [DESKTOP, PHONE_VIEWPORT]) {
    it(`a refused number is named on the Parent Phone field, not above the form (${viewport.width} px)`, async () => {
      const { context, page } = await signedInPage(browser(), ADMIN, viewport);
      await page.goto('/students');
      await page.getByRole('heading', { level: 1, name: 'Students' }).waitFor();
      // The Students screen with the admins' country code setting beside the list.
      const setting = page.getByRole('textbox', { name: 'Country code for local numbers' });
      await expect.poll(() => setting.inputValue()).toBe('+91');
      await page.waitForLoadState('networkidle');
      await expectAccessible(page);
      const name = `Short Phone ${viewport.width} ${Date.now()}`;
      const dialog = await fillStudent(page, name, '98123 4567');
      await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      const phone = dialog.getByRole('textbox', { name: /^Parent Phone/ });
      await expect.poll(() => phone.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await phone.getAttribute('aria-describedby')) ?? '';
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(SHORT_NUMBER);
      expect(await dialog.getByRole('alert').count()).toBe(0);
      await expectAccessible(page);
      // Editing the field takes its refusal away; cancelled, nothing was stored.
      await phone.fill('98123 45670');
      expect(await phone.getAttribute('aria-invalid')).toBe('false');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect((await api<Student[]>('/students/')).some((student) => student.full_name === name)).toBe(false);
      await context.close();
    });
  }

  it('a parent signs in with their number written as they write it, and is told on the field what to fix', async () => {
    const digits = localNumber();
    const child = await api<Student>('/students/', {
      json: {
        full_name: `Phone Child ${Date.now()}`,
        class_name: '8',
        parent_name: 'Phone Parent',
        parent_phone: digits,
      },
    });
    expect(child.parent_phone).toBe(`+91${digits}`);
    const issued = await api<{ code: string }>(`/students/${child.id}/parent-access`, { method: 'POST' });

    const { context, page } = await newPage(browser(), PHONE_VIEWPORT);
    await page.goto('/parent/');
    const phone = page.getByLabel('Phone number');
    await phone.fill('98123 4567');
    await page.getByLabel('Access code').fill(issued.code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const problem = page.getByRole('alert');
    await expect
      .poll(() => problem.textContent())
      .toBe('Enter your phone number with 10 digits (this one has 9), or with its country code, e.g. +91 98123 45670');
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    expect(await phone.getAttribute('aria-describedby')).toContain('parent-phone-problem');
    await expectAccessible(page);
    await page.setViewportSize(DESKTOP);
    await expectAccessible(page);

    await phone.fill(`0${digits.slice(0, 5)} ${digits.slice(5)}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /^Inbox/ }).waitFor();
    await context.close();
  });
});
