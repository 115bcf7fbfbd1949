import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, baseUrl, expectAccessible, newPage, useBrowser } from './support/browser';
import { familyOwingToday, type OwingFamily } from './support/fee-family';

/**
 * A family answers a fee reminder in the parent app (issue 29, ADR 061): the admin charges a fee due
 * on the centre's today and runs the reminders by hand; the parent, on a 390 px phone, opens the
 * reminder, taps "Will pay on …", picks a day and sends it. The message then says so, after a reload
 * too; the admin's promises list has it, and a second answer is refused (409). Axe-clean, no sideways
 * scrolling, and the same in Urdu, right to left.
 */
const { browser } = useBrowser();
const PHONE = { width: 390, height: 844 };

function dayAfter(day: string, days: number): string {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** A family with the parent app, owing a one-time fee due today (the centre's), reminded of it. */
async function remindedFamily(): Promise<OwingFamily> {
  const family = await familyOwingToday({ child: 'Ishaan Verma', parent: 'Rekha Verma' });
  const round = await api<{ sent: number }>('/fees/reminders/run', { method: 'POST' });
  expect(round.sent).toBeGreaterThanOrEqual(1);
  return family;
}

async function parentToken(page: Page): Promise<string> {
  return (await page.evaluate(() => localStorage.getItem('parent_token'))) ?? '';
}

/** The subject of the family's fee reminder, as its inbox answers it. */
async function reminderSubject(token: string): Promise<string> {
  const inbox = await api<{ messages: { kind: string; subject: string; can_fee_reply: boolean }[] }>(
    '/parent/messages',
    { token },
  );
  const reminder = inbox.messages.find((message) => message.kind === 'fee_reminder');
  expect(reminder?.can_fee_reply).toBe(true);
  return reminder?.subject ?? '';
}

async function expectNoOverflow(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
}

describe('a fee reminder answered in the parent app', () => {
  it('a parent says "Will pay on" a day, sees it said, and the centre has the promise', async () => {
    const family = await remindedFamily();
    const { context, page } = await newPage(browser(), PHONE);
    await page.goto(`/parent/#phone=${encodeURIComponent(family.phone)}&code=${family.code}`);
    await page.locator('nav.tabs').waitFor();
    const token = await parentToken(page);
    const subject = await reminderSubject(token);

    await page.getByRole('button', { name: subject }).first().click();
    const answers = page.getByRole('region', { name: 'Answer this reminder' });
    await answers.waitFor();
    expect(await answers.getByRole('button').allTextContents()).toEqual([
      'Paid already',
      'Will pay on …',
      'Please call me',
    ]);
    // The family owes: Pay goes to the Fees tab.
    await page.getByRole('button', { name: 'Pay', exact: true }).waitFor();
    await expectAccessible(page);

    await answers.getByRole('button', { name: 'Will pay on …' }).click();
    const day = page.getByLabel('The day you will pay');
    expect(await day.getAttribute('min')).toBe(dayAfter(family.today, 1));
    expect(await day.getAttribute('max')).toBe(dayAfter(family.today, 60));
    const promised = dayAfter(family.today, 5);
    await day.fill(promised);
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/fee-reply-form.png` });
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Send' }).click();

    const said = /^You will pay on \d{1,2} [A-Z][a-z]+\. Reminders pause until then\.$/;
    await page.getByRole('status').filter({ hasText: said }).waitFor();
    expect(await page.getByRole('region', { name: 'Answer this reminder' }).count()).toBe(0);
    await expectNoOverflow(page);
    await expectAccessible(page);
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/fee-reply-said.png` });

    // Kept on the server: the centre's promises list has it, a reload shows it, a second answer is refused.
    const promises = await api<{ promises: { family_id: number; promised_on: string; via: string }[] }>(
      '/fees/promises',
    );
    expect(promises.promises.find((promise) => promise.family_id === family.familyId)).toMatchObject({
      promised_on: promised,
      via: 'parent_app',
    });
    const inbox = await api<{ messages: { id: number; kind: string }[] }>('/parent/messages', { token });
    const reminder = inbox.messages.find((message) => message.kind === 'fee_reminder');
    const again = await fetch(`${baseUrl()}/api/v1/parent/messages/${reminder?.id}/fee-reply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reply: 'call' }),
    });
    expect(again.status).toBe(409);
    await page.reload();
    await page.getByRole('button', { name: subject }).first().click();
    await page.getByRole('status').filter({ hasText: said }).waitFor();

    // The Pay button opens the Fees tab.
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.getByRole('heading', { name: 'Fees' }).waitFor();
    await context.close();
  });

  it('reads right to left in Urdu: the answers, the reference field, and the answer given', async () => {
    const family = await remindedFamily();
    const { context, page } = await newPage(browser(), PHONE);
    await page.goto(`/parent/#phone=${encodeURIComponent(family.phone)}&code=${family.code}`);
    await page.locator('nav.tabs').waitFor();
    const token = await parentToken(page);
    await api('/parent/language', { method: 'PUT', json: { language: 'ur' }, token });
    const subject = await reminderSubject(token);
    await page.reload();
    await page.locator('html[dir="rtl"]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: subject }).first().click();
    const answers = page.getByRole('region', { name: 'اس یاد دہانی کا جواب دیں' });
    await answers.getByRole('button', { name: 'پہلے ہی ادا کر دیا' }).click();
    await page.getByLabel('ادائیگی کا حوالہ (UPI/UTR یا چیک نمبر)').fill('UTR123');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'بھیجیں' }).click();
    const said = page.getByRole('status').filter({ hasText: 'آپ نے بتایا کہ آپ ادا کر چکے ہیں' });
    await said.waitFor();
    expect(await said.locator('bdi[dir="ltr"]').textContent()).toBe('UTR123');
    await expectNoOverflow(page);
    await expectAccessible(page);
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/fee-reply-ur.png` });
    await context.close();
  });

  it('keeps the unread badge of the reminder clear of the Inbox label in every language, on a phone', async () => {
    const family = await remindedFamily();
    const { context, page } = await newPage(browser(), PHONE);
    await page.goto(`/parent/#phone=${encodeURIComponent(family.phone)}&code=${family.code}`);
    await page.locator('nav.tabs').waitFor();
    const token = await parentToken(page);
    for (const language of ['en', 'hi', 'mr', 'ta', 'bn', 'ur']) {
      await api('/parent/language', { method: 'PUT', json: { language }, token });
      await page.reload();
      await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
      await page.locator('.tab .badge').waitFor();
      await page.evaluate(() => document.fonts.ready);
      const overlap = await page.evaluate(() => {
        const tab = document.querySelector('.tab') as HTMLElement;
        const badge = (tab.querySelector('.badge') as HTMLElement).getBoundingClientRect();
        const label = document.createRange();
        label.selectNodeContents(tab.firstChild as Node);
        return Array.from(label.getClientRects()).some(
          (line) =>
            line.left < badge.right && badge.left < line.right && line.top < badge.bottom && badge.top < line.bottom,
        );
      });
      if (process.env.E2E_SHOTS)
        await page.locator('nav.tabs').screenshot({ path: `${process.env.E2E_SHOTS}/tabs-${language}.png` });
      expect(overlap, language).toBe(false);
    }
    await context.close();
  });
});
