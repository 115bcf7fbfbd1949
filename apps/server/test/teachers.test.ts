import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../src/lib/time';
import { auth, createTeacher, createTestApp, detailOf, login, type TestApp, uniquePhone } from './helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Headers = Record<string, string>;
const admin = async (): Promise<Headers> => auth(await t.adminToken());
const teacher = async (): Promise<Headers> => auth(await t.teacherToken());

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: unknown) {
  return t.app.inject({ method, url: `/api/v1${url}`, headers, payload: payload as never });
}

function signIn(username: string, password: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: new URLSearchParams({ username, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

async function teacherRow(id: number) {
  const rows = await t.db.query<Record<string, unknown>>('SELECT * FROM teachers WHERE id = $1', [id]);
  return rows[0];
}

const dialog = () => ({
  first_name: 'Priya',
  last_name: 'Nair',
  full_name: 'Priya Nair',
  phone_number: uniquePhone(),
  subjects: ['Mathematics', 'Physics'],
  classes_assigned: ['9', '10'],
  qualification: 'M.Sc. Mathematics',
  experience_years: 6,
  address: '12 MG Road\nKochi',
  emergency_contact: '+919812345678',
});

describe('POST /teachers/', () => {
  it('adds a teacher with a sign-in account whose initial password is shown once', async () => {
    const response = await call('POST', '/teachers/', await admin(), {
      ...dialog(),
      email: ' Priya.Nair@Example.com ',
    });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      full_name: 'Priya Nair',
      first_name: 'Priya',
      last_name: 'Nair',
      email: 'priya.nair@example.com',
      subjects: ['Mathematics', 'Physics'],
      classes_assigned: ['9', '10'],
      experience_years: 6,
      address: '12 MG Road\nKochi',
    });
    expect(created.unique_id).toMatch(/^TCH\d{4}$/);
    expect(created.username).toBe(created.unique_id);
    expect(created.initial_password).toMatch(/^\S{12,}$/);

    const user = (
      await t.db.query<Record<string, unknown>>('SELECT * FROM users WHERE id = $1', [
        (await teacherRow(created.id))?.user_id,
      ])
    )[0];
    expect(user).toMatchObject({ role: 'teacher', must_change_password: true, full_name: 'Priya Nair' });
    expect(String(user?.password_hash)).not.toContain(created.initial_password);

    // The username works in any case, and so does the email on the record.
    for (const name of [created.unique_id.toLowerCase(), 'PRIYA.NAIR@example.com']) {
      const signedIn = await signIn(name, created.initial_password);
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json().user).toMatchObject({ role: 'teacher', must_change_password: true });
    }
    // The list never shows the password again.
    const listed = (await call('GET', '/teachers/', await admin())).json();
    expect(JSON.stringify(listed)).not.toContain(created.initial_password);
    const activity = await t.db.query('SELECT description FROM activities WHERE description LIKE $1', [
      `%added teacher Priya Nair (${created.unique_id})`,
    ]);
    expect(activity).toHaveLength(1);
  });

  it('defaults the optional fields', async () => {
    const response = await call('POST', '/teachers/', await admin(), {
      first_name: 'Min',
      last_name: 'Imal',
      phone_number: uniquePhone(),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      email: null,
      subjects: [],
      classes_assigned: [],
      qualification: '',
      experience_years: 0,
    });
  });

  it('refuses an email another teacher has, in any case, with 409 and creates nothing', async () => {
    await createTeacher(t.app, await t.adminToken(), { email: 'taken@example.com' });
    const before = await t.db.query('SELECT count(*)::int AS n FROM users');
    const response = await call('POST', '/teachers/', await admin(), { ...dialog(), email: 'TAKEN@example.com' });
    expect(response.statusCode).toBe(409);
    expect(detailOf(response)).toMatch(/^email: taken@example\.com is already used by teacher TCH\d{4}/);
    expect(await t.db.query('SELECT count(*)::int AS n FROM users')).toEqual(before);
  });

  it.each([
    ['first_name', { first_name: '' }, 'first_name: must not be empty'],
    ['last_name', { last_name: undefined }, 'last_name: is required'],
    ['phone_number', { phone_number: '12345' }, 'phone_number: must include the country code, e.g. +919876543210'],
    ['email', { email: 'not-an-email' }, 'email: must be a valid email address'],
    [
      'subjects',
      { subjects: ['Art'] },
      'subjects[0]: must be one of Mathematics, Science, English, Hindi, Social Studies, Physics, Chemistry, Biology, Computer Science, Physical Education',
    ],
    ['subjects', { subjects: 'Mathematics' }, 'subjects: must be a list of subjects'],
    ['classes_assigned', { classes_assigned: ['12'] }, 'classes_assigned[0]: must be one of 7, 8, 9 or 10'],
    ['experience_years', { experience_years: -1 }, 'experience_years: must not be negative'],
    ['experience_years', { experience_years: 'lots' }, 'experience_years: must be a whole number of years'],
  ])('refuses a bad %s with 422 naming the field', async (_field, change, detail) => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM teachers');
    const response = await call('POST', '/teachers/', await admin(), { ...dialog(), ...change });
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toBe(detail);
    expect(await t.db.query('SELECT count(*)::int AS n FROM teachers')).toEqual(before);
  });

  it('refuses a teacher with 403 before reading the body', async () => {
    const response = await call('POST', '/teachers/', await teacher(), {});
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /teachers/', () => {
  it('lists teachers for an admin only', async () => {
    const response = await call('GET', '/teachers/', await admin());
    expect(response.statusCode).toBe(200);
    expect(response.json().length).toBeGreaterThan(0);
    expect((await call('GET', '/teachers/', await teacher())).statusCode).toBe(403);
    expect((await call('GET', '/teachers/', {})).statusCode).toBe(401);
  });
});

describe('PUT /teachers/{id}', () => {
  it('takes the whole edited object plus full_name and renames the account too', async () => {
    const created = await createTeacher(t.app, await t.adminToken(), { first_name: 'Old', last_name: 'Name' });
    const current = (await call('GET', `/teachers/${created.id}`, await admin())).json();
    const response = await call('PUT', `/teachers/${created.id}`, await admin(), {
      ...current,
      id: 1,
      unique_id: 'TCH0000',
      first_name: 'New',
      last_name: 'Name Two',
      full_name: 'New Name Two',
      subjects: ['English'],
      experience_years: '4',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: created.id,
      unique_id: created.unique_id,
      full_name: 'New Name Two',
      subjects: ['English'],
      experience_years: 4,
    });
    const user = await t.db.query(
      'SELECT u.full_name FROM users u JOIN teachers t ON t.user_id = u.id WHERE t.id = $1',
      [created.id],
    );
    expect(user).toEqual([{ full_name: 'New Name Two' }]);
  });

  it('splits a full name on its first space when only full_name is sent', async () => {
    const created = await createTeacher(t.app, await t.adminToken());
    const response = await call('PUT', `/teachers/${created.id}`, await admin(), { full_name: 'Sita Ram Iyer' });
    expect(response.json()).toMatchObject({ first_name: 'Sita', last_name: 'Ram Iyer', full_name: 'Sita Ram Iyer' });
  });

  it('refuses another teacher’s email with 409 and keeps its own', async () => {
    await createTeacher(t.app, await t.adminToken(), { email: 'first@example.com' });
    const second = await createTeacher(t.app, await t.adminToken(), { email: 'second@example.com' });
    const same = await call('PUT', `/teachers/${second.id}`, await admin(), { email: 'SECOND@example.com' });
    expect(same.statusCode).toBe(200);
    const clash = await call('PUT', `/teachers/${second.id}`, await admin(), { email: 'first@example.com' });
    expect(clash.statusCode).toBe(409);
    expect((await teacherRow(second.id))?.email).toBe('second@example.com');
  });

  it('answers 404 for an unknown teacher and 422 for bad fields', async () => {
    expect((await call('PUT', '/teachers/999999', await admin(), { first_name: 'X' })).statusCode).toBe(404);
    const created = await createTeacher(t.app, await t.adminToken());
    const bad = await call('PUT', `/teachers/${created.id}`, await admin(), { classes_assigned: ['7', '7B'] });
    expect(bad.statusCode).toBe(422);
    expect(detailOf(bad)).toBe('classes_assigned[1]: must be one of 7, 8, 9 or 10');
  });
});

describe('deleting teachers', () => {
  it('deletes a teacher with their account and attendance; they can no longer sign in', async () => {
    const created = await createTeacher(t.app, await t.adminToken(), { first_name: 'Leaving' });
    const marked = await call('POST', '/teacher-attendance/mark', await admin(), {
      date: today(),
      teacher_records: [{ teacher_id: created.id, status: 'present' }],
    });
    expect(marked.statusCode).toBe(200);
    const token = await login(t.app, created.username, created.initial_password);

    const response = await call('DELETE', `/teachers/${created.id}`, await admin());
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Teacher deleted successfully');
    expect(await teacherRow(created.id)).toBeUndefined();
    expect(await t.db.query('SELECT id FROM teacher_attendance WHERE teacher_id = $1', [created.id])).toEqual([]);
    expect(await t.db.query('SELECT id FROM users WHERE lower(username) = lower($1)', [created.username])).toEqual([]);
    expect((await signIn(created.username, created.initial_password)).statusCode).toBe(401);
    expect((await call('GET', '/auth/me', auth(token))).statusCode).toBe(401);
    expect((await call('DELETE', `/teachers/${created.id}`, await admin())).statusCode).toBe(404);
  });

  it('deletes several at once, or none when one id is unknown', async () => {
    const a = await createTeacher(t.app, await t.adminToken());
    const b = await createTeacher(t.app, await t.adminToken());
    const refused = await call('POST', '/teachers/delete-multiple', await admin(), [a.id, 999997]);
    expect(refused.statusCode).toBe(404);
    expect(await teacherRow(a.id)).toBeDefined();
    const response = await call('POST', '/teachers/delete-multiple', await admin(), [a.id, b.id]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deleted_count: 2, message: 'Successfully deleted 2 teacher(s)' });
    expect(await t.db.query('SELECT id FROM teachers WHERE id = ANY($1::int[])', [[a.id, b.id]])).toEqual([]);
  });

  it('refuses a teacher with 403 on every delete', async () => {
    const a = await createTeacher(t.app, await t.adminToken());
    expect((await call('DELETE', `/teachers/${a.id}`, await teacher())).statusCode).toBe(403);
    expect((await call('POST', '/teachers/delete-multiple', await teacher(), [a.id])).statusCode).toBe(403);
    expect((await call('DELETE', '/teachers/clear-all', await teacher())).statusCode).toBe(403);
    expect(await teacherRow(a.id)).toBeDefined();
  });

  it('clears all teachers and their accounts, keeping the admin', async () => {
    const [{ teachers, users }] = (await t.db.query<{ teachers: number; users: number }>(
      `SELECT (SELECT count(*)::int FROM teachers) AS teachers,
              (SELECT count(*)::int FROM users WHERE role = 'teacher') AS users`,
    )) as [{ teachers: number; users: number }];
    expect(teachers).toBeGreaterThan(0);
    const response = await call('DELETE', '/teachers/clear-all', await admin());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      deleted_count: teachers,
      deleted_teachers: teachers,
      deleted_users: users,
      backup_file: expect.stringMatching(/\/tuitiondesk-before-clear-teachers-\d{8}-\d{6}(-\d+)?\.jsonl\.gz$/),
    });
    // The backup was written (into BACKUP_DIR) before the teachers were deleted: see backup.test.ts.
    expect(existsSync(response.json().backup_file)).toBe(true);
    expect(await t.db.query('SELECT id FROM teachers')).toEqual([]);
    expect(await t.db.query("SELECT username FROM users WHERE role = 'teacher'")).toEqual([]);
    expect((await call('GET', '/auth/me', await admin())).statusCode).toBe(200);
  });
});
