/**
 * The real server as a child process (`node --import tsx src/server.ts`: the sources that `npm start`
 * runs compiled), for the tests of start-up, signals and faults. Every process and temporary
 * directory made here is cleaned up by `cleanUpProcesses()` (call it in afterAll).
 *
 * With TEST_BUILT_SERVER=1 (`npm test` sets it: it has just built dist/), the server and its scripts run
 * from the build as `npm start` runs them (`node --enable-source-maps dist/<program>.js`), which starts
 * in a fraction of tsx's time, but only while that build is newer than every source it is built from
 * (scripts/build-freshness.mjs, as `npm start` decides); otherwise, and without the variable, through
 * tsx as before. Either way the same sources run (ADR 067).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleBuilds } from '../../../../scripts/build-freshness.mjs';
import { freePort } from '../../../../scripts/kit/port';

export { freePort };

/**
 * PGlite's first start runs initdb and every migration on a data directory, after tsx compiles the
 * sources: seconds on a quiet machine, far more on a busy one (about 90 to 130 s measured at a load of
 * 13 on two cores, with the browser tests beside it). A server that never starts still fails the test.
 */
export const START_TIMEOUT = 180_000;
export const SLOW = { timeout: 2 * START_TIMEOUT };
export const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const READY = /TuitionDesk is running at/;
export const FIRST_START = 'First start: the admin account was created.';
export const LOCK_FILE = 'tuitiondesk.lock';

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  url: string;
  output: () => { stdout: string; stderr: string };
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

const started: ServerProcess[] = [];
const tempDirs: string[] = [];
const running: ChildProcess[] = [];

export function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tuitiondesk-process-'));
  tempDirs.push(dir);
  return dir;
}

let sharedKeyDir: string | undefined;

/**
 * The key file of processes given no DATA_DIR (those on PostgreSQL): one per test file, so a seed, a
 * backup, a restore and the servers on one database share one, as one installation's must (ADR 017),
 * and nothing lands in ./data.
 */
export function sharedKeyFile(): string {
  if (!sharedKeyDir || !existsSync(sharedKeyDir)) sharedKeyDir = tempDir();
  return path.join(sharedKeyDir, 'server-keys.json');
}

/** The environment of a plain shell: nothing of the test run's own database settings leaks in. */
function serverEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'TEST_DATABASE_URL',
    'ADMIN_PASSWORD',
    'JWT_SECRET',
    'KEY_FILE',
    'VAPID_PUBLIC_KEY',
    'VAPID_PRIVATE_KEY',
    'PORT',
    'DATA_DIR',
    'BACKUP_DIR',
    'INIT_CWD',
  ])
    delete env[name];
  const keyFile = overrides.DATA_DIR === undefined ? { KEY_FILE: sharedKeyFile() } : {};
  return { ...env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', WEB_DIST_DIR: '/nonexistent', ...keyFile, ...overrides };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What a child process has printed so far. */
function collectOutput(child: ChildProcess): () => { stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return () => ({ stdout, stderr });
}

/** Runs a command to its end in that environment (a script, npm), killed at clean-up if it hangs. */
export function runProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd = SERVER_DIR,
): Promise<Finished> {
  const child = spawn(command, args, { cwd, env: serverEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  const output = collectOutput(child);
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, ...output() })));
}

let builtServer: boolean | undefined;

/** Whether to run the build (asked for, and not older than any of its sources): decided once a test file. */
function useBuiltServer(): boolean {
  builtServer ??=
    process.env.TEST_BUILT_SERVER === '1' && staleBuilds(path.resolve(SERVER_DIR, '../..'), ['server']).length === 0;
  return builtServer;
}

/**
 * Node's arguments that run one of the server's programs: `source` (relative to SERVER_DIR) through tsx,
 * or its build `dist/<program>.js` when that is to be used (see the top of this file).
 */
export function programArgs(program: string, source: string): string[] {
  return useBuiltServer() ? ['--enable-source-maps', `dist/${program}.js`] : ['--import', 'tsx', source];
}

/** One of the server's scripts (`src/scripts/<name>.ts`), as npm runs it. */
export function runScript(name: string, args: string[], env: Record<string, string>): Promise<Finished> {
  return runProcess(process.execPath, [...programArgs(name, `src/scripts/${name}.ts`), ...args], env);
}

export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = env.PORT !== undefined ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, programArgs('server', 'src/server.ts'), {
    cwd: SERVER_DIR,
    env: serverEnv({ PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server: ServerProcess = {
    child,
    pid: child.pid as number,
    port,
    url: `http://127.0.0.1:${port}`,
    output,
    exited,
  };
  started.push(server);
  return server;
}

/** Starts a server and waits until it says it is running (or fails, with what it printed). */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const server = await spawnServer(env);
  const deadline = Date.now() + START_TIMEOUT;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => {
    exitCode = code;
  });
  while (!READY.test(server.output().stdout)) {
    if (exitCode !== undefined || Date.now() > deadline) {
      server.child.kill('SIGKILL');
      throw new Error(`server did not start (exit ${exitCode}):\n${server.output().stderr}${server.output().stdout}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return server;
}

export async function stopServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  server.child.kill(signal);
  return server.exited;
}

export async function login(server: ServerProcess, username: string, password: string) {
  const response = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Changes the signed-in account's password, as its owner must at the first sign-in before anything
 * else (the server refuses other calls until then); answers the session's new token.
 */
export async function choosePassword(
  server: ServerProcess,
  token: string,
  current: string,
  chosen: string,
): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/auth/change-password`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ current_password: current, new_password: chosen }),
  });
  const body = (await response.json()) as { access_token?: string; detail?: string };
  if (response.status !== 200 || !body.access_token) {
    throw new Error(`choosing a password failed: ${response.status} ${body.detail ?? ''}`);
  }
  return body.access_token;
}

export async function me(server: ServerProcess, token: string) {
  const response = await fetch(`${server.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Kills whatever is still running and removes the temporary directories. */
export async function cleanUpProcesses(): Promise<void> {
  for (const server of started.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
