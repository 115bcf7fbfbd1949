/**
 * `npm run backup` and `npm run restore` as processes, as an operator runs them (ADR 015): a backup of
 * a DATA_DIR, restored into a new DATA_DIR that the server then starts on; the refusal while the
 * server holds the data directory; and the same round trip on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { prepareContext } from '../src/bootstrap';
import { openPostgres } from '../src/db/database';
import {
  choosePassword,
  cleanUpProcesses,
  runProcess,
  runScript,
  SERVER_DIR,
  type ServerProcess,
  START_TIMEOUT,
  sharedKeyFile,
  startServer,
  stopServer,
  tempDir,
} from './helpers/server-process';
import {
  ADMIN_PASSWORD,
  adminHasChosenPassword,
  createStudent,
  createTeacher,
  login as injectLogin,
  testConfig,
} from './helpers/test-app';

const REPO_DIR = path.resolve(SERVER_DIR, '../..');
const CHOSEN_PASSWORD = 'chosen-start-password';
/** What the admin chooses at the first sign-in, in place of the start password. */
const OWN_PASSWORD = 'Quiet-Meadow-Backup-4';
const POSTGRES_URL = process.env.TEST_DATABASE_URL;
const SLOW = { timeout: 4 * START_TIMEOUT };

const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  await cleanUpProcesses();
  for (const cleanup of cleanups) await cleanup();
});

const script = (name: 'backup' | 'restore', args: string[], env: Record<string, string>) => runScript(name, args, env);

async function signIn(server: ServerProcess, username: string, password: string): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function call<T = Record<string, unknown>>(
  server: ServerProcess,
  method: string,
  url: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}/api/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as T };
}

const MANUAL_FILE = /^tuitiondesk-manual-\d{8}-\d{6}(-\d+)?\.jsonl\.gz$/;

