import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/lib/passwords';
import { base32Decode, totp } from '../src/modules/auth/two-factor/totp';
import { enrol as enrolAuthenticator, freshCode as freshAuthenticatorCode, wrongCode } from './helpers/authenticator';
import { freshAddress, type TestClient, testClient } from './helpers/client';
import { ADMIN_PASSWORD, detailOf, login, signInNewTeacher } from './helpers/test-app';

let api: TestClient;
let admin: string;
beforeAll(async () => {
  api = await testClient();
  admin = await api.adminToken();
});
afterAll(async () => {
  await api?.close();
});

const ENTER_CODE = 'Enter the 6-digit code from your authenticator app';
const WRONG_CODE = 'That code is not right. Enter the current code from your authenticator app, or a recovery code.';
const ENROL_FIRST = 'Set up two-factor sign-in to continue';

/** Each sign-in from its own address unless one is given, so the per-address throttle stays out of the way. */
function postLogin(fields: Record<string, string>, ip?: string): Promise<LightMyRequestResponse> {
  return api.anonymous().post('/api/v1/auth/login', undefined, { form: fields, remoteAddress: ip ?? freshAddress() });
}

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: object) {
  return (token ? api.withToken(token) : api.anonymous()).request(method, `/api/v1${url}`, payload);
}

interface Account {
  id: number;
  username: string;
  password: string;
  token: string;
}

let teacherCounter = 0;
/** A teacher with a password of their own and a fresh token. */
async function newTeacher(fields: Record<string, unknown> = {}): Promise<Account> {
  teacherCounter += 1;
  return signInNewTeacher(api.app, api.db, admin, { first_name: 'Tara', last_name: `Two${teacherCounter}`, ...fields });
}

/** Another admin account, made directly in the database (the API makes only teachers). */
async function newAdmin(username: string, password: string): Promise<Account> {
  const [row] = await api.db.query<{ id: number }>(
    `INSERT INTO users (username, full_name, role, password_hash) VALUES ($1, $2, 'admin', $3) RETURNING id`,
    [username, `Admin ${username}`, await hashPassword(password)],
  );
  return { id: row?.id as number, username, password, token: await login(api.app, username, password) };
}

/** Sets up and confirms an authenticator for the account; answers its secret and recovery codes. */
/** Turning it on ends the account's other sessions: the account goes on with the token the answer carries. */
async function enrol(account: { token: string }): Promise<{ secret: Buffer; recoveryCodes: string[] }> {
  const enrolled = await enrolAuthenticator(api.app, account.token);
  account.token = enrolled.token;
  return enrolled;
}

const freshCode = (userId: number, secret: Buffer) => freshAuthenticatorCode(api.db, userId, secret);

async function lastActivity(action: string): Promise<{ description: string; user_id: number } | undefined> {
  const [row] = await api.db.query<{ description: string; user_id: number }>(
    'SELECT description, user_id FROM activities WHERE action = $1 ORDER BY id DESC LIMIT 1',
    [action],
  );
  return row;
}

