/**
 * The real server for the browser tests, the bench and the scripts: built (or stale builds rebuilt),
 * started on a free port and a fresh database, waited for until its health check answers, stopped.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BuildName, buildStale } from '../build-freshness.mjs';
import { freePort } from './port';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SERVER_DIR = path.join(ROOT, 'apps/server');
export const WEB_DIST = path.join(ROOT, 'apps/web/dist');

/** Builds the console and the server, in production mode whatever NODE_ENV the caller runs in. */
export function buildAll(): void {
  const result = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('npm run build failed');
}

/** Builds those of the console and the server that are missing or older than their sources. */
export function ensureBuilt(names: BuildName[] = ['web', 'server']): void {
  buildStale(ROOT, names);
}

/** One of the server's programs from the build (`dist/<name>.js`), run to its end in apps/server. */
export function runProgram(name: string, args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [path.join(SERVER_DIR, 'dist', `${name}.js`), ...args], {
    cwd: SERVER_DIR,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

export interface StartOptions {
  /** The build (`node dist/server.js`, the default) or the TypeScript sources through tsx. */
  from?: 'build' | 'source';
  /** A data directory to use (kept afterwards); by default a new one, removed at stop(). */
  dataDir?: string;
  /** The port to listen on (a server started again where a page knows it); by default a free one. */
  port?: number;
  /** A PostgreSQL database instead of the embedded one. */
  databaseUrl?: string;
  /** More of the server's settings (ADMIN_PASSWORD, …). */
  env?: Record<string, string>;
  /** Where the server's output goes: kept and shown if it fails to start (the default), or printed. */
  output?: 'collect' | 'inherit';
  /** How long the first start may take; PGlite's first start runs initdb, slow on a busy machine. */
  timeoutMs?: number;
}

export interface RunningServer {
  base: string;
  port: number;
  pid: number;
  dataDir: string;
  /** What it printed so far (with output: 'collect'). */
  output: () => string;
  /** SIGTERM, then waits for it to exit; removes the data directory if it was made for it. */
  stop: () => Promise<void>;
}

async function waitForHealth(base: string, child: ChildProcess, output: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited early (${child.exitCode}):\n${output()}`);
    const up = await fetch(`${base}/api/v1/health`)
      .then((response) => response.ok)
      .catch(() => false);
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer within ${timeoutMs / 1000} s:\n${output()}`);
}

/** Starts the server with the built console on a free port and waits until its health check answers. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'tuitiondesk-server-'));
  const port = options.port ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  // Node itself runs the server (tsx as a loader, not a wrapper process), so `pid` is the server's.
  const program = options.from === 'source' ? ['--import', 'tsx', 'src/server.ts'] : ['dist/server.js'];
  const child = spawn(process.execPath, program, {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: options.databaseUrl ?? '',
      WEB_DIST_DIR: WEB_DIST,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: options.output === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const collect = (chunk: Buffer) => {
    printed += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await waitForHealth(base, child, () => printed, options.timeoutMs ?? 90_000);
  return {
    base,
    port,
    pid: child.pid as number,
    dataDir,
    output: () => printed,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The first sign-in of an account given a password (the first admin, a seeded one): it must choose its
 * own before anything else, done here through the API. The first admin also sets the centre up (its
 * time zone, as the console's first sign-in asks: ADR 042), so the console opens on the dashboard.
 * Answers the session's token.
 */
export async function choosePassword(base: string, username: string, given: string, chosen: string): Promise<string> {
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    body: new URLSearchParams({ username, password: given }),
  });
  const { access_token } = (await login.json()) as { access_token?: string };
  if (!access_token) throw new Error(`signing ${username} in failed: ${login.status}`);
  const changed = await fetch(`${base}/api/v1/auth/change-password`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ current_password: given, new_password: chosen }),
  });
  const body = (await changed.json()) as { access_token?: string };
  if (!changed.ok || !body.access_token) {
    throw new Error(`changing ${username}'s password failed: ${changed.status} ${JSON.stringify(body)}`);
  }
  if (username === 'admin') await setUpCentre(base, body.access_token);
  return body.access_token;
}

/**
 * The centre's first set-up through the API: its time zone, by default this machine's (so that a test
 * computing "today" here agrees with the server), unless the server fixes one.
 */
export async function setUpCentre(
  base: string,
  token: string,
  timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const centre = await fetch(`${base}/api/v1/settings/centre`, { headers });
  if (!centre.ok) throw new Error(`reading the centre's settings failed: ${centre.status}`);
  const { needs_set_up } = (await centre.json()) as { needs_set_up: boolean };
  if (!needs_set_up) return;
  const set = await fetch(`${base}/api/v1/settings/centre`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ time_zone: timeZone }),
  });
  if (!set.ok) throw new Error(`setting the centre up failed: ${set.status} ${await set.text()}`);
}
