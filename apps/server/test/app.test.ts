import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal } from './helpers/answers';
import { type TestClient, testClient } from './helpers/client';
import { accessOf, templateOf } from './helpers/roles';
import { detailOf } from './helpers/test-app';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

/**
 * The staff console's calls; who may make each comes from the one table in
 * helpers/roles.ts (auth-attacks.test.ts walks every operation of the OpenAPI document against it).
 */
const CALLS = (
  [
    { method: 'GET', url: '/api/v1/auth/me' },
    { method: 'POST', url: '/api/v1/auth/change-password' },
    { method: 'GET', url: '/api/v1/students/' },
    { method: 'POST', url: '/api/v1/students/' },
    { method: 'PUT', url: '/api/v1/students/1' },
    { method: 'DELETE', url: '/api/v1/students/1' },
    { method: 'POST', url: '/api/v1/students/delete-multiple' },
    { method: 'GET', url: '/api/v1/students/classes' },
    { method: 'DELETE', url: '/api/v1/students/clear-all' },
    { method: 'GET', url: '/api/v1/teachers/' },
    { method: 'POST', url: '/api/v1/teachers/' },
    { method: 'PUT', url: '/api/v1/teachers/1' },
    { method: 'DELETE', url: '/api/v1/teachers/1' },
    { method: 'POST', url: '/api/v1/teachers/delete-multiple' },
    { method: 'DELETE', url: '/api/v1/teachers/clear-all' },
    { method: 'GET', url: '/api/v1/attendance/roster?class_name=7' },
    { method: 'POST', url: '/api/v1/attendance/mark' },
    { method: 'GET', url: '/api/v1/attendance/pending-approval' },
    { method: 'POST', url: '/api/v1/attendance/approve' },
    { method: 'GET', url: '/api/v1/attendance/summary' },
    { method: 'GET', url: '/api/v1/attendance/history?start_date=2026-01-01&end_date=2026-01-07' },
    { method: 'GET', url: '/api/v1/teacher-attendance/date/2026-01-05' },
    { method: 'POST', url: '/api/v1/teacher-attendance/mark' },
    { method: 'POST', url: '/api/v1/teacher-attendance/lock/2026-01-05' },
    { method: 'POST', url: '/api/v1/teacher-attendance/update-remarks' },
    { method: 'GET', url: '/api/v1/communications/history' },
    { method: 'POST', url: '/api/v1/communications/send-whatsapp' },
    { method: 'POST', url: '/api/v1/messages/send-to-parents' },
    { method: 'GET', url: '/api/v1/import/students/template' },
    { method: 'GET', url: '/api/v1/import/teachers/template' },
    { method: 'POST', url: '/api/v1/import/students/import' },
    { method: 'POST', url: '/api/v1/import/teachers/import' },
    { method: 'GET', url: '/api/v1/activities/recent?limit=10' },
    { method: 'POST', url: '/api/v1/activities/mark-viewed' },
    { method: 'GET', url: '/api/v1/dashboard/summary' },
    { method: 'GET', url: '/api/v1/teachers/1' },
    { method: 'GET', url: '/api/v1/attendance/history/page' },
    { method: 'GET', url: '/api/v1/settings' },
    { method: 'PUT', url: '/api/v1/settings' },
  ] as { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string }[]
).map((call) => {
  const access = accessOf(call.method, call.url);
  if (access !== 'staff' && access !== 'admin')
    throw new Error(`${call.method} ${call.url} is not a staff call in roles.ts`);
  return { ...call, teacher: access === 'staff' };
});

