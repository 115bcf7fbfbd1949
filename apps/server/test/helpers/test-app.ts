import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app';
import { prepareContext } from '../../src/bootstrap';
import { type AppConfig, loadConfig } from '../../src/config';
import type { AppContext } from '../../src/context';
import { type Database, openPglite, openPostgres, type Queryable } from '../../src/db/database';
import { MIGRATIONS_DIR, migrate } from '../../src/db/migrate';

export const ADMIN_PASSWORD = 'admin-test-password';

/** The migrations' names and contents, hashed: a template database is named by it, so a changed migration makes a new one. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS_DIR).sort())
    hash.update(name).update(readFileSync(path.join(MIGRATIONS_DIR, name)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * PGlite costs ~2 s to start and migrate; a migrated copy loads in a fraction of that. The first test
 * file to need it builds the template (named by the migrations' content, so a changed migration makes
 * a new one); the others load it. It is kept as a plain tar (about 40 MB): it loads in half the time of
 * the gzipped one (~0.25 s against ~0.5 s), and the API suite opens a few hundred.
 */
async function pgliteTemplate(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `tuitiondesk-test-template-${migrationsHash()}.tar`);
  if (!existsSync(file)) {
    const { PGlite } = await import('@electric-sql/pglite');
    const client = await PGlite.create();
    const { wrapPglite } = await import('../../src/db/database');
    await migrate(wrapPglite(client));
    const dump = await client.dumpDataDir('none');
    await client.close();
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(temporary, Buffer.from(await dump.arrayBuffer()));
    renameSync(temporary, file);
  }
  return new Blob([await readFile(file)]);
}

/**
 * A new, empty database of its own on the PostgreSQL server at `serverUrl` (nothing migrated; or a copy
 * of the database `template`), its address, and how to drop it.
 */
export async function emptyServerDatabase(
  serverUrl: string,
  prefix = 'tuitiondesk_test',
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleaner = new pg.Client({ connectionString: serverUrl });
      await cleaner.connect();
      await cleaner.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleaner.end();
    },
  };
}

/** Any fixed number: the test processes that find no template on the server wait on it, and one builds it. */
const SERVER_TEMPLATE_LOCK = 741_852_964;

/**
 * The same on PostgreSQL: a new database costs ~1-2 s to migrate, a copy of a migrated one
 * (`CREATE DATABASE … TEMPLATE`) ~0.1 s. The first test file to need it builds the template database
 * under a lock, migrating it under a name of its own and renaming it when done (so no one copies a
 * half-migrated one); the others copy it. It is named by the migrations' content and kept on the
 * server for the next run, as PGlite's is kept in the temporary directory. Only its name is answered:
 * nothing stays connected to it (PostgreSQL copies a database no one is connected to).
 */
