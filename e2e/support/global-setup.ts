import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

export const ADMIN_PASSWORD = 'e2e-initial-secret';
export const ADMIN_NEW_PASSWORD = 'e2e-console-secret';

const root = path.resolve(import.meta.dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(url: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited early:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/v1/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer within 60 s:\n${output()}`);
}

/** Builds the console if needed, starts the real server on a fresh database, and signs the admin in once. */
export default async function setup(project: TestProject) {
  const dist = path.join(root, 'apps/web/dist');
  if (process.env.E2E_SKIP_BUILD !== 'true' || !existsSync(path.join(dist, 'index.html'))) {
    const build = spawn('npm', ['run', 'build', '--silent'], {
      cwd: root,
      stdio: 'inherit',
      // Vitest sets NODE_ENV=test, which would give React's development build.
      env: { ...process.env, NODE_ENV: 'production' },
    });
    const code = await new Promise<number | null>((resolve) => build.on('exit', resolve));
    if (code !== 0) throw new Error('building the web console failed');
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tuitiondesk-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const server = spawn(path.join(root, 'node_modules/.bin/tsx'), ['src/server.ts'], {
    cwd: path.join(root, 'apps/server'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_PASSWORD,
      WEB_DIST_DIR: dist,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  server.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  await waitForHealth(baseUrl, server, () => output);

  // The first admin must choose a password at first sign-in; do that once through the API.
  const login = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const changed = await fetch(`${baseUrl}/api/v1/auth/change-password`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ current_password: ADMIN_PASSWORD, new_password: ADMIN_NEW_PASSWORD }),
  });
  if (!changed.ok) throw new Error(`changing the admin password failed: ${await changed.text()}`);

  project.provide('baseUrl', baseUrl);
  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}
