// Screenshots for the README, taken against the demo centre:
//   npm run build && node scripts/readme-screenshots.mjs
// Seeds a temporary database, starts the server on it, and shoots each main screen at laptop
// width (and the dashboard at phone width) into docs/screenshots/.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'docs/screenshots');
const dataDir = mkdtempSync(path.join(tmpdir(), 'tuitiondesk-shots-'));
const port = 8765;
const base = `http://127.0.0.1:${port}`;
const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), LOG_LEVEL: 'warn' };
const tsx = path.join(root, 'node_modules/.bin/tsx');
const serverDir = path.join(root, 'apps/server');

const seed = spawnSync(tsx, ['src/scripts/seed-demo.ts'], { cwd: serverDir, env, encoding: 'utf8' });
if (seed.status !== 0) throw new Error(`seed:demo failed:\n${seed.stdout}${seed.stderr}`);
const adminPassword = /username: admin\s+password: (\S+)/.exec(seed.stdout)?.[1];
if (!adminPassword) throw new Error(`no admin password in the seed output:\n${seed.stdout}`);

const server = spawn(tsx, ['src/server.ts'], {
  cwd: serverDir,
  env: { ...env, WEB_DIST_DIR: path.join(root, 'apps/web/dist') },
  stdio: 'inherit',
});
try {
  for (let i = 0; ; i += 1) {
    if (i > 240) throw new Error('the server did not start');
    const up = await fetch(`${base}/api/v1/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // The demo admin must choose a password at first sign-in; do it once through the API.
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'admin', password: adminPassword }),
  }).then((r) => r.json());
  // Not containing the username: the server refuses that (ADR 020).
  const password = 'Demo-Centre-Lantern-7';
  const changed = await fetch(`${base}/api/v1/auth/change-password`, {
    method: 'POST',
    headers: { authorization: `Bearer ${login.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ current_password: adminPassword, new_password: password }),
  });
  if (!changed.ok) throw new Error(`changing the demo admin's password failed: ${await changed.text()}`);

  mkdirSync(out, { recursive: true });
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
  const shoot = async (width, height, pages) => {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.goto(`${base}/login`);
    await page.getByLabel(/^Username/).fill('admin');
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard');
    for (const [route, name] of pages) {
      await page.goto(`${base}${route}`);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(400);
      await page.screenshot({ path: path.join(out, `${name}.png`) });
      console.log(`docs/screenshots/${name}.png`);
    }
    await page.close();
  };
  await shoot(1366, 860, [
    ['/dashboard', 'dashboard'],
    ['/students', 'students'],
    ['/teachers', 'teachers'],
    ['/mark-attendance?class_name=10', 'mark-attendance'],
    ['/attendance', 'attendance-approval'],
    ['/attendance-history', 'attendance-history'],
    ['/teacher-attendance', 'teacher-attendance'],
    ['/communications', 'communications'],
    ['/import', 'import'],
  ]);
  await shoot(390, 844, [['/dashboard', 'dashboard-phone']]);
  await browser.close();
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