async function serverTemplate(serverUrl: string): Promise<string> {
  const name = `tuitiondesk_template_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const exists = async () =>
    (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rows.length > 0;
  try {
    if (await exists()) return name;
    await admin.query('SELECT pg_advisory_lock($1)', [SERVER_TEMPLATE_LOCK]);
    if (await exists()) return name;
    const building = `${name}_${process.pid}_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${building}`);
    try {
      const url = new URL(serverUrl);
      url.pathname = `/${building}`;
      const db = openPostgres(url.toString(), { max: 1 });
      try {
        await migrate(db);
      } finally {
        await db.close();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (error) {
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      throw error;
    }
    return name;
  } finally {
    // Ending the session also releases its advisory lock.
    await admin.end();
  }
}

/** A fresh, empty, migrated database: PGlite in memory, or its own database on TEST_DATABASE_URL. */
export async function freshDatabase(): Promise<{ db: Database; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const db = await openPglite(undefined, await pgliteTemplate());
    return { db, drop: () => db.close() };
  }
  const created = await emptyServerDatabase(serverUrl, 'tuitiondesk_test', await serverTemplate(serverUrl));
  const db = openPostgres(created.url, { max: 5 });
  return {
    db,
    drop: async () => {
      await db.close();
      await created.drop();
    },
  };
}

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    ...loadConfig({ ADMIN_PASSWORD, LOG_LEVEL: 'silent' }),
    webDistDir: '/nonexistent',
    // Never ./data/backups; createTestApp gives each app a directory of its own.
    backupDir: path.join(os.tmpdir(), 'tuitiondesk-test-backups'),
    // Never ./data/server-keys.json: one key file for every test database, as one installation (ADR 017).
    keyFile: path.join(os.tmpdir(), 'tuitiondesk-test-server-keys.json'),
    ...overrides,
  };
}

/**
 * The test centre's first admin has already chosen ADMIN_PASSWORD as its own password, so tests about
 * anything else can use it at once (the server refuses every other call before that change).
 */
export async function adminHasChosenPassword(db: Queryable): Promise<void> {
  await db.query("UPDATE users SET must_change_password = false WHERE username = 'admin'");
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: Database;
  /** A bearer token for the first-start admin. */
  adminToken: () => Promise<string>;
  /** Creates a teacher (through the API) and answers a token for their account. */
  teacherToken: () => Promise<string>;
  close: () => Promise<void>;
}

export interface TestAppOptions {
  config?: Partial<AppConfig>;
  prepare?: (ctx: AppContext) => AppContext;
  /**
   * Leave the first-start admin as the first start makes it: it must change ADMIN_PASSWORD before
   * anything else. Otherwise the test centre's admin has already chosen ADMIN_PASSWORD as its own.
   */
  firstStart?: boolean;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { db, drop } = await freshDatabase();
  // Backups the app takes (a clear-all takes one) go into a directory removed with the app.
  const backupDir = mkdtempSync(path.join(os.tmpdir(), 'tuitiondesk-test-backups-'));
  const prepared = await prepareContext(testConfig({ backupDir, ...options.config }), db);
  if (!options.firstStart) await adminHasChosenPassword(db);
  const ctx = options.prepare ? options.prepare(prepared.ctx) : prepared.ctx;
  const app = await buildApp(ctx);
  await app.ready();
  let adminToken: Promise<string> | undefined;
  let teacherToken: Promise<string> | undefined;
  const result: TestApp = {
    app,
    ctx,
    db,
    adminToken: () => {
      adminToken ??= login(app, 'admin', ADMIN_PASSWORD);
      return adminToken;
    },
    teacherToken: () => {
      teacherToken ??= (async () => {
        const teacher = await signInNewTeacher(app, db, await result.adminToken(), {
          first_name: 'Tess',
          last_name: 'Teacher',
        });
        return teacher.token;
      })();
      return teacherToken;
    },
    close: async () => {
      await app.close();
      await drop();
      rmSync(backupDir, { recursive: true, force: true });
    },
  };
  return result;
}

export async function login(app: FastifyInstance, username: string, password: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: new URLSearchParams({ username, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (response.statusCode !== 200)
    throw new Error(`login as ${username} failed: ${response.statusCode} ${response.body}`);
  return response.json().access_token as string;
}

let phoneCounter = 0;
/** A valid, distinct phone number for each call. */
export function uniquePhone(): string {
  phoneCounter += 1;
  return `+9198${String(process.pid % 1000).padStart(3, '0')}${String(phoneCounter).padStart(5, '0')}`;
}

/** POSTs `payload` as the bearer of `token` and answers the created row; anything but 200 or 201 throws. */
async function created<T>(app: FastifyInstance, token: string, url: string, payload: object, what: string): Promise<T> {
  const response = await app.inject({ method: 'POST', url, headers: auth(token), payload });
  if (response.statusCode !== 201 && response.statusCode !== 200) {
    throw new Error(`${what} failed: ${response.statusCode} ${response.body}`);
  }
  return response.json();
}

/** A helper that creates a record at `url` from `defaults` (made anew each call) with `fields` over them. */
function creator<T>(url: string, what: string, defaults: () => Record<string, unknown>) {
  return (app: FastifyInstance, token: string, fields: Record<string, unknown> = {}): Promise<T> =>
    created(app, token, url, { ...defaults(), ...fields }, what);
}

export const createTeacher = creator<{
  id: number;
  unique_id: string;
  username: string;
  initial_password: string;
  full_name: string;
}>('/api/v1/teachers/', 'creating a teacher', () => ({
  first_name: 'Anita',
  last_name: 'Rao',
  phone_number: uniquePhone(),
  subjects: ['Mathematics'],
  classes_assigned: ['7'],
}));

export interface SignedInTeacher {
  /** The sign-in account's id (users.id). */
  id: number;
  /** The teacher record's id (teachers.id). */
  teacherId: number;
  username: string;
  full_name: string;
  /** The password the teacher chose at first sign-in. */
  password: string;
  token: string;
}

let chosenPasswordCounter = 0;

/**
 * A teacher as they are after their first sign-in: created by the admin, signed in with the initial
 * password and made to choose their own (the server allows nothing else before), with a token.
 */
export async function signInNewTeacher(
  app: FastifyInstance,
  db: Queryable,
  adminToken: string,
  fields: Record<string, unknown> = {},
): Promise<SignedInTeacher> {
  const teacher = await createTeacher(app, adminToken, fields);
  const first = await login(app, teacher.username, teacher.initial_password);
  chosenPasswordCounter += 1;
  const password = `Kettle-Orbit-${chosenPasswordCounter}-${process.pid}`;
  const changed = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/change-password',
    headers: auth(first),
    payload: { current_password: teacher.initial_password, new_password: password },
  });
  if (changed.statusCode !== 200) throw new Error(`choosing a password failed: ${changed.statusCode} ${changed.body}`);
  const [row] = await db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [teacher.username]);
  return {
    id: row?.id as number,
    teacherId: teacher.id,
    username: teacher.username,
    full_name: teacher.full_name,
    password,
    token: changed.json().access_token as string,
  };
}

export const createStudent = creator<{
  id: number;
  unique_id: string;
  full_name: string;
  class_name: string;
  parent_phone: string;
}>('/api/v1/students/', 'creating a student', () => ({
  full_name: 'Ravi Kumar',
  class_name: '7',
  parent_name: 'Sunil Kumar',
  parent_phone: uniquePhone(),
}));

/** A family with a parent app access code: a new student on a new phone, and the code the admin handed over. */
export async function familyWithCode(
  app: FastifyInstance,
  adminToken: string,
  fields: Record<string, unknown> = {},
): Promise<{ studentId: number; phone: string; code: string }> {
  const student = await createStudent(app, adminToken, { parent_phone: uniquePhone(), ...fields });
  const issued = await app.inject({
    method: 'POST',
    url: `/api/v1/students/${student.id}/parent-access`,
    headers: auth(adminToken),
  });
  if (issued.statusCode !== 201)
    throw new Error(`issuing a parent access code failed: ${issued.statusCode} ${issued.body}`);
  return { studentId: student.id, phone: student.parent_phone, code: issued.json().code as string };
}

export function auth(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Every error body is `{detail: string}`; answers the detail so tests can assert on the words. */
export function detailOf(response: LightMyRequestResponse): string {
  const body = response.json() as { detail?: unknown };
  if (typeof body.detail !== 'string') throw new Error(`error body has no string detail: ${response.body}`);
  return body.detail;
}
