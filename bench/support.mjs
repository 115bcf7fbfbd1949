// Shared by the bench scripts: a real server on a fresh embedded database, and Chromium.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const root = path.resolve(import.meta.dirname, '..');
// Neither common nor holding the username: the server refuses those (ADR 020).
export const ADMIN_PASSWORD = 'Bench-Console-Harbour-3';

/** Where each script writes its figures as JSON (bench/report.mjs turns them into a page). */
export function resultsDir() {
  const dir = process.env.BENCH_RESULTS_DIR ?? path.join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the server (built console included) and answers its address, an admin token, its process
 * and stop(). A fresh embedded database by default; `dataDir` (already seeded) or `databaseUrl`
 * to run on another.
 */
export async function startServer({ dataDir: givenDataDir, databaseUrl = '', env = {} } = {}) {
  const dataDir = givenDataDir ?? mkdtempSync(path.join(tmpdir(), 'tuitiondesk-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Node itself runs the server (tsx as a loader, not a wrapper process), so `pid` is the server's.
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: path.join(root, 'apps/server'),
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      ADMIN_PASSWORD: 'bench-initial-password',
      WEB_DIST_DIR: path.join(root, 'apps/web/dist'),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: 'inherit',
  });
  for (let i = 0; ; i += 1) {
    if (i > 400) throw new Error('the server did not start');
    if (
      await fetch(`${base}/api/v1/health`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const first = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'admin', password: 'bench-initial-password' }),
  }).then((r) => r.json());
  const changed = await fetch(`${base}/api/v1/auth/change-password`, {
    method: 'POST',
    headers: { authorization: `Bearer ${first.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ current_password: 'bench-initial-password', new_password: ADMIN_PASSWORD }),
  }).then((r) => r.json());
  if (!changed.access_token) throw new Error(`changing the bench admin's password failed: ${JSON.stringify(changed)}`);
  return {
    base,
    token: changed.access_token,
    pid: server.pid,
    stop: async () => {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
      if (!givenDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchChromium() {
  return chromium.launch({
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
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
