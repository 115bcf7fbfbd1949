// Screenshots for the README, taken against the demo centre:
//   npx tsx scripts/readme-screenshots.ts [name ...]
// Builds what is stale, seeds a temporary database with the demo centre, starts the server on it, and
// shoots each main screen at laptop width (and the dashboard and the students' cards at phone width)
// into docs/screenshots/, the console in Urdu and the parent app in Hindi, then a teacher's day on a
// phone: their dashboard, and a register marked with no network. Names given (`students-phone-cards`) shoot only those; none shoots them all.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium, signIn } from './kit/chromium';
import { choosePassword, ensureBuilt, ROOT, runProgram, startServer } from './kit/server';

const out = path.join(ROOT, 'docs/screenshots');
// Not containing the username: the server refuses that (ADR 020).
const PASSWORD = 'Demo-Centre-Lantern-7';
const TEACHER_PASSWORD = 'Demo-Teacher-Harbour-4';
const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);

/** A page's route, the screenshot's name, and optionally a search box to bring up under the top bar. */
type Shot = [route: string, name: string, scrollTo?: string];

async function shoot(browser: Browser, base: string, width: number, height: number, pages: Shot[]) {
  const shots = pages.filter(([, name]) => wanted(name));
  if (shots.length === 0) return;
  const page = await browser.newPage({ viewport: { width, height } });
  await signIn(page, 'admin', PASSWORD, base);
  for (const [route, name, scrollTo] of shots) {
    await page.goto(`${base}${route}`);
    await page.waitForLoadState('networkidle');
    if (scrollTo) {
      const box = await page.getByRole('searchbox', { name: scrollTo }).boundingBox();
      const bar = (await page.locator('header').first().boundingBox())?.height ?? 0;
      if (box) await page.evaluate((top) => window.scrollTo(0, top), box.y - bar - 24);
    }
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(out, `${name}.png`) });
    console.log(`docs/screenshots/${name}.png`);
  }
  await page.close();
}

/** A teacher on a phone: the dashboard, then a register marked with no network (the marks wait on the phone). */
async function shootTeacherPhone(browser: Browser, base: string, username: string) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signIn(page, username, TEACHER_PASSWORD, base);
  await page.getByRole('heading', { name: 'Your classes today' }).waitFor();
  await page.waitForLoadState('networkidle');
  if (wanted('teacher-dashboard-phone')) {
    await page.screenshot({ path: path.join(out, 'teacher-dashboard-phone.png') });
    console.log('docs/screenshots/teacher-dashboard-phone.png');
  }
  if (!wanted('offline-marks-phone')) {
    await context.close();
    return;
  }
  await page.getByRole('region', { name: 'Your classes today' }).getByRole('link').first().click();
  const absent = page.getByRole('button', { name: 'Absent' });
  await absent.first().waitFor();
  await page.evaluate(async () => {
    await navigator.serviceWorker?.ready;
  });
  await context.setOffline(true);
  await absent.nth(2).click();
  await page.getByRole('button', { name: 'Submit Attendance' }).click();
  await page.getByRole('status', { name: /waiting to be sent/ }).waitFor();
  await page.waitForTimeout(4500); // the message at the top has gone
  await page.screenshot({ path: path.join(out, 'offline-marks-phone.png') });
  console.log('docs/screenshots/offline-marks-phone.png');
  await context.close();
}

