import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTeacherAccount, expectAccessible, signedInPage, signIn, useBrowser } from './support/browser';

const { browser } = useBrowser();

// The browser tests share one server with the other spec files, so the accounts here are teachers of
// their own: the admin every other file signs in as never gets a second factor.

/** RFC 6238 as an authenticator app computes it (SHA-1, 30 s, 6 digits), written apart from the server's. */
function authenticatorCode(base32Secret: string, atMs = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32Secret.replace(/\s/g, '')) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

async function openTwoFactor(page: Page) {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Two-factor sign-in' }).click();
  const dialog = page.getByRole('dialog', { name: /Two-factor sign-in|Save your recovery codes/ });
  await dialog.waitFor();
  return dialog;
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
}

async function enterPassword(page: Page, username: string, password: string) {
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

describe('two-factor sign-in', () => {
  it('sets up an authenticator from the account menu, signs in with a code and a recovery code, and turns it off', async () => {
    const teacher = await createTeacherAccount({ first_name: 'Otto', last_name: 'Pillai' }, 'amber-glacier-75');
    const { context, page } = await signedInPage(browser(), teacher);

    // Setup: the QR code and the key, one code to confirm, then the recovery codes once.
    let dialog = await openTwoFactor(page);
    await dialog.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await dialog.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
    const secret = (await dialog.getByTestId('two-factor-secret').innerText()).replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAccessible(page);
    await dialog.getByLabel(/^Authentication code/).fill('000000' === authenticatorCode(secret) ? '111111' : '000000');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText(/^That code is not right/).waitFor();
    await dialog.getByLabel(/^Authentication code/).fill(authenticatorCode(secret));
    await dialog.getByRole('button', { name: 'Confirm' }).click();

    dialog = page.getByRole('dialog', { name: 'Save your recovery codes' });
    const list = dialog.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const codes = await list.getByRole('listitem').allInnerTexts();
    expect(codes).toHaveLength(10);
    await dialog.getByText(/They will not be shown again/).waitFor();
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download codes' }).click();
    expect((await download).suggestedFilename()).toBe('tuitiondesk-recovery-codes.txt');
    await expectAccessible(page);
    await dialog.getByRole('checkbox', { name: 'I have saved my recovery codes' }).check();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Sign-in now asks for the code after the password. The code of the next step: the one just
    // used to confirm cannot be used again.
    await signOut(page);
    await enterPassword(page, teacher.username, teacher.password);
    await page.getByText('Enter the 6-digit code from your authenticator app').waitFor();
    const codeField = page.getByLabel(/^Authentication code/);
    expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await codeField.getAttribute('inputmode')).toBe('numeric');
    await expectAccessible(page);
    await codeField.fill(authenticatorCode(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard');

    // A recovery code in place of the app's code.
    await signOut(page);
    await enterPassword(page, teacher.username, teacher.password);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel(/^Recovery code/).fill(codes[0] as string);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard');

    // Off again, with the password and another recovery code; sign-in asks for the password only.
    dialog = await openTwoFactor(page);
    await dialog.getByText('9 recovery codes left.').waitFor();
    await dialog.getByLabel(/^Current Password/).fill(teacher.password);
    await dialog.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await dialog.getByLabel(/^Recovery code/).fill(codes[1] as string);
    await dialog.getByRole('button', { name: 'Turn off' }).click();
    await page.getByText('Two-factor sign-in turned off').waitFor();
    await dialog.getByRole('button', { name: 'Set up two-factor sign-in' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await signOut(page);
    await signIn(page, teacher.username, teacher.password);
    await context.close();
  });
});
