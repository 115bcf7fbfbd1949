// The JavaScript a browser downloads, gzipped, for a cold load of each route: the sign-in screen
// (budget 250 KB), every console screen for a signed-in admin, and the parent app.
//   npm run build && npx tsx bench/web-bundle.ts      writes bench/results/web-bundle.json
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { launchChromium } from '../scripts/kit/chromium';
import type { BundleFigures } from './figures';
import { resultsDir, startBenchServer } from './support';

const BUDGET_KB = 250;
const ROUTES = [
  '/dashboard',
  '/students',
  '/teachers',
  '/mark-attendance',
  '/attendance',
  '/attendance-history',
  '/teacher-attendance',
  '/communications',
  '/import',
];

/** Opens `url` in a fresh page and answers the gzipped size of every script it loaded, in KB. */
async function scriptsOf(
  context: BrowserContext,
  url: string,
  ready: (page: Page) => Promise<void>,
): Promise<{ kb: number; files: number }> {
  const page = await context.newPage();
  const scripts: Response[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response);
  });
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  let bytes = 0;
  for (const response of scripts) bytes += gzipSync(await response.body(), { level: 9 }).length;
  await page.close();
  return { kb: bytes / 1024, files: scripts.length };
}

const server = await startBenchServer();
const browser = await launchChromium();
const results: BundleFigures = { budget_kb: BUDGET_KB, routes: [] };
try {
  const anonymous = await browser.newContext();
  const signIn = await scriptsOf(anonymous, `${server.base}/login`, (page) =>
    page.getByRole('button', { name: 'Sign In' }).waitFor(),
  );
  results.routes.push({ route: '/login', ...signIn });
  const parent = await scriptsOf(anonymous, `${server.base}/parent/`, (page) =>
    page.getByRole('button', { name: /sign in/i }).waitFor(),
  );
  results.routes.push({ route: '/parent/', ...parent });
  await anonymous.close();

  // Signed in as the console does it: the session in local storage.
  const me = await fetch(`${server.base}/api/v1/auth/me`, {
    headers: { authorization: `Bearer ${server.token}` },
  }).then((r) => r.json() as Promise<unknown>);
  const signedIn = await browser.newContext();
  await signedIn.addInitScript(
    ({ token, user }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', user);
    },
    { token: server.token, user: JSON.stringify(me) },
  );
  for (const route of ROUTES) {
    const figure = await scriptsOf(signedIn, `${server.base}${route}`, (page) => page.getByRole('main').waitFor());
    results.routes.push({ route, ...figure });
  }
  await signedIn.close();

  for (const { route, kb, files } of results.routes) {
    console.log(`${route.padEnd(22)}${kb.toFixed(1).padStart(7)} KB gzipped in ${files} files`);
  }
  const login = results.routes[0]?.kb ?? Number.NaN;
  console.log(
    `sign-in route JavaScript: ${login.toFixed(1)} KB gzipped (budget ${BUDGET_KB} KB, ${((login / BUDGET_KB) * 100).toFixed(0)}% of it)`,
  );
  writeFileSync(path.join(resultsDir(), 'web-bundle.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.exitCode = login <= BUDGET_KB ? 0 : 1;
} finally {
  await browser.close();
  await server.stop();
}
