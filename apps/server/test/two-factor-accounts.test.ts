/**
 * Two-factor sign-in over an account's life: turning it off, an admin resetting another account, other
 * sessions ended on a change, and the requirement for every admin.
 */
import { describe, expect, it } from 'vitest';
import { base32Decode, totp } from '../src/modules/auth/two-factor/totp';
import { wrongCode } from './helpers/authenticator';
import { ADMIN_PASSWORD, detailOf, login } from './helpers/test-app';
import {
  admin,
  api,
  call,
  ENROL_FIRST,
  enrol,
  freshCode,
  lastActivity,
  newAdmin,
  newTeacher,
  postLogin,
  setAdmin,
  twoFactorApp,
  WRONG_CODE,
} from './helpers/two-factor';

twoFactorApp();

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
    setAdmin(adminAccount.token);
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
