import { beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, totp } from '../src/modules/auth/two-factor/totp';
import { wrongCode } from './helpers/authenticator';
import { detailOf } from './helpers/test-app';
import {
  type Account,
  api,
  call,
  ENTER_CODE,
  enrol,
  freshCode,
  lastActivity,
  newTeacher,
  postLogin,
  twoFactorApp,
  WRONG_CODE,
} from './helpers/two-factor';

// Turning it off, an admin's reset, sessions ended and the admins' requirement: two-factor-accounts.test.ts.
twoFactorApp();

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
