// Takes screenshots of console pages with Debian's Chromium, from a server already running:
//   npx tsx scripts/screenshot.ts <base-url> <username> <password> <out-dir> [width] [path...]
import { mkdirSync } from 'node:fs';
import { launchChromium, signIn } from './kit/chromium';

const [base, username, password, outDir, width = '1366', ...paths] = process.argv.slice(2);
if (!base || !username || !password || !outDir) {
  console.error('usage: npx tsx scripts/screenshot.ts <base-url> <username> <password> <out-dir> [width] [path...]');
  process.exit(1);
}
mkdirSync(outDir, { recursive: true });
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: Number(width), height: Number(width) < 600 ? 800 : 900 } });
await page.goto(`${base}/login`);
await page.screenshot({ path: `${outDir}/login-${width}.png` });
await signIn(page, username, password, base);
for (const route of paths.length ? paths : ['/dashboard']) {
  await page.goto(`${base}${route}`);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  const name = route.replace(/^\//, '').replace(/\W+/g, '-') || 'root';
  await page.screenshot({ path: `${outDir}/${name}-${width}.png`, fullPage: true });
  console.log(`${outDir}/${name}-${width}.png`);
}
await browser.close();
