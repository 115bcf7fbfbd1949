/**
 * The import's row parsers on their own, with no database and no workbook: a sheet as the reader
 * gives it (header, numbered rows of cell texts) in, the records and the row errors out. The HTTP
 * side and the duplicates already on record are in imports.test.ts.
 */
import { SUBJECTS } from '@tuitiondesk/contract';
import { describe, expect, it } from 'vitest';
import { parseStudentRows, parseTeacherRows } from '../src/modules/imports/parse-rows';
import type { Sheet } from '../src/modules/imports/spreadsheet';

/** A sheet whose header is on row 1 and whose rows follow from row 2, as a reader hands it over. */
function sheet(headers: string[], ...rows: string[][]): Sheet {
  return {
    name: 'Sheet1',
    headerRow: 1,
    headers,
    rows: rows.map((cells, index) => ({ row: index + 2, cells })),
  };
}

const STUDENTS = ['first_name', 'last_name', 'class_name', 'parent_phone', 'parent_name'];
const TEACHERS = ['first_name', 'last_name', 'email', 'phone_number', 'subjects', 'classes_assigned'];

/** The student parser on these rows under the STUDENTS columns. */
const studentRows = (...rows: string[][]) => parseStudentRows(sheet(STUDENTS, ...rows), '+91');
/** The teacher parser on these rows under the TEACHERS columns. */
const teacherRows = (...rows: string[][]) => parseTeacherRows(sheet(TEACHERS, ...rows), '+91');

describe('parseStudentRows', () => {
  it('reads valid rows into students and reports the others by sheet row, in one pass', () => {
    const parsed = studentRows(
      ['Aarav', 'Mehta', '7', '+919876500001', '  Rohit   Mehta '],
      ['Diya', '', '8', '+919876500002', ''],
      ['Kabir', 'Rao', '12', '+919876500003', ''],
      ['Meera', 'Iyer', '9', '98765', ''],
      ['Sana', 'Khan', '10', '+919876500005', ''],
    );
    expect(parsed.total).toBe(5);
    expect(parsed.valid).toEqual([
      {
        row: 2,
        record: {
          full_name: 'Aarav Mehta',
          class_name: '7',
          parent_name: 'Rohit Mehta',
          parent_phone: '+919876500001',
        },
      },
      // One name, as the Add Student dialog takes it (issue 28).
      {
        row: 3,
        record: { full_name: 'Diya', class_name: '8', parent_name: '', parent_phone: '+919876500002' },
      },
      {
        row: 6,
        record: { full_name: 'Sana Khan', class_name: '10', parent_name: '', parent_phone: '+919876500005' },
      },
    ]);
    expect(parsed.errors.map((error) => error.row)).toEqual([4, 5]);
    expect(parsed.errors[0]?.error).toBe('class_name: must be one of 7, 8, 9 or 10');
    expect(parsed.errors[1]?.error).toMatch(/^parent_phone: /);
  });

  it('names the columns as the file heads them, and reads a single Name column as first and last name', () => {
    const parsed = parseStudentRows(
      sheet(
        ['Student Name', 'Class', 'Parent Mobile', 'Phone'],
        ['Aarav Kumar Mehta', '7', '+919876500011', '+919800000000'],
        ['Diya', '8', '+919876500012', ''],
        ['Kabir Rao', '', '', ''],
      ),
      '+91',
    );
    // Parent Mobile wins over a plain Phone column.
    expect(parsed.valid).toEqual([
      {
        row: 2,
        record: { full_name: 'Aarav Kumar Mehta', class_name: '7', parent_name: '', parent_phone: '+919876500011' },
      },
      // One name, as the Add Student dialog takes it (issue 28).
      { row: 3, record: { full_name: 'Diya', class_name: '8', parent_name: '', parent_phone: '+919876500012' } },
    ]);
    expect(parsed.errors).toEqual([{ row: 4, error: 'Class: is required; Parent Mobile: is required' }]);
    expect(parsed.label('parent_phone')).toBe('Parent Mobile');
    expect(parsed.label('first_name')).toBe('Student Name');
  });

  it("refuses the template's example row and a repeat of an earlier row (name without case, same phone)", () => {
    const parsed = studentRows(
      ['Aarav', 'Sharma', '7', '+919876543210', 'Rohit Sharma'],
      ['Kabir', 'Rao', '7', '+919876500021', ''],
      ['KABIR', 'rao', '8', '+919876500021', ''],
      ['Kabir', 'Rao', '8', '+919876500022', ''],
    );
    expect(parsed.valid.map((entry) => entry.row)).toEqual([3, 5]);
    expect(parsed.errors).toEqual([
      { row: 2, error: "This is the template's example row; delete it, or replace it with a real record" },
      { row: 4, error: 'Same student as row 3 (same name and parent phone)' },
    ]);
  });

  it('skips blank rows unreported and counts only the rows that hold something the import reads', () => {
    const parsed = parseStudentRows(
      sheet(
        [...STUDENTS, 'notes'],
        ['', '', '', '', '', 'a note under no column the import reads'],
        ['Aarav', 'Mehta', '7', '+919876500031', '', ''],
      ),
      '+91',
    );
    expect(parsed.total).toBe(1);
    expect(parsed.errors).toEqual([]);
    expect(parsed.valid.map((entry) => entry.row)).toEqual([3]);
  });

  it('refuses the whole sheet when a required column is missing, or when no row holds anything', () => {
    expect(() => parseStudentRows(sheet(['first_name', 'last_name', 'class'], ['Aarav', 'Mehta', '7']), '+91')).toThrow(
      expect.objectContaining({
        message:
          'Missing required column: parent_phone. The first row must hold the column names ' +
          "(this file's has: first_name, last_name, class); download the template to see them",
        code: 'imports.missing_columns',
      }),
    );
    expect(() => studentRows(['', '', '', '', ''])).toThrow(
      expect.objectContaining({
        message:
          'The file has no data rows under the header (row 1); add one row per record under the column names and try again',
        code: 'imports.no_data_rows',
      }),
    );
  });

  it("reads the family's consent and language under the headers people use; a WhatsApp column is the phone", () => {
    const parsed = parseStudentRows(
      sheet(
        ['Name', 'Class', 'WhatsApp', 'WhatsApp Consent', 'Preferred Language'],
        ['Aarav Mehta', '7', '+919876500041', 'Yes', 'हिन्दी'],
        ['Diya Mehta', '8', '+919876500041', '', ''],
        ['Kabir Rao', '9', '+919876500042', 'maybe', 'Kannada'],
      ),
      '+91',
    );
    expect(parsed.valid.map((entry) => entry.record)).toEqual([
      expect.objectContaining({ parent_phone: '+919876500041', parent_whatsapp_opt_in: true, parent_language: 'hi' }),
      expect.objectContaining({
        parent_phone: '+919876500041',
        parent_whatsapp_opt_in: undefined,
        parent_language: undefined,
      }),
    ]);
    expect(parsed.errors).toEqual([
      {
        row: 4,
        error:
          'WhatsApp Consent: "maybe" is not yes or no; write yes when the parent agreed to WhatsApp messages, else no; ' +
          'Preferred Language: "Kannada" is not a language the centre writes in; use en, hi, mr, ta, bn or ur, ' +
          "or the language's name: English, Hindi, Marathi, Tamil, Bengali or Urdu",
      },
    ]);
  });
});

