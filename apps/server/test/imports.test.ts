import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createStudent, createTeacher, createTestApp, detailOf, login, type TestApp } from './helpers/test-app';

let t: TestApp;
let small: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  small = await createTestApp({ config: { importMaxBytes: 20_000, importMaxRows: 5 } });
});
afterAll(async () => {
  await t?.close();
  await small?.close();
});

type Cell = string | number | null;

function workbook(rows: Cell[][], bookType: 'xlsx' | 'biff8' = 'xlsx', extraSheetFirst?: string): Buffer {
  const book = XLSX.utils.book_new();
  if (extraSheetFirst) XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['help']]), extraSheetFirst);
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Data');
  return XLSX.write(book, { type: 'buffer', bookType }) as Buffer;
}

function multipart(file: Buffer, filename: string, field = 'file') {
  const boundary = '----tuitiondesk-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  return {
    payload: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(
  kind: 'students' | 'teachers',
  file: Buffer,
  filename = `${kind}.xlsx`,
  options: { app?: TestApp; query?: string; token?: string; field?: string } = {},
) {
  const app = options.app ?? t;
  const body = multipart(file, filename, options.field);
  return app.app.inject({
    method: 'POST',
    url: `/api/v1/import/${kind}/import${options.query ?? ''}`,
    headers: { ...auth(options.token ?? (await app.adminToken())), ...body.headers },
    payload: body.payload,
  });
}

async function count(table: 'students' | 'teachers' | 'users' | 'activities', app = t): Promise<number> {
  const rows = await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]?.n ?? 0;
}

