/**
 * What the hostile sign-in and token test files share: an app whose WhatsApp answers (so an admin's
 * send-whatsapp in the role walk gets past "not configured"), the admin's token and id, the signing
 * secret, a signed-in teacher, and the calls they make.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freshAddress, type TestClient, testClient } from './client';
import { signInNewTeacher } from './test-app';

export let api: TestClient;
let backupDir: string;
export let secret: string;
export let admin: string;
export let adminId: number;
export let teacher: { id: number; userId: number; username: string; password: string; token: string };

/** A new signed-in teacher for the tests that follow (after a clear-all took the last one). */
export function setTeacher(value: typeof teacher): void {
  teacher = value;
}

/** Opens the app before the file's tests and closes it after them. */
export function attackedApp(): void {
  beforeAll(async () => {
    backupDir = mkdtempSync(path.join(os.tmpdir(), 'tuitiondesk-auth-attacks-'));
    api = await testClient({
      config: { backupDir },
      // WhatsApp answers, so an admin's send-whatsapp in the role walk gets past "not configured".
      prepare: (ctx) => ({ ...ctx, whatsapp: { send: async () => ({ providerMessageId: 'wamid.test' }) } }),
    });
    admin = await api.adminToken();
    adminId = (await get('/api/v1/auth/me', admin)).json().id;
    // The signing secret is the key file's signing_key, as written there (ADR 017); never in the database.
    secret = JSON.parse(readFileSync(api.ctx.config.keyFile, 'utf8')).signing_key;
    teacher = await signedInTeacher();
  });
  afterAll(async () => {
    await api?.close();
    if (backupDir) rmSync(backupDir, { recursive: true, force: true });
  });
}

/** Each sign-in from its own address unless a test says otherwise, so the per-address throttle stays out of the way. */
export function postLogin(
  username: string,
  password: string,
  address = freshAddress(),
  headers: Record<string, string> = {},
) {
  return api.anonymous().post('/api/v1/auth/login', undefined, {
    form: { username, password },
    remoteAddress: address,
    headers,
  });
}

export function get(url: string, token?: string, headers: Record<string, string> = {}) {
  return (token ? api.withToken(token) : api.anonymous()).get(url, { headers });
}

/** A teacher after the first sign-in, with a password of their own (the server allows nothing else before). */
export async function signedInTeacher(fields: Record<string, unknown> = {}) {
  const teacher = await signInNewTeacher(api.app, api.db, admin, {
    first_name: 'Tara',
    last_name: 'Teacher',
    ...fields,
  });
  return {
    id: teacher.teacherId,
    userId: teacher.id,
    username: teacher.username,
    password: teacher.password,
    token: teacher.token,
  };
}