describe('parseTeacherRows', () => {
  it('matches subjects and classes forgivingly, drops repeats, and reads experience written in words', () => {
    const parsed = parseTeacherRows(
      sheet(
        [...TEACHERS, 'experience', 'address', 'qualification'],
        [
          'Anjali',
          'Deshpande',
          'anjali@example.com',
          '+919822041567',
          'maths; Physics, MATHS',
          '9, class 10',
          '5 years',
          '  B-302, Kothrud\nPune  ',
          '  M.Sc.   Maths ',
        ],
      ),
      '+91',
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.valid).toHaveLength(1);
    expect(parsed.valid[0]?.record).toMatchObject({
      first_name: 'Anjali',
      last_name: 'Deshpande',
      email: 'anjali@example.com',
      subjects: ['Mathematics', 'Physics'],
      classes_assigned: ['9', '10'],
      experience_years: 5,
      address: 'B-302, Kothrud\nPune',
      qualification: 'M.Sc. Maths',
    });
  });

  it('names every problem of a row at once: empty required cells, unknown subjects and classes', () => {
    const parsed = teacherRows(['Rahul', 'Kulkarni', '', '+919850312784', 'Physics, Astrology', '9, 14']);
    expect(parsed.valid).toEqual([]);
    expect(parsed.errors).toHaveLength(1);
    expect(parsed.errors[0]?.row).toBe(2);
    expect(parsed.errors[0]?.error).toMatch(
      new RegExp(
        `^email: is required; subjects: "Astrology" is not a subject; use ${SUBJECTS.join(', ')}; ` +
          'classes_assigned: "14" is not a class: each .+$',
      ),
    );
  });

  it('reports what the schema refuses by the header the file uses', () => {
    const parsed = parseTeacherRows(
      sheet(
        ['Teacher Name', 'E-mail', 'Mobile', 'Experience'],
        ['Priya Nair', 'not-an-email', '+919767455021', '5'],
        ['Meera Iyer', 'meera@example.com', '+919881276530', 'many'],
      ),
      '+91',
    );
    expect(parsed.valid).toEqual([]);
    expect(parsed.errors.map((error) => error.row)).toEqual([2, 3]);
    expect(parsed.errors[0]?.error).toMatch(/^E-mail: /);
    expect(parsed.errors[1]?.error).toMatch(/^Experience: /);
    expect(parsed.label('email')).toBe('E-mail');
  });

  it('refuses an email used by an earlier row, and the example row of the template', () => {
    const parsed = teacherRows(
      ['Priya', 'Nair', 'priya.nair@example.com', '+919812345678', '', ''],
      ['Vikram', 'Rathore', 'vikram@example.com', '+917038621945', '', ''],
      ['Vikram', 'Singh', 'vikram@example.com', '+917038621946', '', ''],
    );
    expect(parsed.valid.map((entry) => entry.row)).toEqual([3]);
    expect(parsed.errors).toEqual([
      { row: 2, error: "This is the template's example row; delete it, or replace it with a real record" },
      {
        row: 4,
        error: 'email: vikram@example.com is already used in row 3; each teacher needs their own email',
      },
    ]);
  });

  it('refuses a sheet without an email column', () => {
    expect(() =>
      parseTeacherRows(sheet(['first_name', 'last_name', 'phone'], ['Farah', 'Khan', '+919657748203']), '+91'),
    ).toThrow(/^Missing required column: email\. /);
  });
});
