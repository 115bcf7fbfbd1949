import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, testClient } from './helpers/client';
import { createStudent, detailOf } from './helpers/test-app';

/**
 * Security headers on the console's pages, the parent app, static files and every kind of API answer.
 * What helmet sends beyond our own settings is pinned here too, so a change is noticed:
 * X-Frame-Options DENY (as the CSP's frame-ancestors 'none', for browsers that only know the older
 * header), and Strict-Transport-Security max-age=31536000; includeSubDomains (browsers ignore it
 * over plain http; behind TLS it keeps the console on https).
 */

let api: TestClient;
let dist: string;
let backupDir: string;
let failWith: 'none' | 'crash' | 'whatsapp' = 'none';

beforeAll(async () => {
  // A tiny stand-in for the built console (apps/web/dist).
  dist = mkdtempSync(path.join(os.tmpdir(), 'tuitiondesk-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, 'parent'));
  writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><title>TuitionDesk</title><script src="/assets/x.js"></script>',
  );
  writeFileSync(path.join(dist, 'parent', 'index.html'), '<!doctype html><title>Parents</title>');
  writeFileSync(path.join(dist, 'assets', 'x.js'), 'console.log("console");');
  backupDir = mkdtempSync(path.join(os.tmpdir(), 'tuitiondesk-headers-backups-'));
  api = await testClient({
    config: { webDistDir: dist, backupDir },
    prepare: (ctx) => ({
      ...ctx,
      // On demand: WhatsApp fails (502), or a handler breaks while answering (500).
      whatsapp: {
        send: async () => {
          if (failWith === 'whatsapp') throw new Error('connection reset by the provider');
          return { providerMessageId: 'wamid.ok' };
        },
      },
      push: new Proxy(ctx.push, {
        get(target, property) {
          if (property === 'publicKey' && failWith === 'crash') throw new TypeError('unexpected bug in a handler');
          const value = Reflect.get(target, property, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
    }),
  });
});
afterAll(async () => {
  await api?.close();
  if (dist) rmSync(dist, { recursive: true, force: true });
  if (backupDir) rmSync(backupDir, { recursive: true, force: true });
});

function directives(response: LightMyRequestResponse): Map<string, string> {
  const policy = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')];
      }),
  );
}

/** The headers every answer carries, page or API. */
function expectSecurityHeaders(response: LightMyRequestResponse, what: string): void {
  const csp = directives(response);
  expect(csp.get('default-src'), `${what}: default-src`).toBe("'self'");
  expect(csp.get('frame-ancestors'), `${what}: frame-ancestors`).toBe("'none'");
  expect(csp.get('object-src'), `${what}: object-src`).toBe("'none'");
  expect(csp.get('base-uri'), `${what}: base-uri`).toBe("'self'");
  expect(csp.get('script-src'), `${what}: script-src`).toBe("'self'");
  expect(String(response.headers['content-security-policy']), `${what}: unsafe-eval`).not.toContain('unsafe-eval');
  expect(response.headers['x-content-type-options'], what).toBe('nosniff');
  expect(response.headers['referrer-policy'], what).toBe('no-referrer');
  expect(response.headers['x-frame-options'], what).toBe('DENY');
  expect(response.headers['strict-transport-security'], what).toBe('max-age=31536000; includeSubDomains');
  expect(response.headers['cross-origin-opener-policy'], what).toBe('same-origin');
  expect(response.headers['cross-origin-resource-policy'], what).toBe('same-origin');
  expect(response.headers['x-permitted-cross-domain-policies'], what).toBe('none');
  expect(response.headers['x-powered-by'], what).toBeUndefined();
}

describe("the console's pages and files", () => {
  it.each([
    ['/', 'text/html'],
    ['/login', 'text/html'],
    ['/students', 'text/html'],
    ['/parent/', 'text/html'],
    ['/parent/inbox', 'text/html'],
    ['/assets/x.js', 'javascript'],
  ])('%s carries the security headers', async (url, type) => {
    const response = await api.anonymous().get(url);
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['content-type'])).toContain(type);
    expectSecurityHeaders(response, url);
    // Pages are checked on every load; they are not API answers, so no no-store.
    if (type === 'text/html') expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('a missing file answers 404 with a detail and the same headers', async () => {
    const response = await api.anonymous().get('/assets/missing.js');
    expect(response.statusCode).toBe(404);
    expect(detailOf(response)).toBeTruthy();
    expectSecurityHeaders(response, '/assets/missing.js');
  });
});

describe('every kind of API answer: security headers, and Cache-Control no-store', () => {
  const cases: [string, () => Promise<LightMyRequestResponse>, number][] = [
    ['200 health', () => api.anonymous().get('/api/v1/health'), 200],
    ['200 me', async () => api.as('admin').get('/api/v1/auth/me'), 200],
    [
      '201 create',
      async () =>
        api.as('admin').post('/api/v1/students/', {
          full_name: 'Header Check',
          class_name: '7',
          parent_name: 'P',
          parent_phone: '+919812345678',
        }),
      201,
    ],
    ['200 binary template', async () => api.as('admin').get('/api/v1/import/students/template'), 200],
    ['200 OpenAPI document', () => api.anonymous().get('/api/openapi.json'), 200],
    ['401 no token', () => api.anonymous().get('/api/v1/auth/me'), 401],
    ['403 wrong role', async () => api.as('teacher').get('/api/v1/teachers/'), 403],
    ['404 unknown endpoint', async () => api.as('admin').get('/api/v1/nowhere'), 404],
    ['404 unknown id', async () => api.as('admin').get('/api/v1/students/999999'), 404],
    [
      '400 malformed JSON',
      async () =>
        api.as('admin').post('/api/v1/students/', '{"full_name":', { headers: { 'content-type': 'application/json' } }),
      400,
    ],
    [
      '413 body too large',
      async () =>
        api.as('admin').post('/api/v1/students/', JSON.stringify({ full_name: 'x'.repeat(1024 * 1024 + 10) }), {
          headers: { 'content-type': 'application/json' },
        }),
      413,
    ],
    [
      '404 path segment too long for a route (the console takes every GET)',
      async () => api.as('admin').get(`/api/v1/students/${'9'.repeat(200)}`),
      404,
    ],
    [
      '415 unsupported content type',
      async () =>
        api.as('admin').post('/api/v1/students/', '<student/>', { headers: { 'content-type': 'application/xml' } }),
      415,
    ],
    [
      '422 invalid field',
      async () =>
        api.as('admin').post('/api/v1/students/', {
          full_name: 'X',
          class_name: '11',
          parent_name: 'P',
          parent_phone: '+919812345678',
        }),
      422,
    ],
    ['422 NUL character', async () => api.as('admin').get('/api/v1/attendance/history/page?search=a%00b'), 422],
  ];

  it.each(cases)('%s', async (what, send, status) => {
    const response = await send();
    expect(response.statusCode, response.body.slice(0, 200)).toBe(status);
    expect(response.headers['cache-control'], what).toBe('no-store');
    expectSecurityHeaders(response, what);
    if (status >= 400) expect(detailOf(response)).toBeTruthy();
  });

  // Refused by the router itself, before any hook: plugins/input-guards.ts frameworkErrors sets the headers.
  it.each([
    ['400 malformed %-escape in the path', 'GET', '/api/v1/students/%E0%A4%A', 400],
    ['414 path segment too long', 'POST', `/api/v1/students/${'9'.repeat(200)}/parent-access`, 414],
  ] as const)('%s', async (_what, method, url, status) => {
    const response = await api.as('admin').request(method, url);
    expect(response.statusCode).toBe(status);
    expect(detailOf(response)).toBeTruthy();
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-frame-options']).toBe('DENY');
    const csp = directives(response);
    expect(csp.get('default-src')).toBe("'none'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
  });

  it('429 too many sign-in attempts', async () => {
    let response: LightMyRequestResponse | undefined;
    for (let i = 0; i < 6; i += 1) {
      response = await api.anonymous().post('/api/v1/auth/login', undefined, {
        form: { username: 'header-check', password: 'wrong' },
        remoteAddress: '10.77.0.1',
      });
    }
    expect(response?.statusCode).toBe(429);
    expect(response?.headers['cache-control']).toBe('no-store');
    expect(response?.headers['retry-after']).toBeTruthy();
    expectSecurityHeaders(response as LightMyRequestResponse, '429');
  });

  it('5xx: a bug in a handler (500) and an upstream failure (502) keep the headers and hide the internals', async () => {
    const admin = await api.adminToken();
    const phone = '+919812300001';
    // The family agreed to WhatsApp, so the send gets as far as WhatsApp itself.
    const student = await createStudent(api.app, admin, { parent_phone: phone, parent_whatsapp_opt_in: true });
    await api.db.query("INSERT INTO parent_access (phone, code_hash, issued_by) VALUES ($1, 'x', 'Admin')", [phone]);
    const parent = await api.ctx.tokens.signParent({ phone, tokenVersion: 0 });
    try {
      failWith = 'crash';
      const crashed = await api.withToken(parent).get('/api/v1/parent/push/public-key');
      expect(crashed.statusCode).toBe(500);
      expect(crashed.json()).toEqual({ detail: 'Internal server error', code: 'server.internal' });
      expect(crashed.headers['cache-control']).toBe('no-store');
      expectSecurityHeaders(crashed, '500');

      failWith = 'whatsapp';
      const upstream = await api
        .withToken(admin)
        .post('/api/v1/communications/send-whatsapp', { student_id: student.id, message: 'Hello' });
      expect(upstream.statusCode).toBe(502);
      expect(detailOf(upstream)).not.toMatch(/connection reset/);
      expect(upstream.headers['cache-control']).toBe('no-store');
      expectSecurityHeaders(upstream, '502');
    } finally {
      failWith = 'none';
    }
    expect((await api.withToken(parent).get('/api/v1/parent/push/public-key')).statusCode).toBe(200);
  });

  it('the API reference pages keep frame-ancestors and no-store', async () => {
    const response = await api.anonymous().get('/api/docs/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const csp = directives(response);
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(csp.get('default-src')).toBe("'self'");
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(String(response.headers['content-security-policy'])).not.toContain('unsafe-eval');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
