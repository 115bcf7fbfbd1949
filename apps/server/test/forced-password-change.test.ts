import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/lib/passwords';
import { enrol } from './helpers/authenticator';
import { type TestClient, testClient } from './helpers/client';
import { ADMIN_PASSWORD, createTeacher, detailOf, familyWithCode, login, uniquePhone } from './helpers/test-app';

/**
 * The forced password change is the server's rule (ADR 021): a session whose
 * account must change its password may read /auth/me, choose the language it reads the console in (so
 * the change itself reads in it), change the password, set up two-factor sign-in where the centre
 * requires it of that account, and sign out (dropping its token); every other call answers 403 and
 * does nothing.
 */

const CHANGE_FIRST =
  'Change your password first: this account still has the password it was given, and can do nothing else until it sets its own';

let api: TestClient;
/** The admin's token once it has chosen its password (the first test does). */
let admin: string;
beforeAll(async () => {
  api = await testClient({ firstStart: true });
});
afterAll(async () => {
  await api?.close();
});

function call(method: string, url: string, token: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return api.withToken(token).request(method as 'GET', `/api/v1${url}`, payload);
}

async function count(table: string): Promise<number> {
  const [row] = await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return row?.n ?? 0;
}

interface OpenApi {
  paths: Record<string, Record<string, { security?: unknown[] }>>;
}

/** Every staff operation of the API, as `METHOD /path` with its path parameters filled in. */
async function staffOperations(): Promise<{ method: string; url: string }[]> {
  const document = (await api.anonymous().get('/api/openapi.json')).json() as OpenApi;
  const operations: { method: string; url: string }[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/v1/') || path.startsWith('/api/v1/parent/')) continue;
    for (const [method, operation] of Object.entries(methods)) {
      if (Array.isArray(operation.security) && operation.security.length === 0) continue;
      operations.push({
        method: method.toUpperCase(),
        url: path.replace('/api/v1', '').replace(/\{[^}]+\}/g, '1'),
      });
    }
  }
  return operations;
}

const ALLOWED = new Set(['GET /auth/me', 'PUT /auth/me/language', 'POST /auth/change-password']);
const PUBLIC = new Set([
  'GET /health',
  'GET /centre',
  'GET /centre/logo',
  'POST /auth/login',
  'GET /whatsapp/webhook',
  'POST /whatsapp/webhook',
  // Razorpay's webhook: proven by its signature, not a token (ADR 053).
  'POST /payments/razorpay/webhook',
]);

describe('an account that must change its password', () => {
  it('the first-start admin: reads its account, is refused everything else, then changes the password and works', async () => {
    const signIn = await api
      .anonymous()
      .post('/api/v1/auth/login', undefined, { form: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user).toMatchObject({ must_change_password: true });
    const token = signIn.json().access_token as string;

    const me = await call('GET', '/auth/me', token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: 'admin', must_change_password: true });

    const before = await count('students');
    const refused = await call('POST', '/students/', token, {
      full_name: 'Ravi Kumar',
      class_name: '7',
      parent_name: 'Sunil Kumar',
      parent_phone: uniquePhone(),
    });
    expect(refused.statusCode).toBe(403);
    expect(detailOf(refused)).toBe(CHANGE_FIRST);
    expect(await count('students')).toBe(before);

    const changed = await call('POST', '/auth/change-password', token, {
      current_password: ADMIN_PASSWORD,
      new_password: 'Lantern-Harbour-42',
    });
    expect(changed.statusCode).toBe(200);
    const fresh = changed.json().access_token as string;
    expect((await call('GET', '/students/', fresh)).statusCode).toBe(200);
    expect((await call('GET', '/auth/me', fresh)).json()).toMatchObject({ must_change_password: false });
    admin = fresh;
  });

  it('a new teacher: every staff operation but its own account and the change answers 403, all at once', async () => {
    const teacher = await createTeacher(api.app, admin, { first_name: 'Nisha', last_name: 'Varma' });
    const token = await login(api.app, teacher.username, teacher.initial_password);
    const operations = await staffOperations();
    expect(operations.length).toBeGreaterThan(40);
    const activitiesBefore = await count('activities');
    const answers = await Promise.all(
      operations.map(async ({ method, url }) => ({
        key: `${method} ${url}`,
        response: await call(method, url, token, method === 'GET' || method === 'DELETE' ? undefined : {}),
      })),
    );
    for (const { key, response } of answers) {
      if (ALLOWED.has(key) || PUBLIC.has(key)) continue;
      expect({ key, status: response.statusCode }).toEqual({ key, status: 403 });
      expect(detailOf(response)).toBe(CHANGE_FIRST);
    }
    expect(await count('activities')).toBe(activitiesBefore);
    // Two-factor setup is not for them now: the centre does not require it of teachers.
    expect((await call('POST', '/auth/two-factor/setup', token)).statusCode).toBe(403);
    expect(await count('user_two_factor')).toBe(0);
  });

  it('an admin whom the centre requires to use two-factor may set it up before changing the password, and nothing else', async () => {
    const enrolled = await enrol(api.app, admin);
    admin = enrolled.token;
    const policy = await call('PUT', '/settings/two-factor', enrolled.token, { require_admin_two_factor: true });
    expect(policy.statusCode).toBe(200);

    await api.db.query(
      `INSERT INTO users (username, full_name, role, password_hash, must_change_password)
       VALUES ('deputy', 'Deputy Admin', 'admin', $1, true)`,
      [await hashPassword('Given-By-Admin-77')],
    );
    const deputy = await login(api.app, 'deputy', 'Given-By-Admin-77');
    expect((await call('GET', '/auth/me', deputy)).json()).toMatchObject({
      must_change_password: true,
      must_enrol_two_factor: true,
    });
    expect((await call('GET', '/auth/two-factor', deputy)).statusCode).toBe(200);
    expect((await call('GET', '/settings/two-factor', deputy)).statusCode).toBe(200);
    const setup = await call('POST', '/auth/two-factor/setup', deputy);
    expect(setup.statusCode).toBe(200);
    const students = await call('GET', '/students/', deputy);
    expect(students.statusCode).toBe(403);
    expect(detailOf(students)).toBe(CHANGE_FIRST);

    const off = await call('PUT', '/settings/two-factor', enrolled.token, { require_admin_two_factor: false });
    expect(off.statusCode).toBe(200);
  });

  it("leaves the parent app alone: a family's sign-in works whatever state the staff accounts are in", async () => {
    const { phone, code } = await familyWithCode(api.app, admin);
    const parent = await api.anonymous().post('/api/v1/parent/login', { phone, code });
    expect(parent.statusCode).toBe(200);
    const me = await api.withToken(parent.json().access_token).get('/api/v1/parent/me');
    expect(me.statusCode).toBe(200);
  });
});
