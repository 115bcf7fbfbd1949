import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  api,
  expectAccessible,
  newPage,
  signedInPage,
  signIn,
  uniquePhone,
  useBrowser,
} from './support/browser';

const { browser } = useBrowser();

describe('signing in and the shell', () => {
  it('signs the admin in, shows every menu item and the footer, and signs out', async () => {
    const { context, page } = await newPage(browser());
    await page.goto('/students');
    await page.waitForURL('**/login');
    await expectAccessible(page);
    await expect.poll(() => page.getByRole('button', { name: 'Sign In' }).isDisabled()).toBe(true);

    await page.getByLabel(/^Username/).fill('admin');
    await page.getByLabel(/^Password/).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Incorrect username or password').waitFor();
    // The error clears when the user types.
    await page.getByLabel(/^Password/).fill(ADMIN.password);
    expect(await page.getByText('Incorrect username or password').count()).toBe(0);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard');

    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByText('Import Data').waitFor();
    const items = await menu.getByRole('link').allInnerTexts();
    expect(items.map((text) => text.split('\n')[0])).toEqual([
      'Dashboard',
      'Students',
      'Teachers',
      'Admins',
      'Mark Attendance',
      'Attendance Approval',
      'Leave',
      'Attendance History',
      'Teacher Attendance',
      'Fees',
      'Communications',
      'Import Data',
      'Audit',
      'Centre Settings',
      'Classes and subjects',
    ]);
    await page.getByText('ADMIN', { exact: true }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([
      null,
      null,
    ]);
    await context.close();
  });

  it('keeps the session across a reload, and sends any 401 to the sign-in screen with a notice', async () => {
    const { context, page } = await signedInPage(browser());
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    // The token is spoilt from a page with no console running: a poll of the dashboard's, sent with
    // the spoilt token, would otherwise end the session there first and the next page would open
    // with no session at all (a plain sign-in screen, not the notice under test).
    const quiet = await context.newPage();
    await page.close();
    await quiet.goto('/api/v1/health');
    await quiet.evaluate(() => localStorage.setItem('token', 'not-a-valid-token'));
    await quiet.goto('/students');
    await quiet.waitForURL('**/login?session_expired=true');
    await quiet.getByText('Your session has expired. Please sign in again.').waitFor();
    await context.close();
  });

  it('asks a new teacher for their own password first, then shows the teacher menu', async () => {
    const teacher = await api<{ username: string; initial_password: string }>('/teachers/', {
      json: {
        first_name: 'Meera',
        last_name: 'Iyer',
        phone_number: uniquePhone(),
        subjects: ['English'],
        classes_assigned: ['8'],
      },
    });
    const { context, page } = await newPage(browser(), { width: 390, height: 844 });
    await signIn(page, teacher.username, teacher.initial_password);
    const dialog = page.getByRole('dialog', { name: 'Choose a new password' });
    await dialog.waitFor();
    await expectAccessible(page);
    await dialog.getByLabel(/^Current Password/).fill(teacher.initial_password);
    await dialog.getByLabel(/^New Password/).fill('short');
    await dialog.getByLabel(/^Confirm New Password/).fill('short');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await dialog.getByText('New password must be at least 6 characters').waitFor();
    // The server's own refusal shows under the field, in its words.
    await dialog.getByLabel(/^New Password/).fill('meera-2024');
    await dialog.getByLabel(/^Confirm New Password/).fill('meera-2024');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await dialog.getByText('New password must not contain your name (Meera)').waitFor();
    await dialog.getByLabel(/^New Password/).fill('silver-comet-18');
    await dialog.getByLabel(/^Confirm New Password/).fill('silver-comet-18');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Phone width: the menu is a drawer behind the menu button, and holds the teacher's items only.
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByText('Communications').waitFor();
    expect((await menu.getByRole('link').allInnerTexts()).map((text) => text.split('\n')[0])).toEqual([
      'Dashboard',
      'Students',
      'Mark Attendance',
      'Leave',
      'Communications',
    ]);
    await page.getByText('TEACHER', { exact: true }).waitFor();

    // The old password no longer works; the new one does.
    await page.keyboard.press('Escape');
    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());
    await signIn(page, teacher.username, 'silver-comet-18');
    await context.close();
  });

  it('changes a password from the sign-in screen, and closes the dialog by itself after 2 seconds', async () => {
    const teacher = await api<{ username: string; initial_password: string }>('/teachers/', {
      json: { first_name: 'Arjun', last_name: 'Das', phone_number: uniquePhone() },
    });
    const { context, page } = await newPage(browser());
    await page.goto('/login');
    await page.getByLabel(/^Username/).fill(teacher.username);
    await page.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await dialog.getByText('All fields are required').waitFor();
    await dialog.getByLabel(/^Current Password/).fill(teacher.initial_password);
    await dialog.getByLabel(/^New Password/).fill('cobalt-river-29');
    await dialog.getByLabel(/^Confirm New Password/).fill('arjun-passwor');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await dialog.getByText('New passwords do not match').waitFor();
    await dialog.getByLabel(/^Confirm New Password/).fill('cobalt-river-29');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await dialog.getByText('Password changed successfully! You can now login with your new password.').waitFor();
    await dialog.waitFor({ state: 'hidden', timeout: 5000 });
    await signIn(page, teacher.username, 'cobalt-river-29');
    await context.close();
  });
});
