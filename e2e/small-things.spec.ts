import * as XLSX from '@e965/xlsx';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choosePassword, type RunningServer, startServer } from '../scripts/kit/server';
import { api, baseUrl, expectAccessible, signedInPage, signIn, uniquePhone, useBrowser } from './support/browser';

const { browser } = useBrowser();
const PHONE_VIEWPORT = { width: 390, height: 844 };
const DESKTOP_VIEWPORT = { width: 1280, height: 900 };
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/**
 * Changing the admin's password ends the admin's other sessions, and the shared server's admin is
 * every other spec's: this one runs on a server of its own, whose first admin is the one changed.
 * (Only the first start makes an admin; no route makes another.)
 */
describe('Change Password from the account menu, as an admin', () => {
  const GIVEN = 'e2e-small-things-initial';
  const FIRST = 'Harbour-Lantern-Violet-41';
  const SECOND = 'Meadow-Copper-Kestrel-73';
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ env: { ADMIN_PASSWORD: GIVEN }, timeoutMs: 180_000 });
    await choosePassword(server.base, 'admin', GIVEN, FIRST);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('changes it (a wrong current password refused on the way), and only the new one signs in after', async () => {
    const context = await browser().newContext({ viewport: DESKTOP_VIEWPORT, baseURL: server.base });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signIn(page, 'admin', FIRST);

    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await dialog.waitFor();
    // Asked for by the admin: no "choose your own before you continue".
    expect(await dialog.getByText(/given to you/).count()).toBe(0);
    await expectAccessible(page);

    await dialog.getByLabel(/^Current Password/).fill('not-the-password');
    await dialog.getByLabel(/^New Password/).fill(SECOND);
    await dialog.getByLabel(/^Confirm New Password/).fill(SECOND);
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await dialog.getByText('Current password is incorrect').waitFor();

    await dialog.getByLabel(/^Current Password/).fill(FIRST);
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Password changed successfully.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    // The session goes on with the new token: the console still answers.
    await page.getByRole('link', { name: /^Students/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Students' }).waitFor();

    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login');

    await page.getByLabel(/^Username/).fill('admin');
    await page.getByLabel(/^Password/).fill(FIRST);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Incorrect username or password').waitFor();
    await signIn(page, 'admin', SECOND);
    await page.getByText('ADMIN', { exact: true }).waitFor();
    await context.close();
  });
});

interface Family {
  phone: string;
  code: string;
}

/** A family with one child in class 9, a message for it, and its sign-in link. */
async function familyWithMessage(subject: string): Promise<Family> {
  const student = await api<{ id: number }>('/students/', {
    json: {
      full_name: `Kavya Menon ${Date.now() % 100000}`,
      class_name: '9',
      parent_name: 'Lakshmi Menon',
      parent_phone: uniquePhone(),
    },
  });
  const issued = await api<Family>(`/students/${student.id}/parent-access`, { method: 'POST' });
  await api('/messages/send-to-parents', {
    json: { subject, message: 'The centre is closed on Monday.', recipients: '9' },
  });
  return issued;
}

