import * as XLSX from '@e965/xlsx';
import { SUBJECTS } from '@tuitiondesk/contract';
import { describe, expect, it } from 'vitest';
import {
  api,
  count,
  counts,
  importApps,
  lastActivity,
  nextPhone,
  STUDENT_HEADER,
  sheetRows,
  upload,
} from './helpers/imports';
import { detailOf } from './helpers/test-app';
import { workbook } from './helpers/workbooks';

// Refused files are in imports-refused.test.ts, teachers' imports in imports-teachers.test.ts.
importApps();

describe('GET /import/{kind}/template', () => {
  it.each([
    {
      kind: 'students',
      filename: 'student_import_template.xlsx',
      sheet: 'Students',
      columns: [
        'first_name',
        'last_name',
        'class_name',
        'parent_phone',
        'parent_name',
        'parent_whatsapp_opt_in',
        'parent_language',
      ],
    },
    {
      kind: 'teachers',
      filename: 'teacher_import_template.xlsx',
      sheet: 'Teachers',
      columns: [
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
    },
  ])('serves the $kind template: required columns first, one example row, an Instructions sheet', async (expected) => {
    const response = await api.as('admin').get(`/api/v1/import/${expected.kind}/template`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${expected.filename}"`);
    const book = XLSX.read(response.rawPayload, { type: 'buffer' });
    expect(book.SheetNames).toEqual([expected.sheet, 'Instructions']);
    const rows = sheetRows(response.rawPayload, expected.sheet);
    expect(rows[0]).toEqual(expected.columns);
    expect(rows).toHaveLength(2);
    const instructions = sheetRows(response.rawPayload, 'Instructions').flat().join('\n');
    expect(instructions).toMatch(/country code/);
    expect(instructions).toMatch(/7, 8, 9 or 10/);
    if (expected.kind === 'students') {
      expect(instructions).toMatch(/parent_whatsapp_opt_in \(optional\): yes when the parent agreed/);
      expect(instructions).toMatch(/en, hi, mr, ta, bn or ur/);
      expect(instructions).toMatch(/the later row wins/);
    }
    if (expected.kind === 'teachers') {
      for (const subject of SUBJECTS) expect(instructions).toContain(subject);
      expect(instructions).toMatch(/comma-separated/);
      expect(instructions).toMatch(/valid email address, different for every teacher/);
    }
  });

  it.each(['students', 'teachers'] as const)(
    'the %s template, uploaded as it comes, reports its example row; filled in, it imports',
    async (kind) => {
      const template = await api.as('admin').get(`/api/v1/import/${kind}/template`);
      const response = await upload(kind, template.rawPayload, `${kind}_template.xlsx`, { query: '?dry_run=true' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        dry_run: true,
        total_rows: 1,
        imported_count: 0,
        errors: [{ row: 2, error: "This is the template's example row; delete it, or replace it with a real record" }],
      });
      const book = XLSX.read(template.rawPayload, { type: 'buffer' });
      const sheet = book.Sheets[book.SheetNames[0] as string] as XLSX.WorkSheet;
      XLSX.utils.sheet_add_aoa(sheet, [['Real', 'Person']], { origin: 'A2' });
      const filled = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
      const real = await upload(kind, filled, `${kind}_template.xlsx`, { query: '?dry_run=true' });
      expect(real.json()).toMatchObject({ imported_count: 1, errors: [] });
    },
  );

  it('needs a token, and refuses a teacher with 403', async () => {
    for (const kind of ['students', 'teachers']) {
      const url = `/api/v1/import/${kind}/template`;
      expect((await api.anonymous().get(url)).statusCode).toBe(401);
      const teacher = await api.as('teacher').get(url);
      expect(teacher.statusCode).toBe(403);
      expect(detailOf(teacher)).toBe('You do not have permission to do this');
    }
  });
});

describe('POST /import/students/import', () => {
  it('imports the valid rows in one go, reports the others by sheet row, and writes one activity row', async () => {
    const before = await counts();
    const file = workbook([
      ['First Name', 'Last Name', 'Class', 'Parent Mobile', 'Parent Name'],
      ['  Aarav ', 'Sharma', 'Class 7', '+91 98765-11111', 'Rohit Sharma'],
      ['Diya', 'Patel', 8, 919876522222, null],
      [null, null, null, null, null],
      ['Kabir', 'Singh', '11', '+919876533333', 'Harpreet Singh'],
      ['Ira', 'Das', '9th', '98765', 'Sima Das'],
      ['Zoya', 'Khan', 'X', '0091 98765 44444', ''],
      ['Om', '', '', '+919876555555', ''],
    ]);
    const response = await upload('students', file, 'term 1.xlsx');
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({
      message: 'Imported 3 students. 3 row(s) had errors and were skipped.',
      dry_run: false,
      total_rows: 6,
      imported_count: 3,
    });
    expect(result.imported_students).toEqual([
      { name: 'Aarav Sharma', phone: '+919876511111', class_name: '7', unique_id: expect.stringMatching(/^STU\d{4}$/) },
      { name: 'Diya Patel', phone: '+919876522222', class_name: '8', unique_id: expect.stringMatching(/^STU\d{4}$/) },
      { name: 'Zoya Khan', phone: '+919876544444', class_name: '10', unique_id: expect.stringMatching(/^STU\d{4}$/) },
    ]);
    expect(result.errors).toEqual([
      { row: 5, error: 'Class: must be one of 7, 8, 9 or 10' },
      {
        row: 6,
        error:
          'Parent Mobile: Enter the phone number with 10 digits (this one has 5), or with its country code, e.g. +91 98123 45670',
      },
      // A last name may be empty, as in the Add Student dialog (issue 28); the class may not.
      { row: 8, error: 'Class: is required' },
    ]);
    const stored = await api.db.query<{ unique_id: string }>(
      'SELECT unique_id, full_name, class_name, parent_name, parent_phone FROM students WHERE unique_id = ANY($1) ORDER BY id',
      [result.imported_students.map((s: { unique_id: string }) => s.unique_id)],
    );
    expect(stored).toEqual([
      expect.objectContaining({ full_name: 'Aarav Sharma', class_name: '7', parent_name: 'Rohit Sharma' }),
      expect.objectContaining({
        full_name: 'Diya Patel',
        class_name: '8',
        parent_name: '',
        parent_phone: '+919876522222',
      }),
      expect.objectContaining({ full_name: 'Zoya Khan', class_name: '10', parent_name: '' }),
    ]);
    // The codes are consecutive: one set-based insert.
    const codes = stored.map((s) => Number(s.unique_id.slice(3)));
    expect(codes).toEqual([codes[0], (codes[0] ?? 0) + 1, (codes[0] ?? 0) + 2]);
    expect(await counts()).toMatchObject({ students: before.students + 3, activities: before.activities + 1 });
    expect(await lastActivity()).toEqual({
      action: 'student.imported',
      description: 'Administrator imported 3 students from term 1.xlsx',
    });
  });

  it('reads a legacy .xls (BIFF8) workbook, numeric cells as their text, and a single Name column', async () => {
    const file = workbook(
      [
        ['Student Name', 'Grade', 'Phone', 'Guardian'],
        ['Neha  Joshi', 'VIII', '0091 98111 22333', 'Anil Joshi'],
        ['Arjun Mehta Rao', 7, 919811122444, null],
        ['Madonna', 9, 919811122555, null],
      ],
      { bookType: 'biff8' },
    );
    expect(file.subarray(0, 4).toString('hex')).toBe('d0cf11e0');
    const response = await upload('students', file, 'OLD LIST.XLS');
    expect(response.statusCode).toBe(200);
    expect(response.json().imported_students).toEqual([
      expect.objectContaining({ name: 'Neha Joshi', class_name: '8', phone: '+919811122333' }),
      expect.objectContaining({ name: 'Arjun Mehta Rao', class_name: '7', phone: '+919811122444' }),
      // One name, as the Add Student dialog takes it (issue 28).
      expect.objectContaining({ name: 'Madonna', class_name: '9', phone: '+919811122555' }),
    ]);
    expect(response.json().errors).toEqual([]);
    const [arjun] = await api.db.query<{ full_name: string }>(
      "SELECT full_name FROM students WHERE parent_phone = '+919811122444'",
    );
    expect(arjun?.full_name).toBe('Arjun Mehta Rao');
  });

  it('matches headers forgivingly and prefers Parent Phone over a plain Phone column', async () => {
    const file = workbook([
      ['SURNAME', 'given-name', 'Std.', 'Phone', 'Parent_Phone', "Father's Name", 'Notes'],
      ['Kapoor', 'Riya', ' 10th ', '+919800000001', '+91 (98) 0000-0002', 'Raj Kapoor', 'left early'],
    ]);
    const response = await upload('students', file, 'x.xlsx', { query: '?dry_run=true' });
    expect(response.statusCode).toBe(200);
    expect(response.json().imported_students).toEqual([
      { name: 'Riya Kapoor', phone: '+919800000002', class_name: '10', unique_id: null },
    ]);
  });

  it('takes the header from the first row that holds anything, and numbers rows as the sheet does', async () => {
    const file = workbook([
      [],
      [],
      STUDENT_HEADER,
      ['Late', 'Header', '7', nextPhone()],
      [],
      ['Bad', 'Class', '12', nextPhone()],
    ]);
    const response = await upload('students', file, 'x.xlsx', { query: '?dry_run=true' });
    expect(response.json()).toMatchObject({
      total_rows: 2,
      imported_count: 1,
      errors: [{ row: 6, error: 'class_name: must be one of 7, 8, 9 or 10' }],
    });
  });

  it('reports a row already on record as already imported, one that repeats an earlier row as an error, and never imports one twice', async () => {
    const existing = await api.student({
      full_name: 'Meera Iyer',
      parent_phone: '+919800000101',
    });
    const file = workbook([
      STUDENT_HEADER,
      ['MEERA', 'iyer', '7', '+91 98000 00101'],
      ['Rahul', 'Verma', '8', '+919800000102'],
      ['rahul', 'VERMA', '9', '919800000102'],
      ['Rahul', 'Verma', '8', '+919800000103'],
    ]);
    const first = await upload('students', file);
    expect(first.json()).toMatchObject({
      message:
        'Imported 2 students. 1 row(s) were already imported and were left as they are. 1 row(s) had errors and were skipped.',
      imported_count: 2,
      already_imported: [{ row: 2, name: 'MEERA iyer', unique_id: existing.unique_id }],
      errors: [{ row: 4, error: 'Same student as row 3 (same name and parent phone)' }],
    });
    const imported = first.json().imported_students as { name: string; unique_id: string }[];
    const before = await counts();
    // The same file again: every row that was imported is reported as such, not as an error.
    const again = await upload('students', file);
    expect(again.json()).toMatchObject({
      message: 'No students were imported: 3 row(s) were already imported and 1 row(s) had errors.',
      imported_count: 0,
      imported_students: [],
      already_imported: [
        { row: 2, name: 'MEERA iyer', unique_id: existing.unique_id },
        { row: 3, name: 'Rahul Verma', unique_id: imported[0]?.unique_id },
        { row: 5, name: 'Rahul Verma', unique_id: imported[1]?.unique_id },
      ],
      errors: [{ row: 4, error: 'Same student as row 3 (same name and parent phone)' }],
    });
    // A check of it says the same, in the words of a check.
    const check = await upload('students', file, 'x.xlsx', { query: '?dry_run=true' });
    expect(check.json()).toMatchObject({
      message:
        'Check complete: no students can be imported: 3 row(s) are already imported and 1 row(s) have errors. Nothing was saved.',
      imported_count: 0,
    });
    expect(check.json().already_imported).toHaveLength(3);
    // Nothing imported: no activity row either.
    expect(await counts()).toEqual(before);
  });

  it("sets each family's WhatsApp consent and language from the optional columns, for every child, later rows winning", async () => {
    const sibling = await api.student({ full_name: 'Older Sibling', parent_phone: nextPhone() });
    const family = sibling.parent_phone;
    const other = nextPhone();
    const file = workbook([
      [...STUDENT_HEADER, 'WhatsApp consent', 'Language'],
      ['Nina', 'Patel', '8', family, 'no', 'Gujarati'],
      ['Omar', 'Patel', '8', family, 'Yes', 'हिन्दी'],
      ['Pia', 'Patel', '9', family, '', ''],
      ['Quin', 'Rao', '9', other, 'maybe', 'ta'],
      ['Ravi', 'Rao', '9', other, 'no', 'Tamil'],
    ]);
    const response = await upload('students', file);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.errors).toEqual([
      {
        row: 2,
        error:
          'Language: "Gujarati" is not a language the centre writes in; use en, hi, mr, ta, bn or ur, ' +
          "or the language's name: English, Hindi, Marathi, Tamil, Bengali or Urdu",
      },
      {
        row: 5,
        error:
          'WhatsApp consent: "maybe" is not yes or no; write yes when the parent agreed to WhatsApp messages, else no',
      },
    ]);
    const rows = await api.db.query<{ full_name: string; parent_whatsapp_opt_in: boolean; parent_language: string }>(
      'SELECT full_name, parent_whatsapp_opt_in, parent_language FROM students WHERE parent_phone = ANY($1::text[]) ORDER BY id',
      [[family, other]],
    );
    expect(rows).toEqual([
      { full_name: 'Older Sibling', parent_whatsapp_opt_in: true, parent_language: 'hi' },
      { full_name: 'Omar Patel', parent_whatsapp_opt_in: true, parent_language: 'hi' },
      { full_name: 'Pia Patel', parent_whatsapp_opt_in: true, parent_language: 'hi' },
      { full_name: 'Ravi Rao', parent_whatsapp_opt_in: false, parent_language: 'ta' },
    ]);
    const log = await api.db.query<{ phone: string; opted_in: boolean; source: string }>(
      'SELECT phone, opted_in, source FROM whatsapp_consent_log WHERE phone = ANY($1::text[])',
      [[family, other]],
    );
    expect(log).toEqual([{ phone: family, opted_in: true, source: 'import' }]);
  });

  it("logs each change of consent with the importer's name, and answers it on the family's records", async () => {
    const [one, two] = [nextPhone(), nextPhone()];
    const file = workbook([
      [...STUDENT_HEADER, 'parent_whatsapp_opt_in', 'parent_language'],
      ['Lata', 'Nair', '7', one, 'Opted in', 'Tamil'],
      ['Mohan', 'Nair', '8', one, 'y', 'தமிழ்'],
      ['Zoya', 'Ansari', '9', two, true, 'اردو'],
    ]);
    const response = await upload('students', file);
    expect(response.json()).toMatchObject({ imported_count: 3, errors: [] });
    const [admin] = await api.db.query<{ id: number }>("SELECT id FROM users WHERE username = 'admin'");
    expect(
      await api.db.query(
        `SELECT phone, opted_in, source, changed_by, changed_by_user_id FROM whatsapp_consent_log
          WHERE phone = ANY($1::text[]) ORDER BY phone`,
        [[one, two]],
      ),
    ).toEqual([
      { phone: one, opted_in: true, source: 'import', changed_by: 'Administrator', changed_by_user_id: admin?.id },
      { phone: two, opted_in: true, source: 'import', changed_by: 'Administrator', changed_by_user_id: admin?.id },
    ]);
    const listed = (await api.as('admin').get('/api/v1/students/')).json() as {
      parent_phone: string;
      parent_whatsapp_opt_in: boolean;
      parent_language: string;
      parent_whatsapp_opt_in_changed_by: string | null;
      parent_whatsapp_opt_in_changed_at: string | null;
    }[];
    const family = listed.filter((student) => [one, two].includes(student.parent_phone));
    expect(family).toHaveLength(3);
    for (const student of family) {
      expect(student).toMatchObject({
        parent_whatsapp_opt_in: true,
        parent_language: student.parent_phone === one ? 'ta' : 'ur',
        parent_whatsapp_opt_in_changed_by: 'Administrator',
        parent_whatsapp_opt_in_changed_at: expect.any(String),
      });
    }
  });

  it("keeps the family's consent and language for rows that name neither, and logs nothing", async () => {
    const older = (
      await api.as('admin').post('/api/v1/students/', {
        full_name: 'Kept Family',
        class_name: '9',
        parent_name: 'Kept Parent',
        parent_phone: nextPhone(),
        parent_whatsapp_opt_in: true,
        parent_language: 'bn',
      })
    ).json();
    const file = workbook([
      [...STUDENT_HEADER, 'parent_whatsapp_opt_in', 'parent_language'],
      ['Younger', 'Kept', '7', older.parent_phone, '', ''],
    ]);
    expect((await upload('students', file)).json()).toMatchObject({ imported_count: 1, errors: [] });
    const rows = await api.db.query(
      `SELECT parent_whatsapp_opt_in, parent_language, parent_whatsapp_opt_in_changed_by FROM students
        WHERE parent_phone = $1 ORDER BY id`,
      [older.parent_phone],
    );
    expect(rows).toEqual([
      { parent_whatsapp_opt_in: true, parent_language: 'bn', parent_whatsapp_opt_in_changed_by: 'Administrator' },
      { parent_whatsapp_opt_in: true, parent_language: 'bn', parent_whatsapp_opt_in_changed_by: 'Administrator' },
    ]);
    const log = await api.db.query('SELECT source FROM whatsapp_consent_log WHERE phone = $1', [older.parent_phone]);
    expect(log).toEqual([{ source: 'staff' }]);
  });

  it('reads consent and language as people write them, and names what to write instead', async () => {
    const header = [...STUDENT_HEADER, 'Consent', 'Language'];
    const accepted: [string | boolean, string, boolean, string][] = [
      ['YES', 'en', true, 'en'],
      ['No', 'HI', false, 'hi'],
      [false, 'hindi', false, 'hi'],
      ['1', 'हिंदी', true, 'hi'],
      ['0', 'Marathi', false, 'mr'],
      ['opted-in', 'मराठी', true, 'mr'],
      ['Consent', 'bengali', true, 'bn'],
      ['no consent', 'বাংলা', false, 'bn'],
      ['N', 'Urdu', false, 'ur'],
      ['true', 'English', true, 'en'],
    ];
    const phones = accepted.map(() => nextPhone());
    const file = workbook([
      header,
      ...accepted.map(([consent, language], i) => [
        `Spelling${i}`,
        'Case',
        '8',
        phones[i] as string,
        consent,
        language,
      ]),
      ['Wrong', 'Consent', '8', nextPhone(), 'perhaps', 'hi'],
      ['Wrong', 'Language', '8', nextPhone(), 'yes', 'French'],
      ['Wrong', 'Both', '8', nextPhone(), 'ok?', 'xx'],
    ]);
    const response = await upload('students', file, 'spellings.xlsx', { query: '?dry_run=true' });
    expect(response.json().errors).toEqual([
      { row: 12, error: expect.stringMatching(/^Consent: "perhaps" is not yes or no; write yes when/) },
      { row: 13, error: expect.stringMatching(/^Language: "French" is not a language the centre writes in; use en/) },
      {
        row: 14,
        error: expect.stringMatching(/^Consent: "ok\?" is not yes or no; .*; Language: "xx" is not a language/),
      },
    ]);
    // A dry run sets nothing; the real upload sets each family as its row says.
    expect(await api.db.query('SELECT id FROM students WHERE parent_phone = ANY($1::text[])', [phones])).toEqual([]);
    expect((await upload('students', file, 'spellings.xlsx')).json().imported_count).toBe(accepted.length);
    const rows = await api.db.query<{ parent_phone: string; parent_whatsapp_opt_in: boolean; parent_language: string }>(
      'SELECT parent_phone, parent_whatsapp_opt_in, parent_language FROM students WHERE parent_phone = ANY($1::text[])',
      [phones],
    );
    const byPhone = new Map(rows.map((row) => [row.parent_phone, [row.parent_whatsapp_opt_in, row.parent_language]]));
    expect(phones.map((phone) => byPhone.get(phone))).toEqual(
      accepted.map(([, , opted, language]) => [opted, language]),
    );
    // A family that did not opt in was never opted in: only the changes are logged.
    const logged = await api.db.query<{ phone: string }>(
      'SELECT phone FROM whatsapp_consent_log WHERE phone = ANY($1::text[]) ORDER BY phone',
      [phones],
    );
    expect(logged.map((row) => row.phone)).toEqual(phones.filter((_, i) => accepted[i]?.[2]).sort());
  });

  it('a row for a student already on record is reported as already imported and changes nothing, consent included', async () => {
    const existing = await api.student({ full_name: 'Already Here', parent_phone: nextPhone() });
    const file = workbook([
      [...STUDENT_HEADER, 'parent_whatsapp_opt_in', 'parent_language'],
      ['Already', 'Here', '7', existing.parent_phone, 'yes', 'hi'],
    ]);
    expect((await upload('students', file)).json()).toMatchObject({
      message: 'No students were imported: 1 row(s) were already imported.',
      imported_count: 0,
      already_imported: [{ row: 2, name: 'Already Here', unique_id: existing.unique_id }],
      errors: [],
    });
    expect(
      await api.db.query('SELECT parent_whatsapp_opt_in, parent_language FROM students WHERE id = $1', [existing.id]),
    ).toEqual([{ parent_whatsapp_opt_in: false, parent_language: 'en' }]);
    expect(await api.db.query('SELECT id FROM whatsapp_consent_log WHERE phone = $1', [existing.parent_phone])).toEqual(
      [],
    );
  });

  it('two uploads of one file at the same moment import its students once', async () => {
    const file = workbook([STUDENT_HEADER, ['Twin', 'One', '7', nextPhone()], ['Twin', 'Two', '8', nextPhone()]]);
    const before = await count('students');
    const [a, b] = await Promise.all([upload('students', file), upload('students', file)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().imported_count + b.json().imported_count).toBe(2);
    expect(await count('students')).toBe(before + 2);
  });

  it('checks a file without writing anything on ?dry_run=true', async () => {
    const before = await counts();
    const file = workbook([STUDENT_HEADER, ['Dry', 'Run', '7', nextPhone()], ['Bad', 'Row', '6', nextPhone()]]);
    const response = await upload('students', file, 'check.xlsx', { query: '?dry_run=true' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message:
        'Check complete: 1 student can be imported. 1 row(s) have errors and would be skipped. Nothing was saved.',
      dry_run: true,
      total_rows: 2,
      imported_count: 1,
      imported_students: [{ name: 'Dry Run', phone: expect.any(String), class_name: '7', unique_id: null }],
      already_imported: [],
      errors: [{ row: 3, error: 'class_name: must be one of 7, 8, 9 or 10' }],
    });
    expect(await counts()).toEqual(before);
    const bad = await upload('students', file, 'check.xlsx', { query: '?dry_run=maybe' });
    expect(bad.statusCode).toBe(422);
    expect(detailOf(bad)).toBe('dry_run: must be true or false');
  });

  it('reads the data sheet when an Instructions sheet or a hidden sheet comes first', async () => {
    for (const sheetBefore of [
      { name: 'Instructions', rows: [['Fill in the Students sheet']] },
      { name: 'Old', rows: [['first_name'], ['x']], hidden: true },
    ]) {
      const file = workbook([STUDENT_HEADER, ['Sheet', 'Order', '7', nextPhone()]], { sheetBefore });
      const response = await upload('students', file, 'x.xlsx', { query: '?dry_run=1' });
      expect(response.json()).toMatchObject({ imported_count: 1, errors: [] });
    }
  });
});
