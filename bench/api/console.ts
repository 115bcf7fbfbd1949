// The console in Chromium on the large centre: from clicking Sign In to the dashboard, then from the
// Students menu item to the table's first row; the median of three fresh sessions.
import { launchChromium } from '../../scripts/kit/chromium';
import type { ConsoleTimings } from '../figures';
import { ADMIN_PASSWORD, median } from '../support';

export async function consoleTimings(base: string): Promise<ConsoleTimings> {
  const browser = await launchChromium();
  try {
    const runs: ConsoleTimings['runs'] = [];
    for (let i = 0; i < 3; i += 1) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${base}/login`);
      await page.getByLabel(/^Username/).fill('admin');
      await page.getByLabel(/^Password/).fill(ADMIN_PASSWORD);
      const signInStarted = performance.now();
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL('**/dashboard', { timeout: 60_000 });
      const signedIn = performance.now();
      await page.getByRole('link', { name: 'Students' }).first().click();
      await page.getByRole('row').nth(1).waitFor({ timeout: 60_000 });
      const tableShown = performance.now();
      runs.push({ sign_in_ms: signedIn - signInStarted, students_table_ms: tableShown - signedIn });
      await context.close();
    }
    return {
      runs,
      sign_in_ms: median(runs.map((run) => run.sign_in_ms)),
      students_table_ms: median(runs.map((run) => run.students_table_ms)),
      sign_in_to_table_ms: median(runs.map((run) => run.sign_in_ms + run.students_table_ms)),
    };
  } finally {
    await browser.close();
  }
}