async function parentContext(options: { userAgent?: string } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser().newContext({ viewport: PHONE_VIEWPORT, baseURL: baseUrl(), ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { context, page };
}

async function openInbox(page: Page, family: Family, subject: string) {
  await page.goto(`/parent/#phone=${encodeURIComponent(family.phone)}&code=${family.code}`);
  await page.getByRole('heading', { name: /^Inbox/ }).waitFor();
  await page.getByRole('button', { name: new RegExp(subject) }).waitFor();
}

/**
 * Chromium's own setting for the site, as a parent's "Block" on the prompt leaves it. The setting
 * lasts as long as the session that made it: left open, closed with the browser.
 */
async function blockNotifications(context: BrowserContext, page: Page) {
  const { targetInfo } = await (await context.newCDPSession(page)).send('Target.getTargetInfo');
  const session = await browser().newBrowserCDPSession();
  await session.send('Browser.setPermission', {
    permission: { name: 'notifications' },
    setting: 'denied',
    origin: baseUrl(),
    browserContextId: targetInfo.browserContextId,
  });
}

describe('the parent app when notifications are refused or the phone is offline', () => {
  it('all well: no note in the inbox', async () => {
    const subject = `All well ${Date.now()}`;
    const family = await familyWithMessage(subject);
    const { context, page } = await parentContext();
    await context.grantPermissions(['notifications'], { origin: baseUrl() });
    await openInbox(page, family, subject);
    expect(await page.getByText(/turned off for this browser|You are offline|cannot be reached/).count()).toBe(0);
    await context.close();
  });

  it('notifications blocked: the inbox says so, with the steps for Chrome on Android, and hides for good', async () => {
    const subject = `Blocked ${Date.now()}`;
    const family = await familyWithMessage(subject);
    const { context, page } = await parentContext({ userAgent: ANDROID_CHROME });
    await blockNotifications(context, page);
    await openInbox(page, family, subject);
    expect(await page.evaluate(() => Notification.permission)).toBe('denied');
    const note = page.getByRole('region', { name: 'Notifications are turned off for this browser' });
    await note.waitFor();
    await note
      .getByText('Tap the icon left of the address, then Permissions → Notifications, and turn them on.')
      .waitFor();
    await expectAccessible(page);
    await page.setViewportSize(DESKTOP_VIEWPORT);
    await expectAccessible(page);
    await page.setViewportSize(PHONE_VIEWPORT);
    // Settings says it too, with the same steps.
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByText('Notifications are blocked by the browser.', { exact: false }).waitFor();
    await page.getByText(/Permissions → Notifications/).waitFor();
    await page.getByRole('button', { name: /^Inbox/ }).click();
    await note.getByRole('button', { name: 'Hide this' }).click();
    await note.waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByRole('button', { name: new RegExp(subject) }).waitFor();
    expect(await note.count()).toBe(0);
    await context.close();
  });

  it('offline: the inbox keeps its messages and says from when, also after a reload from what the phone kept', async () => {
    const subject = `Offline ${Date.now()}`;
    const family = await familyWithMessage(subject);
    const { context, page } = await parentContext();
    await context.grantPermissions(['notifications'], { origin: baseUrl() });
    await openInbox(page, family, subject);
    // Once the service worker runs the page, its answers are the ones it keeps.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.reload();
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await page.getByRole('button', { name: new RegExp(subject) }).waitFor();
    const answeredAt = await page.evaluate(() =>
      new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' }).format(new Date()),
    );

    await context.setOffline(true);
    const note = page.getByRole('status').filter({ hasText: 'You are offline.' });
    await note.waitFor();
    expect(await note.textContent()).toMatch(/^You are offline\. These are the messages you had at \d\d:\d\d\./);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('button', { name: new RegExp(subject) }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await expectAccessible(page);
    await page.setViewportSize(DESKTOP_VIEWPORT);
    await expectAccessible(page);
    await page.setViewportSize(PHONE_VIEWPORT);

    // Opened again with no network: the app and the messages come from the phone, and say so.
    await page.reload();
    await page.getByRole('button', { name: new RegExp(subject) }).waitFor();
    await note.waitFor();
    const kept = (await note.textContent()) ?? '';
    const time = /you had at (\d\d:\d\d)\./.exec(kept)?.[1];
    // The kept answer's own time: the one before the reload, give or take the minute it turned.
    expect(time).toBeDefined();
    expect(Math.abs(minutesOf(time as string) - minutesOf(answeredAt))).toBeLessThanOrEqual(1);
    await expectAccessible(page);

    await context.setOffline(false);
    await note.waitFor({ state: 'hidden' });
    await context.close();
  });
});

function minutesOf(clock: string): number {
  const [hours, minutes] = clock.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/** Presses Tab until a control matching `selector` has the keyboard focus. */
async function tabTo(page: Page, selector: string, most = 30): Promise<void> {
  for (let step = 0; step < most; step += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return;
  }
  throw new Error(`no ${selector} within ${most} tabs`);
}

async function focusOutline(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    return {
      label: element.getAttribute('aria-label') ?? element.textContent,
      style: style.outlineStyle,
      width: style.outlineWidth,
      color: style.outlineColor,
    };
  });
}

describe('a visible keyboard focus ring', () => {
  it('on the console: a button reached with Tab shows a 3 px blue ring, one clicked does not', async () => {
    const { context, page } = await signedInPage(browser(), undefined, DESKTOP_VIEWPORT);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await tabTo(page, 'button.MuiButtonBase-root');
    expect(await focusOutline(page)).toMatchObject({ style: 'solid', width: '3px', color: 'rgb(30, 90, 168)' });
    await page.screenshot({ path: `${process.cwd()}/bench/.scratch/focus-ring-console.png` });
    // A menu item reached with the arrow keys: the ring drawn inside it, where the menu cannot clip it.
    await page.getByRole('button', { name: 'Account' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Change Password' }).waitFor();
    await page.keyboard.press('ArrowDown');
    const item = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement as HTMLElement);
      return {
        role: document.activeElement?.getAttribute('role'),
        style: style.outlineStyle,
        offset: style.outlineOffset,
      };
    });
    expect(item).toEqual({ role: 'menuitem', style: 'solid', offset: '-3px' });
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'hidden' });
    // The menu's invisible backdrop goes when its closing transition ends.
    await page.locator('.MuiPopover-root').waitFor({ state: 'detached' });
    // A press of the mouse is not keyboard focus: the button takes the focus, and no ring. (Released
    // away from the button, so nothing opens.)
    const bell = page.getByRole('button', { name: /^Recent activity/ });
    const box = await bell.boundingBox();
    if (!box) throw new Error('the bell is not on screen');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await expect.poll(() => bell.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await bell.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe('none');
    await page.mouse.move(box.x - 300, box.y + 300);
    await page.mouse.up();
    await context.close();
  });

  it('in the parent app: a dark blue ring, 10:1 against the page', async () => {
    const subject = `Focus ${Date.now()}`;
    const family = await familyWithMessage(subject);
    const { context, page } = await parentContext();
    await context.grantPermissions(['notifications'], { origin: baseUrl() });
    await openInbox(page, family, subject);
    await tabTo(page, 'button');
    expect(await focusOutline(page)).toMatchObject({ style: 'solid', width: '3px', color: 'rgb(21, 62, 117)' });
    await page.screenshot({ path: `${process.cwd()}/bench/.scratch/focus-ring-parent.png` });
    await context.close();
  });
});

