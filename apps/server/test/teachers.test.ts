import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../src/lib/time';
import { type TestClient, testClient } from './helpers/client';
import { detailOf, login, uniquePhone } from './helpers/test-app';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

function signIn(username: string, password: string) {
  return api.anonymous().post('/api/v1/auth/login', undefined, { form: { username, password } });
}

async function teacherRow(id: number) {
  const rows = await api.db.query<Record<string, unknown>>('SELECT * FROM teachers WHERE id = $1', [id]);
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
    const response = await api.as('admin').post('/api/v1/teachers/', {
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
      await api.db.query<Record<string, unknown>>('SELECT * FROM users WHERE id = $1', [
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
    const listed = (await api.as('admin').get('/api/v1/teachers/')).json();
    expect(JSON.stringify(listed)).not.toContain(created.initial_password);
    const activity = await api.db.query('SELECT description FROM activities WHERE description LIKE $1', [
      `%added teacher Priya Nair (${created.unique_id})`,
    ]);
    expect(activity).toHaveLength(1);
  });

  it('defaults the optional fields', async () => {
    const response = await api.as('admin').post('/api/v1/teachers/', {
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
    await api.teacher({ email: 'taken@example.com' });
    const before = await api.db.query('SELECT count(*)::int AS n FROM users');
    const response = await api.as('admin').post('/api/v1/teachers/', { ...dialog(), email: 'TAKEN@example.com' });
    expect(response.statusCode).toBe(409);
    expect(detailOf(response)).toMatch(/^email: taken@example\.com is already used by teacher TCH\d{4}/);
    expect(await api.db.query('SELECT count(*)::int AS n FROM users')).toEqual(before);
  });

  it.each([
    ['first_name', { first_name: '' }, 'first_name: must not be empty'],
    ['last_name', { last_name: undefined }, 'last_name: is required'],
    [
      'phone_number',
      { phone_number: '12345' },
      'phone_number: Enter the phone number with 10 digits (this one has 5), or with its country code, e.g. +91 98123 45670',
    ],
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
    const before = await api.db.query('SELECT count(*)::int AS n FROM teachers');
    const response = await api.as('admin').post('/api/v1/teachers/', { ...dialog(), ...change });
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toBe(detail);
    expect(await api.db.query('SELECT count(*)::int AS n FROM teachers')).toEqual(before);
  });

  it('refuses a teacher with 403 before reading the body', async () => {
    const response = await api.as('teacher').post('/api/v1/teachers/', {});
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /teachers/', () => {
  it('lists teachers for an admin only', async () => {
    const response = await api.as('admin').get('/api/v1/teachers/');
    expect(response.statusCode).toBe(200);
    expect(response.json().length).toBeGreaterThan(0);
    expect((await api.as('teacher').get('/api/v1/teachers/')).statusCode).toBe(403);
    expect((await api.anonymous().get('/api/v1/teachers/')).statusCode).toBe(401);
  });
});

describe('PUT /teachers/{id}', () => {
  it('takes the whole edited object plus full_name and renames the account too', async () => {
    const created = await api.teacher({ first_name: 'Old', last_name: 'Name' });
    const current = (await api.as('admin').get(`/api/v1/teachers/${created.id}`)).json();
    const response = await api.as('admin').put(`/api/v1/teachers/${created.id}`, {
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
    const user = await api.db.query(
      'SELECT u.full_name FROM users u JOIN teachers t ON t.user_id = u.id WHERE t.id = $1',
      [created.id],
    );
    expect(user).toEqual([{ full_name: 'New Name Two' }]);
  });

  it('splits a full name on its first space when only full_name is sent', async () => {
    const created = await api.teacher();
    const response = await api.as('admin').put(`/api/v1/teachers/${created.id}`, { full_name: 'Sita Ram Iyer' });
    expect(response.json()).toMatchObject({ first_name: 'Sita', last_name: 'Ram Iyer', full_name: 'Sita Ram Iyer' });
  });

  it('refuses another teacher’s email with 409 and keeps its own', async () => {
    await api.teacher({ email: 'first@example.com' });
    const second = await api.teacher({ email: 'second@example.com' });
    const same = await api.as('admin').put(`/api/v1/teachers/${second.id}`, { email: 'SECOND@example.com' });
    expect(same.statusCode).toBe(200);
    const clash = await api.as('admin').put(`/api/v1/teachers/${second.id}`, { email: 'first@example.com' });
    expect(clash.statusCode).toBe(409);
    expect((await teacherRow(second.id))?.email).toBe('second@example.com');
  });

  it('answers 404 for an unknown teacher and 422 for bad fields', async () => {
    expect((await api.as('admin').put('/api/v1/teachers/999999', { first_name: 'X' })).statusCode).toBe(404);
    const created = await api.teacher();
    const bad = await api.as('admin').put(`/api/v1/teachers/${created.id}`, { classes_assigned: ['7', '7B'] });
    expect(bad.statusCode).toBe(422);
    expect(detailOf(bad)).toBe('classes_assigned[1]: must be one of 7, 8, 9 or 10');
  });
});

describe('deleting teachers', () => {
  it('deletes a teacher with their account and attendance; they can no longer sign in', async () => {
    const created = await api.teacher({ first_name: 'Leaving' });
    const marked = await api.as('admin').post('/api/v1/teacher-attendance/mark', {
      date: today(),
      teacher_records: [{ teacher_id: created.id, status: 'present' }],
    });
    expect(marked.statusCode).toBe(200);
    const token = await login(api.app, created.username, created.initial_password);

    const response = await api.as('admin').delete(`/api/v1/teachers/${created.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Teacher deleted successfully');
    expect(await teacherRow(created.id)).toBeUndefined();
    expect(await api.db.query('SELECT id FROM teacher_attendance WHERE teacher_id = $1', [created.id])).toEqual([]);
    expect(await api.db.query('SELECT id FROM users WHERE lower(username) = lower($1)', [created.username])).toEqual(
      [],
    );
    expect((await signIn(created.username, created.initial_password)).statusCode).toBe(401);
    expect((await api.withToken(token).get('/api/v1/auth/me')).statusCode).toBe(401);
    expect((await api.as('admin').delete(`/api/v1/teachers/${created.id}`)).statusCode).toBe(404);
  });

  it('deletes several at once, or none when one id is unknown', async () => {
    const a = await api.teacher();
    const b = await api.teacher();
    const refused = await api.as('admin').post('/api/v1/teachers/delete-multiple', [a.id, 999997]);
    expect(refused.statusCode).toBe(404);
    expect(await teacherRow(a.id)).toBeDefined();
    const response = await api.as('admin').post('/api/v1/teachers/delete-multiple', [a.id, b.id]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deleted_count: 2, message: 'Successfully deleted 2 teacher(s)' });
    expect(await api.db.query('SELECT id FROM teachers WHERE id = ANY($1::int[])', [[a.id, b.id]])).toEqual([]);
  });

  it('refuses a teacher with 403 on every delete', async () => {
    const a = await api.teacher();
    expect((await api.as('teacher').delete(`/api/v1/teachers/${a.id}`)).statusCode).toBe(403);
    expect((await api.as('teacher').post('/api/v1/teachers/delete-multiple', [a.id])).statusCode).toBe(403);
    expect((await api.as('teacher').delete('/api/v1/teachers/clear-all')).statusCode).toBe(403);
    expect(await teacherRow(a.id)).toBeDefined();
  });

  it('clears all teachers and their accounts, keeping the admin', async () => {
    const [{ teachers, users }] = (await api.db.query<{ teachers: number; users: number }>(
      `SELECT (SELECT count(*)::int FROM teachers) AS teachers,
              (SELECT count(*)::int FROM users WHERE role = 'teacher') AS users`,
    )) as [{ teachers: number; users: number }];
    expect(teachers).toBeGreaterThan(0);
    const response = await api.as('admin').delete('/api/v1/teachers/clear-all');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      deleted_count: teachers,
      deleted_teachers: teachers,
      deleted_users: users,
      backup_file: expect.stringMatching(/\/tuitiondesk-before-clear-teachers-\d{8}-\d{6}(-\d+)?\.jsonl\.gz$/),
    });
    // The backup was written (into BACKUP_DIR) before the teachers were deleted: see backup.test.ts.
    expect(existsSync(response.json().backup_file)).toBe(true);
    expect(await api.db.query('SELECT id FROM teachers')).toEqual([]);
    expect(await api.db.query("SELECT username FROM users WHERE role = 'teacher'")).toEqual([]);
    expect((await api.as('admin').get('/api/v1/auth/me')).statusCode).toBe(200);
  });
});
