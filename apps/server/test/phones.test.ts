import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress, type TestClient, testClient } from './helpers/client';
import { detailOf } from './helpers/test-app';
import { workbook } from './helpers/workbooks';

let api: TestClient;

beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

let counter = 0;
/** A distinct ten-digit Indian mobile number, as its digits (no country code). */
function localNumber(): string {
  counter += 1;
  return `7${String(process.pid % 1000).padStart(3, '0')}${String(counter).padStart(6, '0')}`;
}

/** The ways people in India write one number, each with the E.164 it is stored as. */
const WRITTEN_FORMS: [string, (digits: string) => string][] = [
  ['98123 45670', (d) => `${d.slice(0, 5)} ${d.slice(5)}`],
  ['098123-45670', (d) => `0${d.slice(0, 5)}-${d.slice(5)}`],
  ['+91 98123 45670', (d) => `+91 ${d.slice(0, 5)} ${d.slice(5)}`],
  ['0091 9812345670', (d) => `0091 ${d}`],
  ['(981) 234-5670', (d) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`],
  ['9812345670', (d) => d],
];

const student = (parentPhone: unknown) => ({
  full_name: 'Phone Form',
  class_name: '8',
  parent_name: 'Parent Form',
  parent_phone: parentPhone,
});

const teacher = (phone: unknown) => ({
  first_name: 'Phone',
  last_name: 'Teacher',
  phone_number: phone,
  subjects: ['Science'],
  classes_assigned: ['8'],
});

async function storedParentPhone(id: number): Promise<string | undefined> {
  const rows = await api.db.query<{ parent_phone: string }>('SELECT parent_phone FROM students WHERE id = $1', [id]);
  return rows[0]?.parent_phone;
}

async function count(table: 'students' | 'teachers'): Promise<number> {
  const [row] = await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return row?.n ?? 0;
}

const TEN_DIGITS = 'Enter the phone number with 10 digits';
const EXAMPLE = 'or with its country code, e.g. +91 98123 45670';

/** Numbers still refused, and the words that say what to fix. */
const REFUSED: [string, string, string][] = [
  ['too short', '98123 4567', `${TEN_DIGITS} (this one has 9), ${EXAMPLE}`],
  ['too long', '98123 456701', `${TEN_DIGITS} (this one has 11), ${EXAMPLE}`],
  [
    'a letter in it',
    '98123 4567O',
    'Remove "O" from the phone number: digits only, with spaces, dashes or brackets if you like',
  ],
  ['words', 'ask the office', `${TEN_DIGITS}, ${EXAMPLE}`],
  [
    'too many digits after the +',
    '+91 98123 45670 12345',
    'After the + come the country code and the number, 8 to 15 digits in all (this one has 17): check the phone number',
  ],
];

describe('students: phones as people write them', () => {
  it.each(WRITTEN_FORMS)('takes a parent phone written like %s and stores it as E.164', async (_form, write) => {
    const digits = localNumber();
    const response = await api.as('admin').post('/api/v1/students/', student(write(digits)));
    expect(response.statusCode).toBe(201);
    expect(response.json().parent_phone).toBe(`+91${digits}`);
    expect(await storedParentPhone(response.json().id)).toBe(`+91${digits}`);
  });

  it('takes a spreadsheet-style number (JSON number) as its digits', async () => {
    const digits = localNumber();
    const response = await api.as('teacher').post('/api/v1/students/', student(Number(digits)));
    expect(response.statusCode).toBe(201);
    expect(response.json().parent_phone).toBe(`+91${digits}`);
  });

  it('stores an edited phone written locally as E.164, and a teacher may do it too', async () => {
    const created = await api.student();
    const digits = localNumber();
    const response = await api
      .as('teacher')
      .put(`/api/v1/students/${created.id}`, { parent_phone: `0${digits.slice(0, 5)} ${digits.slice(5)}` });
    expect(response.statusCode).toBe(200);
    expect(await storedParentPhone(created.id)).toBe(`+91${digits}`);
  });

  it('finds the family of a number written differently: the same phone is the same family', async () => {
    const digits = localNumber();
    const first = await api.student({ full_name: 'Elder Sibling', parent_phone: `+91${digits}` });
    const second = await api.student({
      full_name: 'Younger Sibling',
      parent_phone: `${digits.slice(0, 5)} ${digits.slice(5)}`,
    });
    expect(second.parent_phone).toBe(first.parent_phone);
  });

  it.each(REFUSED)(
    'refuses a parent phone %s with 422 on the field, saying what to fix',
    async (_case, written, words) => {
      const before = await count('students');
      const response = await api.as('admin').post('/api/v1/students/', student(written));
      expect(response.statusCode).toBe(422);
      expect(detailOf(response)).toBe(`parent_phone: ${words}`);
      expect(await count('students')).toBe(before);
    },
  );

  it('refuses a phone that is neither text nor a whole number', async () => {
    const response = await api.as('admin').post('/api/v1/students/', student({ phone: 1 }));
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toBe('parent_phone: must be a phone number written as text, e.g. +91 98123 45670');
  });

  it('leaves a student unchanged when the edited phone is refused', async () => {
    const created = await api.student();
    const response = await api.as('admin').put(`/api/v1/students/${created.id}`, {
      full_name: 'Not Saved',
      parent_phone: '12345',
    });
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toBe(`parent_phone: ${TEN_DIGITS} (this one has 5), ${EXAMPLE}`);
    expect(await storedParentPhone(created.id)).toBe(created.parent_phone);
  });
});

describe('teachers: phones as people write them', () => {
  it.each(WRITTEN_FORMS)('takes a phone number written like %s and stores it as E.164', async (_form, write) => {
    const digits = localNumber();
    const response = await api.as('admin').post('/api/v1/teachers/', teacher(write(digits)));
    expect(response.statusCode).toBe(201);
    expect(response.json().phone_number).toBe(`+91${digits}`);
  });

  it('stores an edited phone written locally as E.164', async () => {
    const created = await api.teacher();
    const digits = localNumber();
    const response = await api.as('admin').put(`/api/v1/teachers/${created.id}`, { phone_number: digits });
    expect(response.statusCode).toBe(200);
    expect(response.json().phone_number).toBe(`+91${digits}`);
  });

  it.each(REFUSED)('refuses a phone number %s with 422 on the field', async (_case, written, words) => {
    const before = await count('teachers');
    const response = await api.as('admin').post('/api/v1/teachers/', teacher(written));
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toBe(`phone_number: ${words}`);
    expect(await count('teachers')).toBe(before);
  });
});

describe('imports: phones as the file writes them', () => {
  const importFile = (kind: 'students' | 'teachers', rows: (string | number | null)[][]) =>
    api
      .as('admin')
      .upload(`/api/v1/import/${kind}/import`, [{ field: 'file', filename: `${kind}.xlsx`, content: workbook(rows) }]);

  it('imports students with local numbers as E.164, and names a bad one by row and column in plain words', async () => {
    const numbers = WRITTEN_FORMS.map(() => localNumber());
    const numeric = localNumber();
    const response = await importFile('students', [
      ['First Name', 'Last Name', 'Class', 'Parent Mobile'],
      ...WRITTEN_FORMS.map(([, write], i) => [`Imported${i}`, 'Child', '9', write(numbers[i] as string)]),
      ['Numeric', 'Cell', '9', Number(numeric)],
      ['Short', 'Number', '9', '98123 456'],
    ]);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result.imported_students.map((row: { phone: string }) => row.phone)).toEqual([
      ...numbers.map((digits) => `+91${digits}`),
      `+91${numeric}`,
    ]);
    expect(result.errors).toEqual([{ row: 9, error: `Parent Mobile: ${TEN_DIGITS} (this one has 8), ${EXAMPLE}` }]);
  });

  it('imports teachers with local numbers as E.164, and names a bad one by row and column', async () => {
    const digits = localNumber();
    const response = await importFile('teachers', [
      ['first_name', 'last_name', 'email', 'phone_number'],
      ['Local', 'Number', `local.${digits}@example.com`, `0${digits}`],
      ['Letter', 'Number', `letter.${digits}@example.com`, '98123 4567O'],
    ]);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result.imported_teachers.map((row: { phone: string }) => row.phone)).toEqual([`+91${digits}`]);
    expect(result.errors).toEqual([
      {
        row: 3,
        error:
          'phone_number: Remove "O" from the phone number: digits only, with spaces, dashes or brackets if you like',
      },
    ]);
  });
});

describe('parent sign-in with the number as the parent writes it', () => {
  it.each(WRITTEN_FORMS)('signs in with the phone written like %s', async (_form, write) => {
    const family = await api.family();
    const digits = family.phone.replace(/^\+91/, '');
    const response = await api
      .anonymous()
      .post('/api/v1/parent/login', { phone: write(digits), code: family.code }, { remoteAddress: freshAddress() });
    expect(response.statusCode).toBe(200);
    expect(response.json().parent.phone).toBe(family.phone);
  });

  it('tells a parent what to fix in their own number, on the phone field', async () => {
    const response = await api
      .anonymous()
      .post('/api/v1/parent/login', { phone: '98123 4567', code: 'ABCD-EF23' }, { remoteAddress: freshAddress() });
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toBe(
      'phone: Enter your phone number with 10 digits (this one has 9), or with its country code, e.g. +91 98123 45670',
    );
  });
});

describe('GET and PUT /settings/phones', () => {
  const put = (value: unknown, role: 'admin' | 'teacher' = 'admin') =>
    api.as(role).put('/api/v1/settings/phones', { default_country_code: value });

  it('answers the default, +91, to every member of staff', async () => {
    for (const role of ['admin', 'teacher'] as const) {
      const response = await api.as(role).get('/api/v1/settings/phones');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ default_country_code: '+91' });
    }
  });

  it.each(['', '+', '+0', '+1234', 'India', '+9 1a', null])(
    'refuses %j with 422 saying what a code looks like',
    async (value) => {
      const response = await put(value);
      expect(response.statusCode).toBe(422);
      expect(detailOf(response)).toBe(
        'default_country_code: must be + and the 1 to 3 digits of a country calling code, e.g. +91 for India or +44 for the UK',
      );
      expect((await api.as('admin').get('/api/v1/settings/phones')).json()).toEqual({ default_country_code: '+91' });
    },
  );

  it('refuses teachers (403) and changes nothing', async () => {
    const response = await put('+44', 'teacher');
    expect(response.statusCode).toBe(403);
    expect((await api.as('admin').get('/api/v1/settings/phones')).json()).toEqual({ default_country_code: '+91' });
  });

  it("gives numbers written without a code the centre's new code, leaves stored ones alone, and says so in the activity feed", async () => {
    const before = await api.student({ parent_phone: `+91${localNumber()}` });
    try {
      const response = await put('44');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ default_country_code: '+44' });
      const activities = await api.db.query<{ description: string }>(
        "SELECT description FROM activities WHERE action = 'settings.updated' ORDER BY id DESC LIMIT 1",
      );
      expect(activities[0]?.description).toMatch(/set the country code for phone numbers written without one to \+44$/);
      const uk = await api.as('admin').post('/api/v1/students/', student('07400 123456'));
      expect(uk.statusCode).toBe(201);
      expect(uk.json().parent_phone).toBe('+447400123456');
      const refused = await api.as('admin').post('/api/v1/students/', student('7400 1234'));
      expect(detailOf(refused)).toBe(
        'parent_phone: Enter the phone number with 9 or 10 digits (this one has 8), or with its country code, e.g. +44 7400 123456',
      );
      expect(await storedParentPhone(before.id)).toBe(before.parent_phone);
    } finally {
      expect((await put('+91')).statusCode).toBe(200);
    }
  });
});
