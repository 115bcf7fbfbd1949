/**
 * Debian's Chromium (never a downloaded browser) for the browser tests, the bench and the screenshot
 * scripts; CHROMIUM_PATH points elsewhere.
 */
import { type Browser, chromium, type Page } from 'playwright-core';

/** No sandbox (containers run as root), no GPU, and nothing fetched in the background while measuring. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/**
 * Signs in on the console's sign-in screen and waits for the dashboard. `base` is the server's address,
 * or '' when the page's context has it as its base URL.
 */
export async function signIn(page: Page, username: string, password: string, base = ''): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel(/^Username/).fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/dashboard');
}