describe('teacher emails on the Teachers list', () => {
  /** For each piece of the address (text between break chances), how many lines it takes. */
  async function linesPerPiece(page: Page, email: string): Promise<number[]> {
    const cell = page.locator(`[data-email="${email}"]`).first();
    await cell.scrollIntoViewIfNeeded();
    return cell.evaluate((element) =>
      Array.from(element.querySelectorAll('span')).map((node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size;
      }),
    );
  }

  it.each([
    ['1280 px', DESKTOP_VIEWPORT],
    ['390 px', PHONE_VIEWPORT],
  ])('never cut inside a name at %s', async (_width, viewport) => {
    const email = `meera.krishnamurthy.${Date.now()}@tuition-centre-of-excellence.example.org`;
    await api('/teachers/', {
      json: {
        first_name: 'Meera',
        last_name: 'Krishnamurthy',
        email,
        phone_number: uniquePhone(),
        subjects: ['English'],
        classes_assigned: ['9'],
      },
    });
    const { context, page } = await signedInPage(browser(), undefined, viewport);
    await page.goto('/teachers');
    await page.getByRole('heading', { level: 1, name: 'Teachers' }).waitFor();
    const last = page.getByRole('button', { name: 'Go to last page' });
    if ((await last.count()) > 0 && (await last.isEnabled())) await last.click();
    await page.locator(`[data-email="${email}"]`).first().waitFor();
    const lines = await linesPerPiece(page, email);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines, `lines each piece of ${email} takes`).toEqual(lines.map(() => 1));
    expect(await page.locator(`[data-email="${email}"]`).first().textContent()).toBe(email);
    await page.screenshot({ path: `${process.cwd()}/bench/.scratch/teacher-email-${viewport.width}.png` });
    await context.close();
  });
});

describe('a spreadsheet imported again', () => {
  it.each([
    ['1280 px', DESKTOP_VIEWPORT],
    ['390 px', PHONE_VIEWPORT],
  ])('reports its rows as already imported, apart from the errors, at %s', async (_width, viewport) => {
    const stamp = Date.now() % 1_000_000;
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['First Name', 'Last Name', 'Class', 'Parent Phone', 'Parent Name'],
        ['Again', `One ${stamp}`, 7, uniquePhone(), 'P One'],
        ['Again', `Two ${stamp}`, 8, uniquePhone(), 'P Two'],
        ['Broken', 'Row', '12', uniquePhone(), 'P Three'],
      ]),
      'Students',
    );
    const file = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    const { context, page } = await signedInPage(browser(), undefined, viewport);
    await page.goto('/import');
    const upload = async () => {
      await page.getByLabel('Student spreadsheet file').setInputFiles({
        name: 'students.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: file,
      });
      await page.getByRole('button', { name: 'Upload', exact: true }).first().click();
    };
    await upload();
    await page.getByText('Imported 2 students. 1 row(s) had errors and were skipped.').waitFor();
    await upload();
    await page
      .getByText('No students were imported: 2 row(s) were already imported and 1 row(s) had errors.')
      .waitFor();
    await page.getByText('2 row(s) were already imported and were left as they are').waitFor();
    const already = page.getByRole('list', { name: 'Rows already imported' });
    expect(await already.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`^Row 2: Again One ${stamp}\\s+On record as STU\\d+$`)),
      expect.stringMatching(new RegExp(`^Row 3: Again Two ${stamp}\\s+On record as STU\\d+$`)),
    ]);
    // The one real problem is the only error.
    await page.getByText('1 row(s) had errors and were skipped').waitFor();
    expect(await page.getByRole('list', { name: 'Row errors' }).getByRole('listitem').count()).toBe(1);
    await expectAccessible(page);
    await context.close();
  });
});