describe('setting up an authenticator', () => {
  it('answers 401 without a token on every two-factor call', async () => {
    for (const [method, url] of [
      ['GET', '/auth/two-factor'],
      ['POST', '/auth/two-factor/setup'],
      ['POST', '/auth/two-factor/confirm'],
      ['POST', '/auth/two-factor/disable'],
      ['DELETE', '/auth/two-factor/users/1'],
      ['GET', '/settings/two-factor'],
      ['PUT', '/settings/two-factor'],
    ] as const) {
      const response = await call(method, url, undefined, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect({ url, status: response.statusCode }).toEqual({ url, status: 401 });
      expect(detailOf(response)).toBeTruthy();
    }
  });

  it('walks a teacher through setup, one code to confirm and ten recovery codes shown once', async () => {
    const teacher = await newTeacher();
    const before = await call('GET', '/auth/two-factor', teacher.token);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({
      enabled: false,
      enabled_at: null,
      setup_pending: false,
      recovery_codes_left: 0,
      required: false,
      required_for_admins: false,
    });
    const early = await call('POST', '/auth/two-factor/confirm', teacher.token, { otp: '123456' });
    expect(early.statusCode).toBe(409);
    expect(detailOf(early)).toMatch(/^Start the setup first/);

    const first = await call('POST', '/auth/two-factor/setup', teacher.token);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauth_uri).toBe(
      `otpauth://totp/TuitionDesk:${teacher.username}?secret=${body.secret}&issuer=TuitionDesk&algorithm=SHA1&digits=6&period=30`,
    );
    expect(body).toMatchObject({ digits: 6, period: 30 });
    expect(body.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(body.qr_code.split(',')[1], 'base64').toString()).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const [row] = await api.db.query<{ secret_encrypted: string; confirmed_at: string | null }>(
      'SELECT secret_encrypted, confirmed_at FROM user_two_factor WHERE user_id = $1',
      [teacher.id],
    );
    expect(row?.confirmed_at).toBeNull();
    expect(row?.secret_encrypted).not.toContain(body.secret);
    expect((await call('GET', '/auth/two-factor', teacher.token)).json()).toMatchObject({
      enabled: false,
      setup_pending: true,
    });
    // Not confirmed: sign-in does not ask for a code yet.
    expect((await postLogin({ username: teacher.username, password: teacher.password })).statusCode).toBe(200);

    // A second setup replaces the first: the first secret's codes no longer confirm.
    const second = await call('POST', '/auth/two-factor/setup', teacher.token);
    const oldSecret = base32Decode(body.secret) as Buffer;
    const secret = base32Decode(second.json().secret) as Buffer;
    expect(second.json().secret).not.toBe(body.secret);
    const stale = await call('POST', '/auth/two-factor/confirm', teacher.token, { otp: totp(oldSecret, Date.now()) });
    expect(stale.statusCode).toBe(400);
    expect(detailOf(stale)).toMatch(/^That code is not right/);

    for (const [payload, detail] of [
      [{}, 'otp: is required'],
      [{ otp: '' }, 'otp: is required'],
      [{ otp: '12345' }, 'otp: must be the 6-digit code from your authenticator app'],
      [{ otp: 'abcdef' }, 'otp: must be the 6-digit code from your authenticator app'],
      [{ otp: 123456 }, expect.stringMatching(/^otp: /)],
    ] as const) {
      const invalid = await call('POST', '/auth/two-factor/confirm', teacher.token, payload);
      expect(invalid.statusCode).toBe(422);
      expect(detailOf(invalid)).toEqual(detail);
    }
    expect((await call('POST', '/auth/two-factor/confirm', teacher.token, { otp: wrongCode(secret) })).statusCode).toBe(
      400,
    );

    const code = totp(secret, Date.now());
    const confirmed = await call('POST', '/auth/two-factor/confirm', teacher.token, {
      otp: `${code.slice(0, 3)} ${code.slice(3)}`,
    });
    expect(confirmed.statusCode).toBe(200);
    teacher.token = confirmed.json().access_token;
    const codes: string[] = confirmed.json().recovery_codes;
    expect(confirmed.json().message).toMatch(/recovery codes/);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    const stored = await api.db.query<{ code_hash: string; used_at: string | null }>(
      'SELECT code_hash, used_at FROM two_factor_recovery_codes WHERE user_id = $1',
      [teacher.id],
    );
    expect(stored).toHaveLength(10);
    for (const s of stored) {
      expect(s.code_hash).toMatch(/^v2\.[0-9a-f]{64}$/); // keyed (ADR 017)
      expect(s.used_at).toBeNull();
      expect(codes.map((c) => c.replace('-', ''))).not.toContain(s.code_hash);
    }
    expect(await lastActivity('two_factor.enabled')).toMatchObject({
      user_id: teacher.id,
      description: expect.stringMatching(/turned on two-factor sign-in$/),
    });

    // Once on: no second setup, no second confirmation, and the codes are never shown again.
    const again = await call('POST', '/auth/two-factor/setup', teacher.token);
    expect(again.statusCode).toBe(409);
    expect(detailOf(again)).toMatch(/already on/);
    expect((await call('POST', '/auth/two-factor/confirm', teacher.token, { otp: code })).statusCode).toBe(409);
    const status = await call('GET', '/auth/two-factor', teacher.token);
    expect(status.json()).toMatchObject({ enabled: true, setup_pending: false, recovery_codes_left: 10 });
    expect(status.json().enabled_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(status.body).not.toMatch(/[0-9A-Z]{5}-[0-9A-Z]{5}/);
    const me = await call('GET', '/auth/me', teacher.token);
    expect(me.json()).toMatchObject({ two_factor_enabled: true, must_enrol_two_factor: false });
  });
});

describe('signing in with two-factor', () => {
  let teacher: Account;
  let secret: Buffer;
  let recoveryCodes: string[];
  beforeAll(async () => {
    teacher = await newTeacher({ email: 'two.factor@example.com' });
    ({ secret, recoveryCodes } = await enrol(teacher));
  });

  it('asks for the code when the password is right: 401 with a detail and otp_required', async () => {
    const response = await postLogin({ username: teacher.username, password: teacher.password });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: ENTER_CODE, code: 'auth.otp_required', otp_required: true });
    expect(response.headers['www-authenticate']).toBe('Bearer');
    const blank = await postLogin({ username: teacher.username, password: teacher.password, otp: '  ' });
    expect(blank.json()).toEqual({ detail: ENTER_CODE, code: 'auth.otp_required', otp_required: true });
  });

  it('answers a wrong password as before, with or without a code, and never says a code is needed', async () => {
    for (const fields of [{}, { otp: totp(secret, Date.now()) }] as Record<string, string>[]) {
      const response = await postLogin({ username: teacher.username, password: 'not-the-password', ...fields });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: 'Incorrect username or password', code: 'auth.incorrect_credentials' });
    }
  });

  it('refuses a wrong code with 401 and otp_required, takes the right one, and never the same one twice', async () => {
    const wrong = await postLogin({ username: teacher.username, password: teacher.password, otp: wrongCode(secret) });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: WRONG_CODE, code: 'two_factor.wrong_code', otp_required: true });

    const code = await freshCode(teacher.id, secret);
    const right = await postLogin({ username: teacher.username, password: teacher.password, otp: code });
    expect(right.statusCode).toBe(200);
    expect(right.json().user).toMatchObject({ username: teacher.username, two_factor_enabled: true });
    const me = await call('GET', '/auth/me', right.json().access_token);
    expect(me.statusCode).toBe(200);

    const replayed = await postLogin({ username: teacher.username, password: teacher.password, otp: code });
    expect(replayed.statusCode).toBe(401);
    expect(detailOf(replayed)).toBe(WRONG_CODE);

    // Two sign-ins racing with one fresh code: exactly one gets in.
    const raced = await freshCode(teacher.id, secret);
    const both = await Promise.all(
      [1, 2].map(() => postLogin({ username: teacher.username, password: teacher.password, otp: raced })),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('takes a code with a space, and under the email on the teacher record', async () => {
    const code = await freshCode(teacher.id, secret);
    const spaced = await postLogin({
      username: 'TWO.FACTOR@example.com',
      password: teacher.password,
      otp: `${code.slice(0, 3)} ${code.slice(3)}`,
    });
    expect(spaced.statusCode).toBe(200);
  });

  it('takes each recovery code once, in any case and without the dash, and says how many are left', async () => {
    const recovery = recoveryCodes[0] as string;
    const typed = recovery.toLowerCase().replace('-', '');
    const first = await postLogin({ username: teacher.username, password: teacher.password, otp: typed });
    expect(first.statusCode).toBe(200);
    const again = await postLogin({ username: teacher.username, password: teacher.password, otp: recovery });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ detail: WRONG_CODE, code: 'two_factor.wrong_code', otp_required: true });
    expect(await lastActivity('auth.recovery_code_used')).toMatchObject({
      user_id: teacher.id,
      description: expect.stringMatching(/signed in with a recovery code \(9 recovery codes left\)$/),
    });
    expect((await call('GET', '/auth/two-factor', teacher.token)).json().recovery_codes_left).toBe(9);
    const second = await postLogin({
      username: teacher.username,
      password: teacher.password,
      otp: recoveryCodes[1] as string,
    });
    expect(second.statusCode).toBe(200);
  });

  it('names a code that is far too long in a 422', async () => {
    const response = await postLogin({ username: teacher.username, password: teacher.password, otp: '1'.repeat(40) });
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toBe('otp: is too long');
  });
});

