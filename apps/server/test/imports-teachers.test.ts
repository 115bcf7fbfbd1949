import { SUBJECTS } from '@tuitiondesk/contract';
import { describe, expect, it } from 'vitest';
import { api, counts, importApps, lastActivity, nextPhone, TEACHER_HEADER, upload } from './helpers/imports';
import { login } from './helpers/test-app';
import { workbook } from './helpers/workbooks';

importApps();

describe('POST /import/teachers/import', () => {
  it('imports teachers with sign-in accounts whose initial passwords are answered once', async () => {
    const before = await counts();
    const file = workbook([
      [
        'First Name',
        'Surname',
        'E-mail',
        'Mobile',
        'Subject',
        'Classes',
        'Years of experience',
        'Qualification',
        'Address',
      ],
      [
        'Priya',
        'Nair',
        'Priya.Nair@Example.com',
        '+91 98123 45678',
        'maths, Physics',
        '9, 10th',
        6,
        'M.Sc.',
        '12 MG Road\nKochi',
      ],
      ['Ravi', 'Kumar', 'ravi@example.com', 919812300002, 'English', '7', '', '', ''],
      ['Bad', 'Email', 'not-an-email', '+919812300003', '', '', '', '', ''],
      ['Bad', 'Subject', 'subject@example.com', '+919812300004', 'Art, Science', '11', 'five', '', ''],
      ['Same', 'Email', 'RAVI@example.com', '+919812300005', '', '', '', '', ''],
      ['No', 'Phone', 'nophone@example.com', null, '', '', '', '', ''],
    ]);
    const response = await upload('teachers', file);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({
      message: 'Imported 2 teachers. 4 row(s) had errors and were skipped.',
      total_rows: 6,
      imported_count: 2,
    });
    expect(result.errors).toEqual([
      { row: 4, error: 'E-mail: must be a valid email address' },
      {
        row: 5,
        error: `Subject: "Art" is not a subject; use ${SUBJECTS.join(', ')}; Classes: "11" is not a class: each must be one of 7, 8, 9 or 10`,
      },
      { row: 6, error: 'E-mail: ravi@example.com is already used in row 3; each teacher needs their own email' },
      { row: 7, error: 'Mobile: is required' },
    ]);
    const [priya, ravi] = result.imported_teachers;
    expect(priya).toMatchObject({ name: 'Priya Nair', email: 'priya.nair@example.com', phone: '+919812345678' });
    expect(priya.unique_id).toMatch(/^TCH\d{4}$/);
    expect(priya.username).toBe(priya.unique_id);
    expect(priya.initial_password).toEqual(expect.any(String));
    expect(ravi).toMatchObject({ name: 'Ravi Kumar', phone: '+919812300002' });
    const stored = await api.db.query(
      'SELECT subjects, classes_assigned, experience_years, qualification, address FROM teachers WHERE unique_id = ANY($1) ORDER BY id',
      [[priya.unique_id, ravi.unique_id]],
    );
    expect(stored).toEqual([
      {
        subjects: ['Mathematics', 'Physics'],
        classes_assigned: ['9', '10'],
        experience_years: 6,
        qualification: 'M.Sc.',
        address: '12 MG Road\nKochi',
      },
      { subjects: ['English'], classes_assigned: ['7'], experience_years: 0, qualification: '', address: '' },
    ]);
    expect(await counts()).toMatchObject({
      teachers: before.teachers + 2,
      users: before.users + 2,
      activities: before.activities + 1,
    });
    expect(await lastActivity()).toEqual({
      action: 'teacher.imported',
      description: 'Administrator imported 2 teachers from teachers.xlsx',
    });
    // The accounts work: by username (any case) and by email; the first sign-in must change the password.
    for (const username of [priya.username.toLowerCase(), 'priya.nair@example.com']) {
      const token = await login(api.app, username, priya.initial_password);
      const me = await api.withToken(token).get('/api/v1/auth/me');
      expect(me.json()).toMatchObject({ role: 'teacher', full_name: 'Priya Nair', must_change_password: true });
    }
    // Nobody can read the password again.
    const list = await api.as('admin').get('/api/v1/teachers/');
    expect(list.body).not.toContain(priya.initial_password);
  });

  it('reads a legacy .xls file with a single Teacher Name column', async () => {
    const file = workbook(
      [
        ['Teacher Name', 'Email Address', 'Phone Number', 'Experience'],
        ['Lakshmi Devi Iyer', 'lakshmi@example.com', 919812300020, '4 years'],
        ['Mononym', 'mono@example.com', 919812300021, 1],
      ],
      { bookType: 'biff8' },
    );
    const response = await upload('teachers', file, 'staff.xls');
    expect(response.statusCode).toBe(200);
    expect(response.json().imported_teachers).toEqual([
      expect.objectContaining({ name: 'Lakshmi Devi Iyer', email: 'lakshmi@example.com', phone: '+919812300020' }),
    ]);
    expect(response.json().errors).toEqual([
      { row: 3, error: 'Teacher Name: must hold a first and a last name, separated by a space' },
    ]);
    const [stored] = await api.db.query(
      'SELECT first_name, last_name, experience_years FROM teachers WHERE email = $1',
      ['lakshmi@example.com'],
    );
    expect(stored).toEqual({ first_name: 'Lakshmi', last_name: 'Devi Iyer', experience_years: 4 });
  });

  it('reports a teacher whose email is on record under another name as an error, and imports nobody twice', async () => {
    const existing = await api.teacher({ email: 'taken.import@example.com' });
    const before = await counts();
    const response = await upload(
      'teachers',
      workbook([TEACHER_HEADER, ['Other', 'Person', 'TAKEN.IMPORT@example.com', nextPhone()]]),
    );
    expect(response.json()).toMatchObject({
      message: 'No teachers were imported: 1 row(s) had errors.',
      imported_count: 0,
      imported_teachers: [],
      errors: [
        {
          row: 2,
          error: `email: taken.import@example.com is already used by teacher ${existing.unique_id}; each teacher needs their own email`,
        },
      ],
      already_imported: [],
    });
    expect(await counts()).toEqual(before);
  });

  it('a teacher file imported again reports its teachers as already imported, creating no second account', async () => {
    const file = workbook([
      TEACHER_HEADER,
      ['Sunita', 'Rao', 'sunita.rao@example.com', nextPhone()],
      ['Vikram', 'Seth', 'vikram.seth@example.com', nextPhone()],
    ]);
    const first = await upload('teachers', file);
    expect(first.json()).toMatchObject({ message: 'Imported 2 teachers.', imported_count: 2, already_imported: [] });
    const ids = (first.json().imported_teachers as { unique_id: string }[]).map((teacher) => teacher.unique_id);
    const before = await counts();
    // The names as a person might type them again: case and spacing aside, the same teacher.
    const again = await upload(
      'teachers',
      workbook([
        TEACHER_HEADER,
        ['SUNITA', 'rao ', 'Sunita.Rao@example.com', nextPhone()],
        ['Vikram', 'Seth', 'vikram.seth@example.com', nextPhone()],
        ['Neha', 'Kapoor', 'neha.kapoor@example.com', nextPhone()],
      ]),
    );
    expect(again.json()).toMatchObject({
      message: 'Imported 1 teacher. 2 row(s) were already imported and were left as they are.',
      imported_count: 1,
      imported_teachers: [{ name: 'Neha Kapoor' }],
      already_imported: [
        { row: 2, name: 'SUNITA rao', unique_id: ids[0] },
        { row: 3, name: 'Vikram Seth', unique_id: ids[1] },
      ],
      errors: [],
    });
    const after = await counts();
    expect([after.teachers, after.users]).toEqual([before.teachers + 1, before.users + 1]);
  });

  it('checks without creating teachers, accounts or activity on ?dry_run=true', async () => {
    const before = await counts();
    const response = await upload(
      'teachers',
      workbook([TEACHER_HEADER, ['Dry', 'Teacher', 'dry.teacher@example.com', nextPhone()]]),
      'teachers.xlsx',
      { query: '?dry_run=true' },
    );
    expect(response.json()).toMatchObject({
      message: 'Check complete: 1 teacher can be imported. Nothing was saved.',
      dry_run: true,
      imported_count: 1,
      imported_teachers: [
        {
          name: 'Dry Teacher',
          email: 'dry.teacher@example.com',
          unique_id: null,
          username: null,
          initial_password: null,
        },
      ],
    });
    expect(await counts()).toEqual(before);
  });
});
