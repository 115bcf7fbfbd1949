/** Each staff account's own language for the console: kept on the server, shown on /auth/me. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, testClient } from './helpers/client';
import { detailOf, signInNewTeacher } from './helpers/test-app';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

async function newTeacher() {
  const teacher = await signInNewTeacher(api.app, api.db, await api.adminToken(), {
    first_name: 'Lingo',
    last_name: `Teacher${Math.random().toString(36).slice(2, 8)}`,
  });
  return { ...teacher, caller: api.withToken(teacher.token) };
}

describe('PUT /auth/me/language', () => {
  it('starts as not chosen (null) on /auth/me', async () => {
    const teacher = await newTeacher();
    const me = await teacher.caller.get('/api/v1/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().language).toBeNull();
  });

  it('keeps the chosen language for the account, shown on /auth/me and at the next sign-in', async () => {
    const teacher = await newTeacher();
    const chosen = await teacher.caller.put('/api/v1/auth/me/language', { language: 'ur' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ username: teacher.username, language: 'ur' });
    expect((await teacher.caller.get('/api/v1/auth/me')).json().language).toBe('ur');

    const again = await api
      .anonymous()
      .post('/api/v1/auth/login', undefined, { form: { username: teacher.username, password: teacher.password } });
    expect(again.json().user.language).toBe('ur');
    // Another account is not touched.
    expect((await api.as('admin').get('/api/v1/auth/me')).json().language).not.toBe('ur');
  });

  it('goes back to following the browser with null', async () => {
    const teacher = await newTeacher();
    await teacher.caller.put('/api/v1/auth/me/language', { language: 'hi' });
    const cleared = await teacher.caller.put('/api/v1/auth/me/language', { language: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().language).toBeNull();
    const [row] = await api.db.query<{ language: string | null }>('SELECT language FROM users WHERE id = $1', [
      teacher.id,
    ]);
    expect(row?.language).toBeNull();
  });

  it('refuses a language the console does not speak, naming the field and the choices', async () => {
    const teacher = await newTeacher();
    for (const body of [{ language: 'fr' }, { language: 'HI' }, {}]) {
      const refused = await teacher.caller.put('/api/v1/auth/me/language', body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(422);
      expect(detailOf(refused)).toMatch(/^language: /);
    }
    expect((await teacher.caller.get('/api/v1/auth/me')).json().language).toBeNull();
  });

  it('refuses a call without a token', async () => {
    const response = await api.anonymous().put('/api/v1/auth/me/language', { language: 'hi' });
    expect(response.statusCode).toBe(401);
  });

  it('the database refuses an unknown language even from SQL', async () => {
    const teacher = await newTeacher();
    await expect(api.db.query("UPDATE users SET language = 'xx' WHERE id = $1", [teacher.id])).rejects.toThrow();
  });
});