describe('throttling wrong codes', () => {
  it('blocks after five wrong codes with 429 and retry-after, even for the right code; the block ends', async () => {
    const teacher = await newTeacher();
    const { secret } = await enrol(teacher);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await postLogin({
        username: teacher.username,
        password: teacher.password,
        otp: wrongCode(secret),
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const blocked = await postLogin({
      username: teacher.username,
      password: teacher.password,
      otp: await freshCode(teacher.id, secret),
    });
    expect(blocked.statusCode).toBe(429);
    expect(detailOf(blocked)).toMatch(/^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    await api.db.query("UPDATE login_throttle SET blocked_until = now() - interval '1 second'");
    const back = await postLogin(
      { username: teacher.username, password: teacher.password, otp: await freshCode(teacher.id, secret) },
      '10.6.251.1',
    );
    expect(back.statusCode).toBe(200);
    // The address that signed in starts afresh; guesses made from elsewhere are not forgiven by it.
    const left = await api.db.query<{ key: string }>(
      'SELECT key FROM login_throttle WHERE key LIKE $1 AND failures > 0',
      [`%:user:${teacher.id}%`],
    );
    expect(left.some((row) => row.key.endsWith('@10.6.251.1'))).toBe(false);
    expect(left.map((row) => row.key)).toContain(`otp:user:${teacher.id}`);
  });

  it('counts wrong codes per account, so alternating username and email does not get more guesses', async () => {
    const teacher = await newTeacher({ email: 'alternating@example.com' });
    const { secret } = await enrol(teacher);
    for (let i = 0; i < 5; i += 1) {
      const username = i % 2 === 0 ? teacher.username : 'alternating@example.com';
      const response = await postLogin({ username, password: teacher.password, otp: wrongCode(secret) });
      expect(response.statusCode).toBe(401);
    }
    for (const username of [teacher.username, 'alternating@example.com']) {
      const response = await postLogin({
        username,
        password: teacher.password,
        otp: await freshCode(teacher.id, secret),
      });
      expect(response.statusCode).toBe(429);
    }
    await api.db.query("UPDATE login_throttle SET blocked_until = now() - interval '1 second'");
  });

  it('does not count asking for the code as a failure', async () => {
    const teacher = await newTeacher();
    await enrol(teacher);
    for (let i = 0; i < 7; i += 1) {
      expect((await postLogin({ username: teacher.username, password: teacher.password })).statusCode).toBe(401);
    }
    const rows = await api.db.query('SELECT key FROM login_throttle WHERE key LIKE $1 AND failures > 0', [
      `%:user:${teacher.id}%`,
    ]);
    expect(rows).toEqual([]);
  });
});

describe('turning two-factor sign-in off', () => {
  it('needs the password and a code; wrong ones are 400; then sign-in asks for no code', async () => {
    const teacher = await newTeacher();
    const notOn = await call('POST', '/auth/two-factor/disable', teacher.token, {
      current_password: teacher.password,
      otp: '123456',
    });
    expect(notOn.statusCode).toBe(409);
    expect(detailOf(notOn)).toBe('Two-factor sign-in is not on for your account');

    const { secret, recoveryCodes } = await enrol(teacher);
    for (const [payload, detail] of [
      [{ otp: '123456' }, 'current_password: is required'],
      [{ current_password: teacher.password }, 'otp: is required'],
      [{ current_password: teacher.password, otp: 'x'.repeat(33) }, 'otp: is too long'],
    ] as const) {
      const invalid = await call('POST', '/auth/two-factor/disable', teacher.token, payload);
      expect(invalid.statusCode).toBe(422);
      expect(detailOf(invalid)).toBe(detail);
    }
    const wrongPassword = await call('POST', '/auth/two-factor/disable', teacher.token, {
      current_password: 'wrong-password',
      otp: await freshCode(teacher.id, secret),
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(detailOf(wrongPassword)).toBe('Current password is incorrect');
    const wrong = await call('POST', '/auth/two-factor/disable', teacher.token, {
      current_password: teacher.password,
      otp: wrongCode(secret),
    });
    expect(wrong.statusCode).toBe(400);
    expect(detailOf(wrong)).toBe(WRONG_CODE);
    expect((await call('GET', '/auth/two-factor', teacher.token)).json().enabled).toBe(true);

    const off = await call('POST', '/auth/two-factor/disable', teacher.token, {
      current_password: teacher.password,
      otp: recoveryCodes[3] as string,
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({
      message: 'Two-factor sign-in is off.',
      access_token: expect.any(String),
      token_type: 'bearer',
    });
    teacher.token = off.json().access_token;
    expect(await api.db.query('SELECT 1 FROM user_two_factor WHERE user_id = $1', [teacher.id])).toEqual([]);
    expect(await api.db.query('SELECT 1 FROM two_factor_recovery_codes WHERE user_id = $1', [teacher.id])).toEqual([]);
    expect(await lastActivity('two_factor.disabled')).toMatchObject({ user_id: teacher.id });
    expect((await postLogin({ username: teacher.username, password: teacher.password })).statusCode).toBe(200);
    expect((await call('GET', '/auth/me', teacher.token)).json().two_factor_enabled).toBe(false);
  });

  it('throttles wrong passwords and codes per account', async () => {
    const teacher = await newTeacher();
    const { secret } = await enrol(teacher);
    for (let i = 0; i < 5; i += 1) {
      const response = await call('POST', '/auth/two-factor/disable', teacher.token, {
        current_password: teacher.password,
        otp: wrongCode(secret),
      });
      expect(response.statusCode).toBe(400);
    }
    const blocked = await call('POST', '/auth/two-factor/disable', teacher.token, {
      current_password: teacher.password,
      otp: await freshCode(teacher.id, secret),
    });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    await api.db.query("UPDATE login_throttle SET blocked_until = now() - interval '1 second'");
  });
});

describe('an admin resets another account', () => {
  it('removes the authenticator of a teacher who lost it; teachers cannot, nor can an admin reset their own', async () => {
    const teacher = await newTeacher();
    const notEnrolled = await call('DELETE', `/auth/two-factor/users/${teacher.id}`, admin);
    expect(notEnrolled.statusCode).toBe(409);
    // The teachers list tells the admin whose account has an authenticator, and which account it is.
    const listed = async () =>
      ((await call('GET', '/teachers/', admin)).json() as { user_id: number; two_factor_enabled: boolean }[]).find(
        (row) => row.user_id === teacher.id,
      );
    expect(await listed()).toMatchObject({ two_factor_enabled: false });
    await enrol(teacher);
    expect(await listed()).toMatchObject({ two_factor_enabled: true });
    expect((await call('DELETE', `/auth/two-factor/users/${teacher.id}`, teacher.token)).statusCode).toBe(403);
    expect((await call('DELETE', '/auth/two-factor/users/999999', admin)).statusCode).toBe(404);
    expect((await call('DELETE', '/auth/two-factor/users/abc', admin)).statusCode).toBe(422);
    const [adminRow] = await api.db.query<{ id: number }>("SELECT id FROM users WHERE username = 'admin'");
    const own = await call('DELETE', `/auth/two-factor/users/${adminRow?.id}`, admin);
    expect(own.statusCode).toBe(409);

    const reset = await call('DELETE', `/auth/two-factor/users/${teacher.id}`, admin);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toMatch(/^Two-factor sign-in reset for /);
    expect(await lastActivity('two_factor.reset')).toMatchObject({
      description: expect.stringMatching(/reset two-factor sign-in for Tara Two\d+$/),
    });
    expect((await postLogin({ username: teacher.username, password: teacher.password })).statusCode).toBe(200);
    expect(await listed()).toMatchObject({ two_factor_enabled: false });
    // Whoever held a session of the teacher's (perhaps with the lost phone) is signed out; the admin is not.
    expect((await call('GET', '/auth/me', teacher.token)).statusCode).toBe(401);
    expect((await call('GET', '/auth/me', admin)).statusCode).toBe(200);
  });
});

describe('changing two-factor sign-in ends the account’s other sessions', () => {
  it('turning it on: every other session ends, this one goes on with the new token', async () => {
    const teacher = await newTeacher();
    const elsewhere = await login(api.app, teacher.username, teacher.password);
    const before = teacher.token;
    const setup = await call('POST', '/auth/two-factor/setup', before);
    const secret = base32Decode(setup.json().secret) as Buffer;
    const confirmed = await call('POST', '/auth/two-factor/confirm', before, { otp: totp(secret, Date.now()) });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ access_token: expect.any(String), token_type: 'bearer' });
    expect((await call('GET', '/auth/me', elsewhere)).statusCode).toBe(401);
    expect((await call('GET', '/auth/me', before)).statusCode).toBe(401);
    const me = await call('GET', '/auth/me', confirmed.json().access_token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ two_factor_enabled: true });
  });

  it('turning it off: every other session ends, this one goes on; a wrong code ends nothing', async () => {
    const teacher = await newTeacher();
    const { secret } = await enrol(teacher);
    const elsewhere = await postLogin({
      username: teacher.username,
      password: teacher.password,
      otp: await freshCode(teacher.id, secret),
    });
    expect(elsewhere.statusCode).toBe(200);
    const wrong = await call('POST', '/auth/two-factor/disable', teacher.token, {
      current_password: teacher.password,
      otp: wrongCode(secret),
    });
    expect(wrong.statusCode).toBe(400);
    expect((await call('GET', '/auth/me', elsewhere.json().access_token)).statusCode).toBe(200);

    const off = await call('POST', '/auth/two-factor/disable', teacher.token, {
      current_password: teacher.password,
      otp: await freshCode(teacher.id, secret),
    });
    expect(off.statusCode).toBe(200);
    expect((await call('GET', '/auth/me', elsewhere.json().access_token)).statusCode).toBe(401);
    expect((await call('GET', '/auth/me', teacher.token)).statusCode).toBe(401);
    expect((await call('GET', '/auth/me', off.json().access_token)).json()).toMatchObject({
      two_factor_enabled: false,
    });
  });
});

describe('requiring two-factor sign-in for every admin', () => {
  it('answers the policy to both roles; only an admin may change it; /settings is unchanged', async () => {
    const teacher = await newTeacher();
    for (const token of [admin, teacher.token]) {
      const response = await call('GET', '/settings/two-factor', token);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ require_admin_two_factor: false });
    }
    expect(
      (await call('PUT', '/settings/two-factor', teacher.token, { require_admin_two_factor: true })).statusCode,
    ).toBe(403);
    for (const payload of [{}, { require_admin_two_factor: 'yes' }, { require_admin_two_factor: null }]) {
      const invalid = await call('PUT', '/settings/two-factor', admin, payload);
      expect(invalid.statusCode).toBe(422);
      expect(detailOf(invalid)).toBe('require_admin_two_factor: must be true or false');
    }
    expect((await call('GET', '/settings', admin)).json()).toEqual({ absence_alerts: true });
  });

  it('will not be turned on by an admin without two-factor sign-in (it would lock them out)', async () => {
    const response = await call('PUT', '/settings/two-factor', admin, { require_admin_two_factor: true });
    expect(response.statusCode).toBe(409);
    expect(detailOf(response)).toMatch(/^Turn on two-factor sign-in for your own account first/);
    const [row] = await api.db.query<{ value: string }>(
      "SELECT value FROM settings WHERE key = 'require_admin_two_factor'",
    );
    expect(row?.value).toBe('false');
  });

  it('once on, makes an admin without it set it up before any other call; teachers are not affected', async () => {
    const adminAccount = { token: admin };
    const { secret: adminSecret } = await enrol(adminAccount);
    admin = adminAccount.token;
    const on = await call('PUT', '/settings/two-factor', admin, { require_admin_two_factor: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ require_admin_two_factor: true });
    expect(await lastActivity('settings.updated')).toMatchObject({
      description: expect.stringMatching(/turned on two-factor sign-in for every admin$/),
    });
    // The admin who turned it on still works.
    expect((await call('GET', '/students/', admin)).statusCode).toBe(200);
    expect((await call('GET', '/auth/two-factor', admin)).json()).toMatchObject({
      enabled: true,
      required: true,
      required_for_admins: true,
    });

    const other = await newAdmin('deputy', 'deputy-password');
    const signIn = await postLogin({ username: 'deputy', password: 'deputy-password' });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user).toMatchObject({ two_factor_enabled: false, must_enrol_two_factor: true });
    for (const [method, url] of [
      ['GET', '/students/'],
      ['GET', '/dashboard/summary'],
      ['GET', '/activities/recent'],
      ['PUT', '/settings/two-factor'],
      ['POST', '/auth/two-factor/disable'],
    ] as const) {
      const response = await call(method, url, other.token, method === 'GET' ? undefined : {});
      expect({ url, status: response.statusCode }).toEqual({ url, status: 403 });
      expect(detailOf(response)).toBe(ENROL_FIRST);
    }
    const me = await call('GET', '/auth/me', other.token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ must_enrol_two_factor: true });
    expect((await call('GET', '/settings/two-factor', other.token)).statusCode).toBe(200);
    expect((await call('GET', '/auth/two-factor', other.token)).json()).toMatchObject({
      enabled: false,
      required: true,
    });

    await enrol(other);
    expect((await call('GET', '/students/', other.token)).statusCode).toBe(200);
    expect((await call('GET', '/auth/me', other.token)).json()).toMatchObject({
      two_factor_enabled: true,
      must_enrol_two_factor: false,
    });

    // Teachers sign in and work as before.
    const teacher = await newTeacher();
    const teacherSignIn = await postLogin({ username: teacher.username, password: teacher.password });
    expect(teacherSignIn.json().user).toMatchObject({ must_enrol_two_factor: false });
    expect((await call('GET', '/students/', teacher.token)).statusCode).toBe(200);

    // While it is on, an admin cannot turn their own off.
    const refused = await call('POST', '/auth/two-factor/disable', admin, {
      current_password: ADMIN_PASSWORD,
      otp: await freshCode((await adminId()) as number, adminSecret),
    });
    expect(refused.statusCode).toBe(409);
    expect(detailOf(refused)).toMatch(/^The centre requires two-factor sign-in for every admin/);

    // An admin whose authenticator is reset by another must set it up again before anything else.
    expect((await call('DELETE', `/auth/two-factor/users/${other.id}`, admin)).statusCode).toBe(200);
    expect((await call('GET', '/students/', other.token)).statusCode).toBe(401);
    const again = await postLogin({ username: 'deputy', password: 'deputy-password' });
    expect(again.json().user).toMatchObject({ must_enrol_two_factor: true });
    other.token = again.json().access_token;
    const afterReset = await call('GET', '/students/', other.token);
    expect(afterReset.statusCode).toBe(403);
    expect(detailOf(afterReset)).toBe(ENROL_FIRST);

    // Turned off, admins are free again and may turn theirs off.
    const off = await call('PUT', '/settings/two-factor', admin, { require_admin_two_factor: false });
    expect(off.statusCode).toBe(200);
    expect((await call('GET', '/students/', other.token)).statusCode).toBe(200);
    const disabled = await call('POST', '/auth/two-factor/disable', admin, {
      current_password: ADMIN_PASSWORD,
      otp: await freshCode((await adminId()) as number, adminSecret),
    });
    expect(disabled.statusCode).toBe(200);
  });
});

async function adminId(): Promise<number | undefined> {
  const [row] = await api.db.query<{ id: number }>("SELECT id FROM users WHERE username = 'admin'");
  return row?.id;
}
