/**
 * The real server as a process (`node --import tsx src/server.ts`), as `npm start` runs it: start-up
 * on a DATA_DIR, the first-start admin password, the data directory lock, restarts that keep data and
 * sessions, and clean shutdown on signals.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanUpProcesses,
  FIRST_START,
  LOCK_FILE,
  login,
  me,
  READY,
  type ServerProcess,
  SLOW,
  spawnServer,
  startServer,
  stopServer,
  tempDir,
} from './helpers/server-process';

/** A pid that belonged to a node process a moment ago and now belongs to nobody. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

afterAll(cleanUpProcesses);

// PGlite's first start on a new directory is the slow part (initdb, seconds): this one, on a
// directory of its own, starts at once and runs beside the sequence below; its test awaits it.
let withAdminPassword: Promise<ServerProcess>;
beforeAll(() => {
  withAdminPassword = startServer({ DATA_DIR: tempDir(), ADMIN_PASSWORD: 'chosen-start-password' });
  withAdminPassword.catch(() => {}); // reported by its test
});

describe('the server process on a DATA_DIR', SLOW, () => {
  const dataDir = tempDir();
  let first: ServerProcess;
  let generatedPassword = '';
  let firstToken = '';
  let newToken = '';
  const newPassword = 'a-new-start-password';

  it('starts on an empty DATA_DIR, serves /health, prints the generated admin password once and holds the lock', async () => {
    first = await startServer({ DATA_DIR: dataDir });

    const health = await fetch(`${first.url}/api/v1/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'ok' });

    const { stdout } = first.output();
    expect(stdout).toContain(FIRST_START);
    expect(stdout).toContain(`TuitionDesk is running at http://127.0.0.1:${first.port}`);
    generatedPassword = /password: (\S+)/.exec(stdout)?.[1] ?? '';
    expect(generatedPassword).toMatch(/^\S{16}$/);
    expect(stdout.split(generatedPassword)).toHaveLength(2); // printed once

    expect(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8').trim()).toBe(String(first.pid));

    const signIn = await login(first, 'admin', generatedPassword);
    expect(signIn.status).toBe(200);
    expect(signIn.body.user).toMatchObject({ username: 'admin', role: 'admin', must_change_password: true });
    firstToken = signIn.body.access_token as string;
    expect((await me(first, firstToken)).status).toBe(200);
  });

  it('refuses a second server on the same DATA_DIR with a clear message, while the first keeps serving', async () => {
    const second = await spawnServer({ DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output().stderr).toContain(
      `Another TuitionDesk server (pid ${first.pid}) is using the data directory ${dataDir}. ` +
        'Stop it first, or start this one with another DATA_DIR.',
    );
    expect(second.output().stdout).not.toMatch(READY);

    expect((await fetch(`${first.url}/api/v1/health`)).status).toBe(200);
    expect(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8').trim()).toBe(String(first.pid));
  });

  it('on SIGTERM exits 0 and removes its lock', async () => {
    expect(await stopServer(first, 'SIGTERM')).toBe(0);
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    expect(first.output().stderr).toBe('');
  });

  it('restarts on the same DATA_DIR without printing a password, and the token issued before still works', async () => {
    const server = await startServer({ DATA_DIR: dataDir });
    expect(server.output().stdout).not.toContain(FIRST_START);
    expect(server.output().stdout).not.toContain(generatedPassword);

    const before = await me(server, firstToken);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ username: 'admin', must_change_password: true });

    const change = await fetch(`${server.url}/api/v1/auth/change-password`, {
      method: 'POST',
      headers: { authorization: `Bearer ${firstToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ current_password: generatedPassword, new_password: newPassword }),
    });
    expect(change.status).toBe(200);
    newToken = ((await change.json()) as { access_token: string }).access_token;
    expect((await me(server, firstToken)).status).toBe(401);
    expect((await me(server, newToken)).status).toBe(200);

    // A request in flight when SIGTERM arrives is answered before the process exits (the sign-in
    // verifies a full-cost scrypt hash, hundreds of milliseconds).
    const inFlight = login(server, 'admin', newPassword);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const exitCode = stopServer(server, 'SIGTERM');
    expect((await inFlight).status).toBe(200);
    expect({ exitCode: await exitCode, stderr: server.output().stderr }).toEqual({ exitCode: 0, stderr: '' });
  });

  it('starts past a stale lock file, keeps the changed password and the new token, and exits 0 on SIGINT', async () => {
    const stale = await deadPid();
    writeFileSync(path.join(dataDir, LOCK_FILE), String(stale));

    const server = await startServer({ DATA_DIR: dataDir });
    expect(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8').trim()).toBe(String(server.pid));
    expect(server.output().stdout).not.toContain(FIRST_START);

    expect((await login(server, 'admin', generatedPassword)).status).toBe(401);
    const signIn = await login(server, 'admin', newPassword);
    expect(signIn.status).toBe(200);
    expect(signIn.body.user).toMatchObject({ must_change_password: false });
    expect((await me(server, newToken)).status).toBe(200);
    expect((await me(server, firstToken)).status).toBe(401);

    expect(await stopServer(server, 'SIGINT')).toBe(0);
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  });
});

describe('start-up settings', SLOW, () => {
  it('with ADMIN_PASSWORD creates the admin with that password and prints none', async () => {
    const server = await withAdminPassword;
    expect(server.output().stdout).not.toContain(FIRST_START);
    expect(server.output().stdout).not.toContain('chosen-start-password');
    const signIn = await login(server, 'admin', 'chosen-start-password');
    expect(signIn.status).toBe(200);
    expect(signIn.body.user).toMatchObject({ must_change_password: true });
    expect(await stopServer(server)).toBe(0);
  });

  it('exits 1 naming the setting when PORT or ADMIN_PASSWORD is invalid, before touching the DATA_DIR', async () => {
    const dataDir = tempDir();
    const [word, tooHigh, shortPassword] = await Promise.all([
      spawnServer({ DATA_DIR: dataDir, PORT: 'eighty' }),
      spawnServer({ DATA_DIR: dataDir, PORT: '70000' }),
      spawnServer({ DATA_DIR: dataDir, PORT: '0', ADMIN_PASSWORD: 'abc' }),
    ]);
    for (const server of [word, tooHigh]) {
      expect(await server.exited).toBe(1);
      expect(server.output().stderr).toMatch(/^Invalid configuration:\n {2}PORT: /);
    }
    expect(await shortPassword.exited).toBe(1);
    expect(shortPassword.output().stderr).toBe(
      'Invalid configuration:\n  ADMIN_PASSWORD: must be at least 6 characters\n',
    );
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    expect(existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
  });
});
