/**
 * What the parent app's test files share: the app, the admin's and the test teacher's tokens, codes
 * issued and used, and families, messages and devices set up directly.
 */
import { afterAll, beforeAll } from 'vitest';
import { hashAccessCode } from '../../src/modules/families/access-codes';
import { freshAddress, type TestClient, testClient } from './client';
import { uniquePhone } from './test-app';

export let api: TestClient;
export let admin: string;
export let teacher: string;

/** Opens the app before the file's tests and closes it after them. */
export function parentsApp(): void {
  beforeAll(async () => {
    api = await testClient();
    admin = await api.adminToken();
    teacher = await api.teacherToken();
  });
  afterAll(async () => {
    await api?.close();
  });
}

export function issue(studentId: number | string, token = admin) {
  return api.withToken(token).post(`/api/v1/students/${studentId}/parent-access`);
}

export function status(studentId: number | string, token = admin) {
  return api.withToken(token).get(`/api/v1/students/${studentId}/parent-access`);
}

export function parentLogin(phone: string, code: string, address = freshAddress()) {
  return api.anonymous().post('/api/v1/parent/login', { phone, code }, { remoteAddress: address });
}

export async function signIn(phone: string, code: string): Promise<string> {
  const response = await parentLogin(phone, code);
  if (response.statusCode !== 200) throw new Error(`parent login failed: ${response.statusCode} ${response.body}`);
  return response.json().access_token as string;
}

/**
 * A family of one or more children on one phone, with access set up directly (a known code's hash and
 * a token signed for it): a code costs a full personal-password hash, and most tests here are about other things.
 * The tests of issuing and signing in go through the API.
 */
export const KNOWN_CODE = 'K7M2-Q9XR';
let knownHash: Promise<string> | undefined;
export async function family(names: string[] = ['Kiran Das'], parentName = 'Meera Das') {
  const phone = uniquePhone();
  const children = [];
  for (const name of names) {
    children.push(await api.student({ full_name: name, parent_phone: phone, parent_name: parentName }));
  }
  knownHash ??= hashAccessCode('K7M2Q9XR');
  await api.db.query("INSERT INTO parent_access (phone, code_hash, issued_by) VALUES ($1, $2, 'Admin')", [
    phone,
    await knownHash,
  ]);
  const token = await api.ctx.tokens.signParent({ phone, tokenVersion: 0 });
  return { phone, children, code: KNOWN_CODE, token };
}

export function parentGet(url: string, token: string) {
  return api.withToken(token).get(`/api/v1${url}`);
}

export async function insertMessage(phone: string, fields: { subject?: string; type?: string; sentAt?: string } = {}) {
  const rows = await api.db.query<{ id: number }>(
    `INSERT INTO messages (message_type, kind, subject, message, recipient, sent_by, sent_at)
     VALUES ($1, CASE WHEN $1 = 'WHATSAPP' THEN 'whatsapp' ELSE 'notice' END, $2, 'Body text', $3, 'Admin',
             COALESCE($4::timestamptz, now())) RETURNING id`,
    [fields.type ?? 'IN_APP', fields.subject ?? 'Hello', phone, fields.sentAt ?? null],
  );
  return (rows[0] as { id: number }).id;
}

export async function addSubscription(phone: string): Promise<number> {
  const rows = await api.db.query<{ id: number }>(
    `INSERT INTO push_subscriptions (phone, endpoint, p256dh, auth) VALUES ($1, $2, 'key', 'secret') RETURNING id`,
    [phone, `https://push.example.test/${Math.random().toString(36).slice(2)}`],
  );
  return (rows[0] as { id: number }).id;
}
