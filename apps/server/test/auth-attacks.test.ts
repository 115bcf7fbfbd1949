import { createHmac, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  admin,
  adminId,
  api,
  attackedApp,
  get,
  postLogin,
  secret,
  signedInTeacher,
  teacher,
} from './helpers/auth-attacks';
import { freshAddress } from './helpers/client';
import { ADMIN_PASSWORD, createStudent, detailOf, familyWithCode, uniquePhone } from './helpers/test-app';

/**
 * Hostile use of sign-in and tokens: forged and stale tokens, brute force, and roles
 * (ASVS 6.3.1 no permanent lockout; 8.2.1-8.2.3 function- and data-level access). Tokens are built
 * by hand (node:crypto, base64url) with the claims of src/lib/tokens.ts: sub, ver, aud, iat, exp.
 */

// Roles on every operation and mass assignment: auth-attacks-roles.test.ts.
attackedApp();

// ---- Hand-made JWTs ----

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function hmac(algorithm: 'sha256' | 'sha384' | 'sha512', key: string, input: string): string {
  return createHmac(algorithm, key).update(input).digest('base64url');
}

const now = () => Math.floor(Date.now() / 1000);

/** A token as the server signs one (HS256 over the shared secret), with any header and claims. */
function forge(
  claims: Record<string, unknown>,
  options: { header?: Record<string, unknown>; sign?: 'sha256' | 'sha384' | 'sha512' | 'none'; key?: string } = {},
): string {
  const header = options.header ?? { alg: 'HS256', typ: 'JWT' };
  const input = `${b64(header)}.${b64(claims)}`;
  if (options.sign === 'none') return `${input}.`;
  return `${input}.${hmac(options.sign ?? 'sha256', options.key ?? secret, input)}`;
}

function staffClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { sub: String(adminId), ver: 0, aud: 'tuitiondesk-staff', iat: now(), exp: now() + 3600, ...overrides };
}

async function expect401(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(401);
  expect(detailOf(response)).toBeTruthy();
  expect(response.headers['www-authenticate']).toBe('Bearer');
  expect(response.headers['cache-control']).toBe('no-store');
}

