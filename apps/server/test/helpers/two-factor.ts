/**
 * What the two-factor sign-in test files share: the app and the admin's token, the texts the server
 * answers, sign-in and calls, teachers and admins, and their authenticators.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { hashPassword } from '../../src/lib/passwords';
import { enrol as enrolAuthenticator, freshCode as freshAuthenticatorCode } from './authenticator';
import { freshAddress, type TestClient, testClient } from './client';
import { login, signInNewTeacher } from './test-app';

export let api: TestClient;
export let admin: string;

/** The admin's token once they go on with another (turning two-factor on ends their other sessions). */
export function setAdmin(token: string): void {
  admin = token;
}

/** Opens the app before the file's tests and closes it after them. */
export function twoFactorApp(): void {
  beforeAll(async () => {
    api = await testClient();
    admin = await api.adminToken();
  });
  afterAll(async () => {
    await api?.close();
  });
}

export const ENTER_CODE = 'Enter the 6-digit code from your authenticator app';
export const WRONG_CODE =
  'That code is not right. Enter the current code from your authenticator app, or a recovery code.';
export const ENROL_FIRST = 'Set up two-factor sign-in to continue';

/** Each sign-in from its own address unless one is given, so the per-address throttle stays out of the way. */
export function postLogin(fields: Record<string, string>, ip?: string): Promise<LightMyRequestResponse> {
  return api.anonymous().post('/api/v1/auth/login', undefined, { form: fields, remoteAddress: ip ?? freshAddress() });
}

export function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: object) {
  return (token ? api.withToken(token) : api.anonymous()).request(method, `/api/v1${url}`, payload);
}

export interface Account {
  id: number;
  username: string;
  password: string;
  token: string;
}

let teacherCounter = 0;
/** A teacher with a password of their own and a fresh token. */
export async function newTeacher(fields: Record<string, unknown> = {}): Promise<Account> {
  teacherCounter += 1;
  return signInNewTeacher(api.app, api.db, admin, { first_name: 'Tara', last_name: `Two${teacherCounter}`, ...fields });
}

/** Another admin account, made directly in the database (the API makes only teachers). */
export async function newAdmin(username: string, password: string): Promise<Account> {
  const [row] = await api.db.query<{ id: number }>(
    `INSERT INTO users (username, full_name, role, password_hash) VALUES ($1, $2, 'admin', $3) RETURNING id`,
    [username, `Admin ${username}`, await hashPassword(password)],
  );
  return { id: row?.id as number, username, password, token: await login(api.app, username, password) };
}

/** Sets up and confirms an authenticator for the account; answers its secret and recovery codes. */
/** Turning it on ends the account's other sessions: the account goes on with the token the answer carries. */
export async function enrol(account: { token: string }): Promise<{ secret: Buffer; recoveryCodes: string[] }> {
  const enrolled = await enrolAuthenticator(api.app, account.token);
  account.token = enrolled.token;
  return enrolled;
}

export const freshCode = (userId: number, secret: Buffer) => freshAuthenticatorCode(api.db, userId, secret);

export async function lastActivity(action: string): Promise<{ description: string; user_id: number } | undefined> {
  const [row] = await api.db.query<{ description: string; user_id: number }>(
    'SELECT description, user_id FROM activities WHERE action = $1 ORDER BY id DESC LIMIT 1',
    [action],
  );
  return row;
}
