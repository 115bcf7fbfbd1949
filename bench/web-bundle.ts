// The JavaScript a browser downloads, gzipped, for a cold load of each route: the sign-in screen
// (budget 250 KB), every console screen for a signed-in admin, and the parent app. Then what each
// language other than English adds when it is shown: its catalogues, the server's texts by code
// (errors, activity feed), its script's font (CSS and woff2), dayjs's locale and, for Urdu, the
// right-to-left plugin.
//   npm run build && npx tsx bench/web-bundle.ts      writes bench/results/web-bundle.json
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { launchChromium } from '../scripts/kit/chromium';
import { ROOT } from '../scripts/kit/server';
import type { BundleFigures, LanguageWeight, WeightPart } from './figures';
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

/** Each language other than English, with the browser locale that picks it at sign-in. */
const LANGUAGES = [
  ['hi', 'hi-IN'],
  ['mr', 'mr-IN'],
  ['ta', 'ta-IN'],
  ['bn', 'bn-IN'],
  ['ur', 'ur-PK'],
] as const;

/** The catalogues' namespaces: each language's locales/<lang>/<namespace>.json is a chunk named after it. */
const NAMESPACES = readdirSync(path.join(ROOT, 'apps/web/src/i18n/locales/en'))
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.slice(0, -'.json'.length));

/** A built file's name without its content hash: `auth-COeotehD.js` → `auth`. */
const chunkName = (url: string) =>
  (new URL(url).pathname.split('/').pop() ?? '').replace(/-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/, '');

/** Bytes as sent: text gzipped (as the server sends it), woff2 as it is (it is compressed already). */
const sentBytes = (url: string, body: Buffer) =>
  /\.woff2?$/.test(new URL(url).pathname) ? body.length : gzipSync(body, { level: 9 }).length;

/** Every script, style sheet and font a cold load of the sign-in page fetches in a browser locale. */
async function signInFiles(browser: Browser, locale: string, language: string): Promise<Map<string, Buffer>> {
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  const responses: Response[] = [];
  page.on('response', (response) => {
    if (['script', 'stylesheet', 'font'].includes(response.request().resourceType())) responses.push(response);
  });
  await page.goto(`${server.base}/login`);
  await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
  await page.waitForLoadState('networkidle');
  const files = new Map<string, Buffer>();
  for (const response of responses) files.set(response.url(), await response.body());
  await context.close();
  return files;
}

/** What showing `language` fetches beyond English, sorted into its parts. */
async function weightOf(
  language: string,
  english: Map<string, Buffer>,
  files: Map<string, Buffer>,
): Promise<LanguageWeight> {
  const part = (): WeightPart => ({ kb: 0, files: 0 });
  const weight: LanguageWeight = {
    language,
    catalogues: part(),
    server_texts: part(),
    font_css: part(),
    font_files: part(),
    rtl: part(),
    date_locale: part(),
    other: { ...part(), names: [] },
    total_kb: 0,
  };
  const add = (into: WeightPart, url: string, body: Buffer) => {
    into.kb += sentBytes(url, body) / 1024;
    into.files += 1;
  };
  const fontUrls = new Set<string>();
  for (const [url, body] of files) {
    if (english.has(url)) continue;
    const name = chunkName(url);
    const text = body.toString();
    if (url.endsWith('.css') && text.includes('@font-face')) {
      add(weight.font_css, url, body);
      for (const match of text.matchAll(/url\(([^)]+\.woff2)\)/g)) fontUrls.add(new URL(match[1] ?? '', url).href);
    } else if (/\.woff2?$/.test(url)) {
      // Counted from the CSS below: every face it names, drawn on this page or not.
    } else if (NAMESPACES.includes(name)) add(weight.catalogues, url, body);
    else if (name === 'stylis-plugin-rtl') add(weight.rtl, url, body);
    // dayjs itself comes with the date pickers' locale on the sign-in page (screens with a date field
    // fetch it anyway).
    else if ((name === language && text.includes('dayjs')) || name === 'dayjs.min') add(weight.date_locale, url, body);
    // Chunks named after the language alone: the server's texts by code (errors, activity feed).
    else if (name === language) add(weight.server_texts, url, body);
    else {
      add(weight.other, url, body);
      weight.other.names.push(name);
    }
  }
  for (const url of fontUrls) add(weight.font_files, url, Buffer.from(await (await fetch(url)).arrayBuffer()));
  weight.total_kb = [
    weight.catalogues,
    weight.server_texts,
    weight.font_css,
    weight.font_files,
    weight.rtl,
    weight.date_locale,
    weight.other,
  ].reduce((sum, { kb }) => sum + kb, 0);
  return weight;
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

  // Each language beyond English: a browser in that language at the sign-in page, which shows it
  // (catalogues, the server's texts, font, date locale, RTL are fetched before the texts change).
  const english = await signInFiles(browser, 'en-US', 'en');
  results.languages = [];
  for (const [language, locale] of LANGUAGES) {
    results.languages.push(await weightOf(language, english, await signInFiles(browser, locale, language)));
  }

  for (const { route, kb, files } of results.routes) {
    console.log(`${route.padEnd(22)}${kb.toFixed(1).padStart(7)} KB gzipped in ${files} files`);
  }
  const kb = (part: WeightPart) => `${part.kb.toFixed(1)} (${part.files})`.padStart(11);
  console.log(
    '\nbeyond English, KB as sent (files):  catalogues  srv texts   font CSS      woff2        RTL  date loc.  total',
  );
  for (const weight of results.languages) {
    console.log(
      `${weight.language.padEnd(36)}${kb(weight.catalogues)}${kb(weight.server_texts)}${kb(weight.font_css)}${kb(weight.font_files)}${kb(weight.rtl)}${kb(weight.date_locale)}${weight.total_kb.toFixed(1).padStart(7)}${weight.other.files ? `  (+ ${weight.other.names.join(', ')})` : ''}`,
    );
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