/** Calls the API as the admin (the token `choosePassword` answered). */
async function adminCall<T>(
  base: string,
  token: string,
  route: string,
  init: { method?: string; json?: unknown } = {},
) {
  const response = await fetch(`${base}/api/v1${route}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * The console in Urdu (right to left) at laptop width: the admin's account chooses Urdu, as the account
 * menu's Language does, and chooses English again afterwards.
 */
async function shootUrduConsole(browser: Browser, base: string, token: string) {
  const shots: Shot[] = [
    ['/dashboard', 'dashboard-urdu'],
    ['/mark-attendance?class_name=10', 'mark-attendance-urdu'],
  ];
  if (!shots.some(([, name]) => wanted(name))) return;
  await adminCall(base, token, '/auth/me/language', { method: 'PUT', json: { language: 'ur' } });
  try {
    await shoot(browser, base, 1366, 860, shots);
  } finally {
    await adminCall(base, token, '/auth/me/language', { method: 'PUT', json: { language: 'en' } });
  }
}

/** The parent app in Hindi on a phone: a family of class 10 with its access code, its language Hindi, its inbox. */
async function shootHindiParent(browser: Browser, base: string, token: string) {
  if (!wanted('parent-inbox-hindi')) return;
  const [child] = await adminCall<{ id: number }[]>(base, token, '/students/?class_name=10');
  if (!child) throw new Error('the demo centre has no student in class 10');
  const issued = await adminCall<{ code: string; phone: string }>(base, token, `/students/${child.id}/parent-access`, {
    method: 'POST',
  });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'hi-IN' });
  const page = await context.newPage();
  await page.goto(`${base}/parent/#phone=${encodeURIComponent(issued.phone)}&code=${issued.code}`);
  await page.waitForLoadState('networkidle');
  // The family's language, as the app's Settings keeps it: the centre's messages and the app follow it.
  await page.evaluate(async () => {
    const bearer = localStorage.getItem('parent_token');
    await fetch('/api/v1/parent/language', {
      method: 'PUT',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ language: 'hi' }),
    });
  });
  await page.reload();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(600);
  await page.screenshot({ path: path.join(out, 'parent-inbox-hindi.png') });
  console.log('docs/screenshots/parent-inbox-hindi.png');
  await context.close();
}

ensureBuilt();
const dataDir = mkdtempSync(path.join(tmpdir(), 'tuitiondesk-shots-'));
try {
  const seed = runProgram('seed-demo', [], { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' });
  if (seed.status !== 0) throw new Error(`seed:demo failed:\n${seed.stdout}${seed.stderr}`);
  const adminPassword = /username: admin\s+password: (\S+)/.exec(seed.stdout)?.[1];
  if (!adminPassword) throw new Error(`no admin password in the seed output:\n${seed.stdout}`);

  const server = await startServer({ dataDir, output: 'inherit' });
  try {
    // The demo admin must choose a password at first sign-in.
    const adminToken = await choosePassword(server.base, 'admin', adminPassword, PASSWORD);
    mkdirSync(out, { recursive: true });
    const browser = await launchChromium();
    await shoot(browser, server.base, 1366, 860, [
      ['/dashboard', 'dashboard'],
      ['/students', 'students'],
      ['/teachers', 'teachers'],
      ['/mark-attendance?class_name=10', 'mark-attendance'],
      ['/attendance', 'attendance-approval'],
      ['/attendance-history', 'attendance-history'],
      ['/teacher-attendance', 'teacher-attendance'],
      ['/communications', 'communications'],
      ['/import', 'import'],
      ['/leave', 'leave'],
      ['/audit', 'audit'],
    ]);
    await shoot(browser, server.base, 390, 844, [
      ['/dashboard', 'dashboard-phone'],
      // A list on a phone: a card a student, every column and action in view (ADR 033).
      ['/students', 'students-phone-cards', 'Search students'],
    ]);
    await shootUrduConsole(browser, server.base, adminToken);
    await shootHindiParent(browser, server.base, adminToken);
    if (wanted('teacher-dashboard-phone') || wanted('offline-marks-phone')) {
      const teacher = /^\s+(TCH\d+)\s+.*\s(\S+)$/m.exec(seed.stdout);
      if (!teacher?.[1] || !teacher[2]) throw new Error(`no teacher account in the seed output:\n${seed.stdout}`);
      await choosePassword(server.base, teacher[1], teacher[2], TEACHER_PASSWORD);
      await shootTeacherPhone(browser, server.base, teacher[1]);
    }
    await browser.close();
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
