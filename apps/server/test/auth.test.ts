import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, testClient } from './helpers/client';
import { ADMIN_PASSWORD, detailOf, login } from './helpers/test-app';

let api: TestClient;
beforeAll(async () => {
  api = await testClient({ firstStart: true });
});
afterAll(async () => {
  await api?.close();
});

function postLogin(form: Record<string, string>, ip = '10.0.0.1') {
  return api.anonymous().post('/api/v1/auth/login', undefined, { form, remoteAddress: ip });
}

describe('POST /auth/login', () => {
  it('signs in the first-start admin with a form post and answers the token and user', async () => {
    const response = await postLogin({ username: 'admin', password: ADMIN_PASSWORD });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.token_type).toBe('bearer');
    expect(typeof body.access_token).toBe('string');
    expect(body.user).toMatchObject({ username: 'admin', role: 'admin', must_change_password: true });
    expect(body.user.full_name).toBeTruthy();
    expect(body.user).not.toHaveProperty('password_hash');
  });

  it('matches the username regardless of case', async () => {
    const response = await postLogin({ username: 'ADMIN', password: ADMIN_PASSWORD }, '10.0.0.2');
    expect(response.statusCode).toBe(200);
  });

  it('answers the same 401 for a wrong password and an unknown user', async () => {
    const wrong = await postLogin({ username: 'admin', password: 'nope-nope' }, '10.0.0.3');
    const unknown = await postLogin({ username: 'nobody', password: 'nope-nope' }, '10.0.0.3');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(detailOf(wrong)).toBe('Incorrect username or password');
    expect(detailOf(unknown)).toBe('Incorrect username or password');
  });

  it('names the missing field in a 422', async () => {
    const response = await postLogin({ username: 'admin' }, '10.0.0.4');
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toMatch(/^password: /);
  });

  it('throttles repeated failures for one username with 429, then lets the real user back in after the block', async () => {
    const ip = '10.0.0.5';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await postLogin({ username: 'throttled-user', password: 'wrong' }, ip)).statusCode);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    const blocked = await postLogin({ username: 'throttled-user', password: 'wrong' }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(detailOf(blocked)).toMatch(/^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not blocked by these failures (no malicious lockout; sign-in-throttle.test.ts).
    expect((await postLogin({ username: 'throttled-user', password: 'wrong' }, '10.0.0.6')).statusCode).toBe(401);
    // The block is time-bound: once it has passed, the user may try again from the same address.
    await api.db.query("UPDATE login_throttle SET blocked_until = now() - interval '1 second'");
    expect((await postLogin({ username: 'throttled-user', password: 'wrong' }, ip)).statusCode).toBe(401);
  });
});

describe('GET /auth/me', () => {
  it('answers the signed-in user', async () => {
    const response = await api.as('admin').get('/api/v1/auth/me');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ username: 'admin', role: 'admin' });
  });

  it.each([
    ['no header', {}],
    ['a malformed token', { authorization: 'Bearer not-a-token' }],
    ['another scheme', { authorization: 'Basic YWRtaW46YWRtaW4=' }],
    [
      'an unsigned token (alg none)',
      {
        authorization: `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"1","ver":0,"aud":"tuitiondesk-staff","exp":9999999999}').toString('base64url')}.`,
      },
    ],
  ])('refuses %s with 401 and a detail', async (_name, headers) => {
    const response = await api.anonymous().get('/api/v1/auth/me', { headers });
    expect(response.statusCode).toBe(401);
    expect(detailOf(response)).toBeTruthy();
  });
});

describe('POST /auth/change-password', () => {
  it('refuses a wrong current password with 400, a short new one with 422', async () => {
    const admin = api.as('admin');
    const wrong = await admin.post('/api/v1/auth/change-password', {
      current_password: 'wrong-one',
      new_password: 'something-new',
    });
    expect(wrong.statusCode).toBe(400);
    expect(detailOf(wrong)).toBe('Current password is incorrect');
    const short = await admin.post('/api/v1/auth/change-password', {
      current_password: ADMIN_PASSWORD,
      new_password: 'abc',
    });
    expect(short.statusCode).toBe(422);
    expect(detailOf(short)).toMatch(/^new_password: .*6 characters/);
  });

  it('changes the password, clears must_change_password and ends older sessions', async () => {
    const oldToken = await login(api.app, 'admin', ADMIN_PASSWORD);
    const response = await api
      .withToken(oldToken)
      .post('/api/v1/auth/change-password', { current_password: ADMIN_PASSWORD, new_password: 'brand-new-password' });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Password changed successfully.');
    expect((await api.withToken(oldToken).get('/api/v1/auth/me')).statusCode).toBe(401);
    const me = await api.withToken(response.json().access_token).get('/api/v1/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().must_change_password).toBe(false);
    const fresh = await login(api.app, 'admin', 'brand-new-password');
    expect(fresh).toBeTruthy();
    const activity = await api.db.query<{ action: string }>(
      "SELECT action FROM activities WHERE action = 'auth.password_changed'",
    );
    expect(activity).toHaveLength(1);
  });
});