describe('templates', () => {
  it.each([
    [
      'students',
      'student_import_template.xlsx',
      ['first_name', 'last_name', 'class_name', 'parent_phone', 'parent_name'],
    ],
    [
      'teachers',
      'teacher_import_template.xlsx',
      [
        'first_name',
        'last_name',
        'email',
        'phone_number',
        'subjects',
        'classes_assigned',
        'qualification',
        'experience_years',
        'address',
        'emergency_contact',
      ],
    ],
  ])(
    'serves the %s template as a named .xlsx with an example row and instructions',
    async (kind, filename, columns) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/import/${kind}/template`,
        headers: auth(await t.adminToken()),
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${filename}"`);
      const book = XLSX.read(response.rawPayload, { type: 'buffer' });
      expect(book.SheetNames).toHaveLength(2);
      expect(book.SheetNames[1]).toBe('Instructions');
      const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0] as string] as XLSX.WorkSheet, {
        header: 1,
      });
      expect(rows[0]).toEqual(columns);
      expect(rows).toHaveLength(2);
      const instructions = JSON.stringify(
        XLSX.utils.sheet_to_json(book.Sheets.Instructions as XLSX.WorkSheet, { header: 1 }),
      );
      expect(instructions).toMatch(/country code/);
    },
  );

  it('the students template, filled in as it comes, imports its example row', async () => {
    const template = await t.app.inject({
      method: 'GET',
      url: '/api/v1/import/students/template',
      headers: auth(await t.adminToken()),
    });
    const response = await upload('students', template.rawPayload, 'student_import_template.xlsx', {
      query: '?dry_run=true',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ imported_count: 1, errors: [] });
  });

  it('refuses a teacher with 403', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/import/students/template',
      headers: auth(await t.teacherToken()),
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('POST /import/students/import', () => {
  it('imports valid rows, reports invalid ones with their sheet row numbers, and writes one activity row', async () => {
    const before = await count('activities');
    const file = workbook([
      ['First Name', 'Last Name', 'Class', 'Parent Mobile', 'Parent Name'],
      ['Aarav', 'Sharma', 'Class 7', '+91 98765-11111', 'Rohit Sharma'],
      ['Diya', 'Patel', 8, 919876522222, ''],
      ['', '', '', '', ''],
      ['Kabir', 'Singh', '11', '+919876533333', 'Harpreet Singh'],
      ['Ira', 'Das', '9th', '98765', 'Sima Das'],
      ['Zoya', 'Khan', 'X', '+919876544444', null],
    ]);
    const response = await upload('students', file);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({
      dry_run: false,
      total_rows: 5,
      imported_count: 3,
      message: 'Successfully imported 3 students. 2 row(s) had errors and were skipped.',
    });
    expect(result.imported_students).toEqual([
      { name: 'Aarav Sharma', phone: '+919876511111', class_name: '7', unique_id: expect.stringMatching(/^STU\d{4}$/) },
      { name: 'Diya Patel', phone: '+919876522222', class_name: '8', unique_id: expect.stringMatching(/^STU\d{4}$/) },
      { name: 'Zoya Khan', phone: '+919876544444', class_name: '10', unique_id: expect.stringMatching(/^STU\d{4}$/) },
    ]);
    expect(result.errors).toEqual([
      { row: 5, error: 'class_name: must be one of 7, 8, 9 or 10' },
      { row: 6, error: 'parent_phone: must include the country code, e.g. +919876543210' },
    ]);
    const stored = await t.db.query(
      'SELECT full_name, class_name, parent_name, parent_phone FROM students ORDER BY id',
    );
    expect(stored).toEqual([
      { full_name: 'Aarav Sharma', class_name: '7', parent_name: 'Rohit Sharma', parent_phone: '+919876511111' },
      { full_name: 'Diya Patel', class_name: '8', parent_name: '', parent_phone: '+919876522222' },
      { full_name: 'Zoya Khan', class_name: '10', parent_name: '', parent_phone: '+919876544444' },
    ]);
    expect(await count('activities')).toBe(before + 1);
    const [activity] = await t.db.query<{ description: string }>(
      'SELECT description FROM activities ORDER BY id DESC LIMIT 1',
    );
    expect(activity?.description).toBe('Administrator imported 3 students from students.xlsx');
  });

  it('reports rows that duplicate a student on record or an earlier row, and imports the rest once', async () => {
    const existing = await createStudent(t.app, await t.adminToken(), {
      full_name: 'Meera Iyer',
      parent_phone: '+919800000001',
    });
    const file = workbook([
      ['first_name', 'last_name', 'class_name', 'parent_phone'],
      ['meera', 'iyer', '7', '+919800000001'],
      ['Rahul', 'Verma', '8', '+919800000002'],
      ['Rahul', 'Verma', '8', '+91 98000 00002'],
    ]);
    const response = await upload('students', file, 'students.xls');
    expect(response.json().errors).toEqual([
      { row: 2, error: `meera iyer is already on record as ${existing.unique_id} (same parent phone)` },
      { row: 4, error: 'duplicate of row 3 (same name and parent phone)' },
    ]);
    expect(response.json().imported_count).toBe(1);
    // Importing the same file again adds nobody.
    const again = await upload('students', file);
    expect(again.json().imported_count).toBe(0);
    expect(again.json().message).toBe('No students were imported. 3 row(s) had errors and were skipped.');
  });

  it('reads a legacy .xls workbook and a single Name column', async () => {
    const file = workbook(
      [
        ['Student Name', 'Grade', 'Phone', 'Guardian'],
        ['Neha Joshi', 'VIII', '0091 98111 22333', 'Anil Joshi'],
      ],
      'biff8',
    );
    const response = await upload('students', file, 'old.xls');
    expect(response.statusCode).toBe(200);
    expect(response.json().imported_students).toEqual([
      expect.objectContaining({ name: 'Neha Joshi', class_name: '8', phone: '+919811122333' }),
    ]);
  });

  it('checks a file without writing anything on ?dry_run=true', async () => {
    const [students, activities] = [await count('students'), await count('activities')];
    const file = workbook([
      ['first_name', 'last_name', 'class_name', 'parent_phone'],
      ['Dry', 'Run', '7', '+919811100001'],
      ['Bad', 'Row', '6', '+919811100002'],
    ]);
    const response = await upload('students', file, 'check.xlsx', { query: '?dry_run=true' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      dry_run: true,
      imported_count: 1,
      imported_students: [{ name: 'Dry Run', unique_id: null }],
      errors: [{ row: 3, error: 'class_name: must be one of 7, 8, 9 or 10' }],
    });
    expect(response.json().message).toMatch(/Nothing was written/);
    expect([await count('students'), await count('activities')]).toEqual([students, activities]);
  });

  it.each([
    ['a text file named .xlsx', Buffer.from('first_name,last_name\nA,B\n'), 'data.xlsx', 400, /not an Excel workbook/],
    [
      'a PNG named .xls',
      Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
      'photo.xls',
      400,
      /not an Excel workbook/,
    ],
    ['a CSV file', Buffer.from('a,b\n'), 'data.csv', 400, /^Please upload only Excel files \(\.xlsx or \.xls\)$/],
    ['an empty file', Buffer.alloc(0), 'empty.xlsx', 400, /The file is empty/],
    [
      'a damaged workbook',
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]),
      'broken.xlsx',
      400,
      /not an Excel workbook/,
    ],
  ])('refuses %s with a clear detail and imports nothing', async (_name, file, filename, status, detail) => {
    const before = await count('students');
    const response = await upload('students', file, filename);
    expect(response.statusCode).toBe(status);
    expect(detailOf(response)).toMatch(detail);
    expect(await count('students')).toBe(before);
  });

  it('refuses a file missing required columns, naming them', async () => {
    const file = workbook([
      ['first_name', 'last_name', 'Notes'],
      ['A', 'B', 'x'],
    ]);
    const response = await upload('students', file);
    expect(response.statusCode).toBe(400);
    expect(detailOf(response)).toBe(
      'Missing required columns: class_name, parent_phone. The first row must hold the column names; download the template to see them',
    );
  });

  it('refuses a file with a header and no data rows', async () => {
    const response = await upload('students', workbook([['first_name', 'last_name', 'class_name', 'parent_phone']]));
    expect(response.statusCode).toBe(400);
    expect(detailOf(response)).toMatch(/no data rows under the header/);
  });

  it('refuses a request without a file, or with the file in another field', async () => {
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/v1/import/students/import',
      headers: { ...auth(await t.adminToken()), 'content-type': 'application/json' },
      payload: {},
    });
    expect(none.statusCode).toBe(400);
    expect(detailOf(none)).toMatch(/multipart\/form-data/);
    const other = await upload('students', workbook([['a'], ['b']]), 'x.xlsx', { field: 'upload' });
    expect(other.statusCode).toBe(400);
    expect(detailOf(other)).toBe('The file must be sent in the field named "file", not "upload"');
  });

  it('refuses a file over the size limit with 413', async () => {
    const rows: Cell[][] = [['first_name', 'last_name', 'class_name', 'parent_phone']];
    for (let i = 0; i < 3000; i += 1) rows.push([`Name${i}`, `Surname${i}`, '7', `+9198${String(i).padStart(8, '0')}`]);
    const file = workbook(rows, 'biff8');
    expect(file.length).toBeGreaterThan(20_000);
    const response = await upload('students', file, 'big.xls', { app: small });
    expect(response.statusCode).toBe(413);
    expect(detailOf(response)).toMatch(/larger than/);
    expect(await count('students', small)).toBe(0);
  });

  it('refuses more rows than the limit with 413 and imports none of them', async () => {
    const rows: Cell[][] = [['first_name', 'last_name', 'class_name', 'parent_phone']];
    for (let i = 0; i < 6; i += 1) rows.push([`N${i}`, `S${i}`, '7', `+91987000000${i}`]);
    const response = await upload('students', workbook(rows), 'rows.xlsx', { app: small });
    expect(response.statusCode).toBe(413);
    expect(detailOf(response)).toBe(
      'The file has 6 rows under the header; at most 5 can be imported at once. Split it into smaller files',
    );
    expect(await count('students', small)).toBe(0);
  });

  it('refuses a zip that declares a huge unpacked size, without unpacking it', async () => {
    const file = workbook([
      ['first_name', 'last_name', 'class_name', 'parent_phone'],
      ['A', 'B', '7', '+919800000009'],
    ]);
    // Rewrite the first central-directory entry's uncompressed size to 4 GB - 2.
    const directory = file.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    file.writeUInt32LE(0xfffffffe, directory + 24);
    const response = await upload('students', file, 'bomb.xlsx');
    expect(response.statusCode).toBe(413);
    expect(detailOf(response)).toMatch(/unpacks to more than/);
  });

  it('needs a token, and refuses a teacher with 403', async () => {
    const file = workbook([['first_name'], ['A']]);
    const body = multipart(file, 'a.xlsx');
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/import/students/import',
      headers: body.headers,
      payload: body.payload,
    });
    expect(anonymous.statusCode).toBe(401);
    const teacher = await upload('students', file, 'a.xlsx', { token: await t.teacherToken() });
    expect(teacher.statusCode).toBe(403);
  });
});

