// The JavaScript a browser downloads to show the sign-in screen, gzipped (budget: 250 KB).
//   npm run build && node bench/web-bundle.mjs
import { gzipSync } from 'node:zlib';
import { launchChromium, startServer } from './support.mjs';

const BUDGET_KB = 250;
const server = await startServer();
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  const scripts = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response);
  });
  await page.goto(`${server.base}/login`);
  await page.getByRole('button', { name: 'Sign In' }).waitFor();
  await page.waitForLoadState('networkidle');
  let total = 0;
  for (const response of scripts) {
    const body = await response.body();
    const gzipped = gzipSync(body, { level: 9 }).length;
    total += gzipped;
    console.log(`${(gzipped / 1024).toFixed(1).padStart(7)} KB  ${new URL(response.url()).pathname}`);
  }
  const kb = total / 1024;
  console.log(
    `sign-in route JavaScript: ${kb.toFixed(1)} KB gzipped in ${scripts.length} files (budget ${BUDGET_KB} KB, ${((kb / BUDGET_KB) * 100).toFixed(0)}% of it)`,
  );
  process.exitCode = kb <= BUDGET_KB ? 0 : 1;
} finally {
  await browser.close();
  await server.stop();
}