describe.skipIf(POSTGRES_URL)('npm run backup / restore on the embedded database (DATA_DIR)', SLOW, () => {
  const source = tempDir();
  const target = path.join(tempDir(), 'restored');
  let file = '';

  it('refuses to back up while the server holds the DATA_DIR, pointing at the console backup', async () => {
    const server = await startServer({ DATA_DIR: source, ADMIN_PASSWORD: CHOSEN_PASSWORD });
    const token = await choosePassword(
      server,
      await signIn(server, 'admin', CHOSEN_PASSWORD),
      CHOSEN_PASSWORD,
      OWN_PASSWORD,
    );
    const student = await call(server, 'POST', '/students/', token, {
      full_name: 'Asha Menon',
      class_name: '9',
      parent_name: 'Ravi Menon',
      parent_phone: '+919812345678',
    });
    expect(student.status).toBe(201);

    const refused = await script('backup', [], { DATA_DIR: source });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `Another TuitionDesk server (pid ${server.child.pid}) is using the data directory`,
    );
    expect(refused.stderr).toContain('npm run backup cannot read the embedded database while the server runs on it');
    expect(refused.stderr).toContain('stop the server');
    expect(refused.stderr).toContain('POST /api/v1/backups');
    expect(existsSync(path.join(source, 'backups'))).toBe(false);

    // The running server's own backup works meanwhile, into <DATA_DIR>/backups.
    const online = await call(server, 'POST', '/backups', token);
    expect(online.status).toBe(201);
    expect(path.dirname(online.body.path as string)).toBe(path.join(source, 'backups'));
    expect(await stopServer(server)).toBe(0);
  });

  it('backs up the stopped DATA_DIR into <DATA_DIR>/backups, owner-only, and says how to restore', async () => {
    const done = await script('backup', [], { DATA_DIR: source });
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    const files = readdirSync(path.join(source, 'backups')).filter((name) => MANUAL_FILE.test(name));
    expect(files).toHaveLength(1);
    file = path.join(source, 'backups', files[0] as string);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(done.stdout).toMatch(/^Backup written in \d+\.\d s: /);
    expect(done.stdout).toContain(`npm run restore ${file}`);
    expect(done.stdout).toMatch(/students 1\b/);
  });

  it('refuses a DATA_DIR with no database, creating nothing', async () => {
    const nowhere = path.join(tempDir(), 'none');
    const refused = await script('backup', [], { DATA_DIR: nowhere });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`There is no database in DATA_DIR ${nowhere}: nothing to back up.`);
    expect(existsSync(nowhere)).toBe(false);
  });

  it('refuses a bad file before touching the database', async () => {
    const truncated = path.join(tempDir(), 'truncated.jsonl.gz');
    const bytes = readFileSync(file);
    writeFileSync(truncated, bytes.subarray(0, bytes.length - 40));
    const untouched = path.join(tempDir(), 'untouched');
    const refused = await script('restore', [truncated], { DATA_DIR: untouched });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`^The file ${truncated} is truncated: .*\\nNothing was restored\\.\\n$`));
    expect(existsSync(untouched)).toBe(false);

    const usage = await script('restore', [], { DATA_DIR: untouched });
    expect(usage.code).toBe(1);
    expect(usage.stderr).toMatch(
      /^Usage: npm run restore <backup file> {3}\(or npm run restore -- --reset-two-factor <backup file>\)/,
    );
  });

  it('npm run restore passes the file on, relative to where npm was run', async () => {
    const npm = await runProcess(
      'npm',
      ['run', '--silent', 'restore', 'no-such-backup.jsonl.gz'],
      { DATA_DIR: target },
      REPO_DIR,
    );
    expect(npm.code).not.toBe(0);
    expect(npm.stderr).toContain(`There is no backup file ${path.join(REPO_DIR, 'no-such-backup.jsonl.gz')}`);
    expect(existsSync(target)).toBe(false);
  });

  it('restores into a new DATA_DIR once the key file is copied there, and refuses to restore into it again', async () => {
    // The backup holds no keys (ADR 017): without the installation's key file it is refused, untouched.
    const refused = await script('restore', [file], { DATA_DIR: target });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^The file ${file} was taken on an installation with another key file \\(key id [0-9a-f]{16}\\), and there is no key file at ${path.join(target, 'server-keys.json')} \\(KEY_FILE\\) here\\.`,
      ),
    );
    expect(refused.stderr).toContain('--reset-two-factor');
    expect(existsSync(target)).toBe(false);
    // Where that key file is lost for good: restored anyway, with a new key file, and says what that means.
    const elsewhere = path.join(tempDir(), 'elsewhere');
    const reset = await script('restore', ['--reset-two-factor', file], { DATA_DIR: elsewhere });
    expect(reset.stderr).toBe('');
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain(
      '--reset-two-factor: where the key file did not fit, two-factor sign-in was turned off',
    );
    expect(reset.stdout).toContain(`Keys: ${path.join(elsewhere, 'server-keys.json')} (KEY_FILE).`);
    expect(statSync(path.join(elsewhere, 'server-keys.json')).mode & 0o777).toBe(0o600);
    mkdirSync(target, { mode: 0o700 });
    copyFileSync(path.join(source, 'server-keys.json'), path.join(target, 'server-keys.json'));

    const done = await script('restore', [file], { DATA_DIR: target });
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(
      new RegExp(`^Restored in \\d+\\.\\d s into the embedded database in DATA_DIR ${target}:`),
    );

    const again = await script('restore', [file], { DATA_DIR: target });
    expect(again.code).toBe(1);
    // Tables are named in the backup's order of tables, which new tables (fees) change: each is checked on its own.
    expect(again.stderr).toMatch(/^The database is not empty \(it holds [^)]*\bstudents: 1\b/);
    expect(again.stderr).toMatch(/^The database is not empty \(it holds [^)]*\busers: 1\b/);
  });

  it('starts the server on the restored DATA_DIR: the admin signs in with the old password and finds the data', async () => {
    const server = await startServer({ DATA_DIR: target });
    try {
      expect(server.output().stdout).not.toContain('First start');
      const token = await signIn(server, 'admin', OWN_PASSWORD);
      const students = await call<{ full_name: string }[]>(server, 'GET', '/students/', token);
      expect(students.status).toBe(200);
      expect(students.body.map((s) => s.full_name)).toEqual(['Asha Menon']);
    } finally {
      expect(await stopServer(server)).toBe(0);
    }
  });
});

describe.runIf(POSTGRES_URL)('npm run backup / restore on PostgreSQL (DATABASE_URL)', SLOW, () => {
  async function newDatabase(): Promise<string> {
    const name = `tuitiondesk_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    cleanups.push(async () => {
      const cleaner = new pg.Client({ connectionString: POSTGRES_URL });
      await cleaner.connect();
      await cleaner.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleaner.end();
    });
    const url = new URL(POSTGRES_URL as string);
    url.pathname = `/${name}`;
    return url.toString();
  }

  it('backs up one database and restores it into a new one, which the server then runs on', async () => {
    const sourceUrl = await newDatabase();
    const db = openPostgres(sourceUrl, { max: 2 });
    // The key file every process here is given, as the instances of one installation share one.
    const { ctx } = await prepareContext(testConfig({ keyFile: sharedKeyFile() }), db);
    await adminHasChosenPassword(db);
    const app = await buildApp(ctx);
    const token = await injectLogin(app, 'admin', ADMIN_PASSWORD);
    await createStudent(app, token, { full_name: 'Asha Menon' });
    const teacher = await createTeacher(app, token, { first_name: 'Kiran', last_name: 'Das' });
    await app.close();
    await db.close();

    const backupDir = tempDir();
    const backedUp = await script('backup', [], { DATABASE_URL: sourceUrl, BACKUP_DIR: backupDir });
    expect(backedUp.stderr).toBe('');
    expect(backedUp.code).toBe(0);
    const [name] = readdirSync(backupDir).filter((n) => MANUAL_FILE.test(n));
    const file = path.join(backupDir, name as string);

    const targetUrl = await newDatabase();
    const restored = await script('restore', [file], { DATABASE_URL: targetUrl });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('into the PostgreSQL database at DATABASE_URL');

    const again = await script('restore', [file], { DATABASE_URL: targetUrl });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^The database is not empty/);

    const server = await startServer({ DATABASE_URL: targetUrl });
    try {
      const admin = await signIn(server, 'admin', ADMIN_PASSWORD);
      await signIn(server, teacher.username, teacher.initial_password);
      const students = await call<{ full_name: string }[]>(server, 'GET', '/students/', admin);
      expect(students.body.map((s) => s.full_name)).toEqual(['Asha Menon']);
    } finally {
      expect(await stopServer(server)).toBe(0);
    }
  });
});
