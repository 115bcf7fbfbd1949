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
import { APPROVED_TEMPLATES, type FakeCloudApi, startFakeCloudApi } from './fake-cloud-api';
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
/** The Meta values an admin connects WhatsApp with in the role walk; the fake Cloud API knows them. */
export const ROLE_WALK_WHATSAPP = {
  access_token: 'EAArolewalk-access-token-5d6e7f',
  phone_number_id: '1098765499',
  business_account_id: '2233445599',
  app_secret: '0123456789abcdef0123456789abcdef',
};

let graph: FakeCloudApi | undefined;

export function attackedApp(): void {
  beforeAll(async () => {
    backupDir = mkdtempSync(path.join(os.tmpdir(), 'tuitiondesk-auth-attacks-'));
    graph = await startFakeCloudApi({
      accessToken: ROLE_WALK_WHATSAPP.access_token,
      phoneNumberId: ROLE_WALK_WHATSAPP.phone_number_id,
      businessAccountId: ROLE_WALK_WHATSAPP.business_account_id,
      appSecret: ROLE_WALK_WHATSAPP.app_secret,
      // Meta's own sample, which the console's test message sends first.
      templates: { ...APPROVED_TEMPLATES, hello_world: { languages: ['en_US'], parameters: 0, buttons: 0 } },
      autoStatuses: false,
    });
    api = await testClient({
      // Meta's Graph reads (connecting WhatsApp from the console) go to a fake Cloud API on loopback.
      config: {
        backupDir,
        whatsappApi: { baseUrl: graph.baseUrl, dailyLimit: 250, messagesPerSecond: 1000, timeoutMs: 2_000 },
      },
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
    await graph?.close();
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