describe('authentication and roles, on every call', () => {
  it.each(CALLS)('$method $url needs a token (401 with a detail)', async ({ method, url }) => {
    const response = await api
      .anonymous()
      .request(method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
    expect(response.statusCode).toBe(401);
    expect(detailOf(response)).toBeTruthy();
  });

  it.each(CALLS.filter((call) => !call.teacher))(
    '$method $url refuses a teacher with 403 before looking at the body',
    async ({ method, url }) => {
      // An invalid body: a 422 here would mean validation ran before the role check.
      const body = method === 'GET' || method === 'DELETE' ? undefined : { nonsense: true };
      const response = await api.as('teacher').request(method, url, body);
      expect(response.statusCode).toBe(403);
      expect(detailOf(response)).toBe('You do not have permission to do this');
    },
  );

  it.each(CALLS.filter((call) => call.teacher && call.method === 'GET'))(
    '$method $url answers a teacher',
    async ({ method, url }) => {
      const response = await api.as('teacher').request(method, url);
      expect(response.statusCode).toBe(200);
    },
  );

  it('every call of the list is in the OpenAPI document', async () => {
    const document = (await api.anonymous().get('/api/openapi.json')).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const { method, url } of CALLS) {
      const path = templateOf(url);
      expect(document.paths[path], `${method} ${path}`).toBeDefined();
      expect(document.paths[path]?.[method.toLowerCase()], `${method} ${path}`).toBeDefined();
    }
  });
});

describe('the HTTP surface', () => {
  it('answers health without a token', async () => {
    const response = await api.anonymous().get('/api/v1/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('serves the API reference and the OpenAPI document', async () => {
    const document = await api.anonymous().get('/api/openapi.json');
    expect(document.statusCode).toBe(200);
    expect(document.json().openapi).toMatch(/^3\./);
    const docs = await api.anonymous().get('/api/docs/');
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
  });

  it('sends security headers, and no-store on API answers', async () => {
    const response = await api.anonymous().get('/api/v1/health');
    expect(response.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(response.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers an unknown endpoint with 404 and a detail', async () => {
    const response = await api.as('admin').get('/api/v1/nowhere');
    expect(response.statusCode).toBe(404);
    expect(detailOf(response)).toMatch(/No such endpoint/);
  });

  it('refuses malformed JSON with a detail, never a 500', async () => {
    const response = await api.as('admin').post('/api/v1/students/', undefined, { json: '{"full_name": ' });
    expectRefusal(response, 400, 'body: is not valid JSON');
  });

  it('refuses the NUL character anywhere in the input with 422 naming the field (PostgreSQL text cannot hold it)', async () => {
    const admin = api.as('admin');
    const inBody = await admin.post('/api/v1/attendance/mark', {
      date: '2026-01-05',
      records: [{ student_id: 1, status: 'present', remarks: 'late\u0000bus' }],
    });
    expect(inBody.statusCode).toBe(422);
    expect(detailOf(inBody)).toBe('records[0].remarks: must not contain the NUL character (\\u0000)');
    const inQuery = await admin.get('/api/v1/attendance/history/page?search=a%00b');
    expect(inQuery.statusCode).toBe(422);
    expect(detailOf(inQuery)).toMatch(/^search: must not contain the NUL character/);
    const inForm = await api.anonymous().post('/api/v1/auth/login', undefined, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: 'username=admin%00&password=x',
    });
    expect(inForm.statusCode).toBe(422);
    expect(detailOf(inForm)).toMatch(/^username: /);
  });

  it("answers a malformed %-escape (400) and an overlong path segment (414) with a detail, not the router's own body", async () => {
    const admin = api.as('admin');
    const badEscape = await admin.get('/api/v1/students/%E0%A4%A');
    expect(badEscape.statusCode).toBe(400);
    expect(badEscape.json()).toEqual({
      detail: 'The address is not valid: it holds a malformed %-escape',
      code: 'request.malformed_escape',
    });
    const tooLong = await admin.get(`/api/v1/students/${'1'.repeat(101)}`);
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.json()).toEqual({
      detail: 'The address is too long: a part of it exceeds 100 characters',
      code: 'request.address_too_long',
    });
    expect(tooLong.headers['cache-control']).toBe('no-store');
  });

  it('refuses a JSON body over 1 MiB with 413', async () => {
    const response = await api.as('admin').post('/api/v1/students/', undefined, {
      json: JSON.stringify({ full_name: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(response.statusCode).toBe(413);
    expect(detailOf(response)).toBeTruthy();
  });
});