describe('POST /import/teachers/import', () => {
  it('imports teachers with sign-in accounts whose initial passwords are answered once', async () => {
    const users = await count('users');
    const file = workbook([
      ['First Name', 'Surname', 'Email Address', 'Phone', 'Subjects', 'Classes', 'Experience', 'Qualification'],
      ['Priya', 'Nair', 'Priya.Nair@Example.com', '+91 98123 45678', 'maths, Physics', '9, 10th', 6, 'M.Sc.'],
      ['Ravi', 'Kumar', 'ravi@example.com', '+919812300002', 'English', '7', '', ''],
      ['Bad', 'Email', 'not-an-email', '+919812300003', '', '', '', ''],
      ['Bad', 'Subject', 'subject@example.com', '+919812300004', 'Art', '', '', ''],
      ['Same', 'Email', 'RAVI@example.com', '+919812300005', '', '', '', ''],
    ]);
    const response = await upload('teachers', file);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({
      imported_count: 2,
      total_rows: 5,
      message: 'Successfully imported 2 teachers. 3 row(s) had errors and were skipped.',
    });
    expect(result.errors).toEqual([
      { row: 4, error: 'email: must be a valid email address' },
      { row: 5, error: expect.stringMatching(/^subjects\.0: "Art" is not one of Mathematics/) },
      { row: 6, error: 'email: ravi@example.com is already used in row 3' },
    ]);
    const [priya] = result.imported_teachers;
    expect(priya).toMatchObject({ name: 'Priya Nair', email: 'priya.nair@example.com', phone: '+919812345678' });
    expect(priya.username).toBe(priya.unique_id);
    const stored = await t.db.query(
      'SELECT subjects, classes_assigned, experience_years FROM teachers WHERE unique_id = $1',
      [priya.unique_id],
    );
    expect(stored).toEqual([
      { subjects: ['Mathematics', 'Physics'], classes_assigned: ['9', '10'], experience_years: 6 },
    ]);
    expect(await count('users')).toBe(users + 2);
    const token = await login(t.app, 'priya.nair@example.com', priya.initial_password);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: auth(token) });
    expect(me.json()).toMatchObject({ role: 'teacher', must_change_password: true });
  });

  it('reports a teacher whose email is already on record', async () => {
    const existing = await createTeacher(t.app, await t.adminToken(), { email: 'taken.import@example.com' });
    const response = await upload(
      'teachers',
      workbook([
        ['first_name', 'last_name', 'email', 'phone_number'],
        ['Other', 'Person', 'TAKEN.IMPORT@example.com', '+919812300009'],
      ]),
    );
    expect(response.json().errors).toEqual([
      { row: 2, error: `email: taken.import@example.com is already used by teacher ${existing.unique_id}` },
    ]);
    expect(response.json().imported_count).toBe(0);
  });

  it('checks without creating teachers or accounts on ?dry_run=true', async () => {
    const [teachers, users] = [await count('teachers'), await count('users')];
    const response = await upload(
      'teachers',
      workbook([
        ['first_name', 'last_name', 'email', 'phone_number'],
        ['Dry', 'Teacher', 'dry.teacher@example.com', '+919812300010'],
      ]),
      'teachers.xlsx',
      { query: '?dry_run=true' },
    );
    expect(response.json()).toMatchObject({
      dry_run: true,
      imported_count: 1,
      imported_teachers: [{ name: 'Dry Teacher', unique_id: null, username: null, initial_password: null }],
    });
    expect([await count('teachers'), await count('users')]).toEqual([teachers, users]);
  });

  it('refuses a file missing the email column', async () => {
    const response = await upload(
      'teachers',
      workbook([
        ['first_name', 'last_name', 'phone_number'],
        ['A', 'B', '+919812300011'],
      ]),
    );
    expect(response.statusCode).toBe(400);
    expect(detailOf(response)).toMatch(/^Missing required column: email\./);
  });

  it('reads the data sheet even when an Instructions sheet comes first', async () => {
    const response = await upload(
      'teachers',
      workbook(
        [
          ['first_name', 'last_name', 'email', 'phone_number'],
          ['Sheet', 'Order', 'sheet.order@example.com', '+919812300012'],
        ],
        'xlsx',
        'Instructions',
      ),
      'teachers.xlsx',
      { query: '?dry_run=1' },
    );
    expect(response.json().imported_count).toBe(1);
  });
});
