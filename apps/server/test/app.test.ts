import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createTestApp, detailOf, type TestApp } from './helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Every call of the spec's section 7 and the contract, with who may make it. */
const CALLS: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; teacher: boolean }[] = [
  { method: 'GET', url: '/api/v1/auth/me', teacher: true },
  { method: 'POST', url: '/api/v1/auth/change-password', teacher: true },
  { method: 'GET', url: '/api/v1/students/', teacher: true },
  { method: 'POST', url: '/api/v1/students/', teacher: true },
  { method: 'PUT', url: '/api/v1/students/1', teacher: true },
  { method: 'DELETE', url: '/api/v1/students/1', teacher: false },
  { method: 'POST', url: '/api/v1/students/delete-multiple', teacher: false },
  { method: 'GET', url: '/api/v1/students/classes', teacher: true },
  { method: 'DELETE', url: '/api/v1/students/clear-all', teacher: false },
  { method: 'GET', url: '/api/v1/teachers/', teacher: false },
  { method: 'POST', url: '/api/v1/teachers/', teacher: false },
  { method: 'PUT', url: '/api/v1/teachers/1', teacher: false },
  { method: 'DELETE', url: '/api/v1/teachers/1', teacher: false },
  { method: 'POST', url: '/api/v1/teachers/delete-multiple', teacher: false },
  { method: 'DELETE', url: '/api/v1/teachers/clear-all', teacher: false },
  { method: 'GET', url: '/api/v1/attendance/roster?class_name=7', teacher: true },
  { method: 'POST', url: '/api/v1/attendance/mark', teacher: true },
  { method: 'GET', url: '/api/v1/attendance/pending-approval', teacher: true },
  { method: 'POST', url: '/api/v1/attendance/approve', teacher: false },
  { method: 'GET', url: '/api/v1/attendance/summary', teacher: true },
  { method: 'GET', url: '/api/v1/attendance/history?start_date=2026-01-01&end_date=2026-01-07', teacher: false },
  { method: 'GET', url: '/api/v1/teacher-attendance/date/2026-01-05', teacher: false },
  { method: 'POST', url: '/api/v1/teacher-attendance/mark', teacher: false },
  { method: 'POST', url: '/api/v1/teacher-attendance/lock/2026-01-05', teacher: false },
  { method: 'POST', url: '/api/v1/teacher-attendance/update-remarks', teacher: false },
  { method: 'GET', url: '/api/v1/communications/history', teacher: true },
  { method: 'POST', url: '/api/v1/communications/send-whatsapp', teacher: false },
  { method: 'POST', url: '/api/v1/messages/send-to-parents', teacher: true },
  { method: 'GET', url: '/api/v1/import/students/template', teacher: false },
  { method: 'GET', url: '/api/v1/import/teachers/template', teacher: false },
  { method: 'POST', url: '/api/v1/import/students/import', teacher: false },
  { method: 'POST', url: '/api/v1/import/teachers/import', teacher: false },
  { method: 'GET', url: '/api/v1/activities/recent?limit=10', teacher: true },
  { method: 'POST', url: '/api/v1/activities/mark-viewed', teacher: true },
  { method: 'GET', url: '/api/v1/dashboard/summary', teacher: true },
  { method: 'GET', url: '/api/v1/teachers/1', teacher: false },
];

describe('authentication and roles, on every call', () => {
  it.each(CALLS)('$method $url needs a token (401 with a detail)', async ({ method, url }) => {
    const response = await t.app.inject({
      method,
      url,
      payload: method === 'GET' || method === 'DELETE' ? undefined : {},
    });
    expect(response.statusCode).toBe(401);
    expect(detailOf(response)).toBeTruthy();
  });

  it.each(CALLS.filter((call) => !call.teacher))(
    '$method $url refuses a teacher with 403 before looking at the body',
    async ({ method, url }) => {
      const response = await t.app.inject({
        method,
        url,
        headers: auth(await t.teacherToken()),
        // An invalid body: a 422 here would mean validation ran before the role check.
        payload: method === 'GET' || method === 'DELETE' ? undefined : { nonsense: true },
      });
      expect(response.statusCode).toBe(403);
      expect(detailOf(response)).toBe('You do not have permission to do this');
    },
  );

  it.each(CALLS.filter((call) => call.teacher && call.method === 'GET'))(
    '$method $url answers a teacher',
    async ({ method, url }) => {
      const response = await t.app.inject({ method, url, headers: auth(await t.teacherToken()) });
      expect(response.statusCode).toBe(200);
    },
  );

  it('every call of the list is in the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const { method, url } of CALLS) {
      const path = url
        .split('?')[0]
        ?.replace(/\/students\/1$/, '/students/{id}')
        .replace(/\/teachers\/1$/, '/teachers/{id}')
        .replace(/\d{4}-\d\d-\d\d$/, '{date}') as string;
      expect(document.paths[path], `${method} ${path}`).toBeDefined();
      expect(document.paths[path]?.[method.toLowerCase()], `${method} ${path}`).toBeDefined();
    }
  });
});

describe('the HTTP surface', () => {
  it('answers health without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('serves the API reference and the OpenAPI document', async () => {
    const document = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(document.statusCode).toBe(200);
    expect(document.json().openapi).toMatch(/^3\./);
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
  });

  it('sends security headers, and no-store on API answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(response.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers an unknown endpoint with 404 and a detail', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/nowhere', headers: auth(await t.adminToken()) });
    expect(response.statusCode).toBe(404);
    expect(detailOf(response)).toMatch(/No such endpoint/);
  });

  it('refuses malformed JSON with a detail, never a 500', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/students/',
      headers: { ...auth(await t.adminToken()), 'content-type': 'application/json' },
      payload: '{"full_name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(detailOf(response)).toBe('body: is not valid JSON');
  });

  it('refuses a JSON body over 1 MiB with 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/students/',
      headers: { ...auth(await t.adminToken()), 'content-type': 'application/json' },
      payload: JSON.stringify({ full_name: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(response.statusCode).toBe(413);
    expect(detailOf(response)).toBeTruthy();
  });
});
