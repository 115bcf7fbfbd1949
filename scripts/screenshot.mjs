// Takes screenshots of console pages with Debian's Chromium:
//   node scripts/screenshot.mjs <base-url> <username> <password> <out-dir> [width] [path...]
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [base, username, password, outDir, width = '1366', ...paths] = process.argv.slice(2);
if (!base || !username || !password || !outDir) {
  console.error('usage: node scripts/screenshot.mjs <base-url> <username> <password> <out-dir> [width] [path...]');
  process.exit(1);
}
mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
const page = await browser.newPage({ viewport: { width: Number(width), height: Number(width) < 600 ? 800 : 900 } });
await page.goto(`${base}/login`);
await page.screenshot({ path: `${outDir}/login-${width}.png` });
await page.getByLabel(/^Username/).fill(username);
await page.getByLabel(/^Password/).fill(password);
await page.getByRole('button', { name: 'Sign In' }).click();
await page.waitForURL('**/dashboard');
for (const path of paths.length ? paths : ['/dashboard']) {
  await page.goto(`${base}${path}`);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  const name = path.replace(/^\//, '').replace(/\W+/g, '-') || 'root';
  await page.screenshot({ path: `${outDir}/${name}-${width}.png`, fullPage: true });
  console.log(`${outDir}/${name}-${width}.png`);
}
await browser.close();