describe('forged, stale and foreign tokens', () => {
  it('a hand-built HS256 token with the right claims is accepted (so every refusal below is about the one change)', async () => {
    const version = (
      await api.db.query<{ token_version: number }>('SELECT token_version FROM users WHERE id = $1', [adminId])
    )[0];
    const response = await get('/api/v1/auth/me', forge(staffClaims({ ver: version?.token_version })));
    expect(response.statusCode).toBe(200);
    expect(response.json().username).toBe('admin');
  });

  const forgeries: [string, () => string][] = [
    ['alg none, no signature', () => forge(staffClaims(), { header: { alg: 'none', typ: 'JWT' }, sign: 'none' })],
    ['alg "None", no signature', () => forge(staffClaims(), { header: { alg: 'None' }, sign: 'none' })],
    [
      'alg none, with a valid HS256 signature kept',
      () => {
        const good = forge(staffClaims()).split('.');
        return `${b64({ alg: 'none', typ: 'JWT' })}.${good[1]}.${good[2]}`;
      },
    ],
    [
      'HS512 signed with the real secret',
      () => forge(staffClaims(), { header: { alg: 'HS512', typ: 'JWT' }, sign: 'sha512' }),
    ],
    [
      'HS384 signed with the real secret',
      () => forge(staffClaims(), { header: { alg: 'HS384', typ: 'JWT' }, sign: 'sha384' }),
    ],
    [
      'RS256 header, HMAC-signed with the secret (algorithm confusion)',
      () => forge(staffClaims(), { header: { alg: 'RS256', typ: 'JWT' } }),
    ],
    [
      'RS256 header, random signature',
      () => `${b64({ alg: 'RS256' })}.${b64(staffClaims())}.${randomBytes(256).toString('base64url')}`,
    ],
    [
      'ES256 header, random signature',
      () => `${b64({ alg: 'ES256' })}.${b64(staffClaims())}.${randomBytes(64).toString('base64url')}`,
    ],
    ['signed with another secret', () => forge(staffClaims(), { key: randomBytes(32).toString('base64url') })],
    [
      'an embedded jwk header and the attacker’s own key',
      () =>
        forge(staffClaims(), {
          header: { alg: 'HS256', jwk: { kty: 'oct', k: Buffer.from('attacker').toString('base64url') } },
          key: 'attacker',
        }),
    ],
    [
      'a crit header the server does not understand',
      () => forge(staffClaims(), { header: { alg: 'HS256', crit: ['exp-plus'], 'exp-plus': 1 } }),
    ],
    [
      'signature flipped',
      () => {
        const token = forge(staffClaims());
        const last = token.at(-2) === 'A' ? 'B' : 'A';
        return `${token.slice(0, -2)}${last}${token.at(-1)}`;
      },
    ],
    [
      "a teacher's signature on the admin's claims",
      () => {
        const [header, , signature] = teacher.token.split('.');
        return `${header}.${b64(staffClaims())}.${signature}`;
      },
    ],
    ['expired', () => forge(staffClaims({ iat: now() - 7200, exp: now() - 60 }))],
    ['no exp', () => forge(staffClaims({ exp: undefined }))],
    ['not yet valid (nbf in an hour)', () => forge(staffClaims({ nbf: now() + 3600 }))],
    ['audience of the parent app, for a staff user id', () => forge(staffClaims({ aud: 'tuitiondesk-receipt' }))],
    ['another audience', () => forge(staffClaims({ aud: 'some-other-service' }))],
    ['no audience', () => forge(staffClaims({ aud: undefined }))],
    ['no ver', () => forge(staffClaims({ ver: undefined }))],
    ['an old ver', () => forge(staffClaims({ ver: -1 }))],
    ['sub not a number', () => forge(staffClaims({ sub: 'admin' }))],
    ['sub of nobody', () => forge(staffClaims({ sub: '2000000000' }))],
    ['no sub', () => forge(staffClaims({ sub: undefined }))],
    ['sub past the id column (a phone number)', () => forge(staffClaims({ sub: '919876543210' }))],
    ['sub as a number, not a string', () => forge(staffClaims({ sub: adminId }))],
    ['sub in exponent form', () => forge(staffClaims({ sub: '1e0' }))],
    ['garbage', () => 'not-a-token'],
    ['three empty parts', () => '..'],
    ['a JWT with a broken header', () => `eyJhbGciOi.${b64(staffClaims())}.sig`],
    ['a huge token', () => `${'a'.repeat(60_000)}.${'b'.repeat(60_000)}.c`],
  ];

  it.each(forgeries)('refuses %s with 401 on a staff call and an admin call', async (_name, build) => {
    const token = build();
    await expect401(await get('/api/v1/auth/me', token));
    await expect401(await get('/api/v1/teachers/', token));
  });

  it.each([
    ['no Authorization header', {}],
    ['another scheme', { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` }],
    ['Bearer and nothing', { authorization: 'Bearer ' }],
    ['two tokens', { authorization: 'Bearer a.b.c d.e.f' }],
    ['the token in a cookie', { cookie: 'access_token=x' }],
  ])('refuses %s with 401', async (_name, headers) => {
    await expect401(await get('/api/v1/auth/me', undefined, headers as Record<string, string>));
  });

  it('answers a parent token on staff calls with 403 (existing behaviour), a staff token on parent calls with 403', async () => {
    const phone = uniquePhone();
    await createStudent(api.app, admin, { parent_phone: phone });
    await api.db.query("INSERT INTO parent_access (phone, code_hash, issued_by) VALUES ($1, 'x', 'Admin')", [phone]);
    const parentToken = await api.ctx.tokens.signParent({ phone, tokenVersion: 0 });
    const onStaff = await get('/api/v1/auth/me', parentToken);
    expect(onStaff.statusCode).toBe(403);
    expect(detailOf(onStaff)).toBe('A parent sign-in cannot use the staff console');
    const onParent = await get('/api/v1/parent/me', admin);
    expect(onParent.statusCode).toBe(403);
    expect(detailOf(onParent)).toBe('This is for parents: staff use the console');
    expect((await get('/api/v1/parent/me', parentToken)).statusCode).toBe(200);
    // A parent token forged with the staff audience and a phone as subject is no staff token.
    await expect401(await get('/api/v1/auth/me', forge(staffClaims({ sub: phone }))));
  });

  it('ends a token issued before a password change (token_version)', async () => {
    const someone = await signedInTeacher();
    const changed = await api
      .withToken(someone.token)
      .post('/api/v1/auth/change-password', { current_password: someone.password, new_password: 'a-new-password-9' });
    expect(changed.statusCode).toBe(200);
    await expect401(await get('/api/v1/auth/me', someone.token));
    expect((await get('/api/v1/auth/me', changed.json().access_token)).statusCode).toBe(200);
  });

  it('ends the token of a deleted user', async () => {
    const someone = await signedInTeacher();
    expect((await get('/api/v1/auth/me', someone.token)).statusCode).toBe(200);
    const deleted = await api.withToken(admin).delete(`/api/v1/teachers/${someone.id}`);
    expect(deleted.statusCode).toBe(200);
    await expect401(await get('/api/v1/auth/me', someone.token));
    await expect401(await get('/api/v1/students/', someone.token));
  });
});

describe('brute force (ASVS 6.3.1: slowed, refused, never locked out for good)', () => {
  it('blocks one address trying many usernames, lets the real user in from elsewhere, and ends the block', async () => {
    const attacker = '203.0.113.50';
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1)
      statuses.push((await postLogin(`guess-${i}`, 'wrong-password', attacker)).statusCode);
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);

    // From that address even the right password is refused while the block lasts ...
    const blocked = await postLogin('admin', ADMIN_PASSWORD, attacker);
    expect(blocked.statusCode).toBe(429);
    expect(detailOf(blocked)).toMatch(/^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(blocked.headers['cache-control']).toBe('no-store');
    // ... and a forged X-Forwarded-For does not move it to another address (the proxy is not trusted).
    const spoofed = await postLogin('admin', ADMIN_PASSWORD, attacker, { 'x-forwarded-for': '198.51.100.77' });
    expect(spoofed.statusCode).toBe(429);

    // The real user, from their own address, is not locked out by someone else's guessing.
    expect((await postLogin('admin', ADMIN_PASSWORD)).statusCode).toBe(200);

    // Time passes (the clock moved in the database): the address may sign in again.
    await api.db.query("UPDATE login_throttle SET blocked_until = now() - interval '1 second' WHERE key = $1", [
      `ip:${attacker}`,
    ]);
    expect((await postLogin('admin', ADMIN_PASSWORD, attacker)).statusCode).toBe(200);
  });

  it('blocks one username tried from one address, never from the others, and lets the real user back in once the block ends', async () => {
    const victim = await signedInTeacher();
    const attacker = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await postLogin(victim.username, `wrong-${i}`, attacker)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Case does not dodge it, and neither does the right password while it lasts.
    const upper = await postLogin(victim.username.toUpperCase(), victim.password, attacker);
    expect(upper.statusCode).toBe(429);
    expect(Number(upper.headers['retry-after'])).toBeGreaterThan(0);
    // Failures spread over many addresses do not block the account (ASVS 6.3.1; sign-in-throttle.test.ts).
    for (let i = 0; i < 6; i += 1) expect((await postLogin(victim.username, `spread-${i}`)).statusCode).toBe(401);
    expect((await postLogin(victim.username, victim.password)).statusCode).toBe(200);

    await api.db.query("UPDATE login_throttle SET blocked_until = now() - interval '1 second' WHERE key = $1", [
      `pw:user:${victim.userId}@${attacker}`,
    ]);
    const back = await postLogin(victim.username, victim.password, attacker);
    expect(back.statusCode).toBe(200);
    // A success clears the count: one more mistake is a plain 401, not a new block.
    expect((await postLogin(victim.username, 'wrong-again', attacker)).statusCode).toBe(401);
  });

  it('caps the block at 15 minutes however many failures there were', async () => {
    const from = freshAddress();
    const key = `pw:name:long-attacked@${from}`;
    await api.db.query(
      `INSERT INTO login_throttle (key, failures, last_failure_at, blocked_until)
       VALUES ($1, 500, now(), now() - interval '1 second')`,
      [key],
    );
    expect((await postLogin('long-attacked', 'wrong', from)).statusCode).toBe(401);
    const blocked = await postLogin('long-attacked', 'wrong', from);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    const rows = await api.db.query<{ over: boolean }>(
      "SELECT blocked_until > now() + interval '15 minutes 5 seconds' AS over FROM login_throttle WHERE key = $1",
      [key],
    );
    expect(rows[0]?.over).toBe(false);
  });

  it('throttles parent sign-in too: wrong codes for one phone from one address end in 429', async () => {
    const { phone } = await familyWithCode(api.app, admin);
    const attacker = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await api
        .anonymous()
        .post('/api/v1/parent/login', { phone, code: `ZZZZ-ZZZ${i}` }, { remoteAddress: attacker });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
  });
});

// ---- Roles, on every operation of the OpenAPI document ----
