/**
 * Two staff acting at once. Each race below must end in a state some serial order of the same calls
 * would give, with every answer one that order could give, and no 5xx. On PostgreSQL (the second
 * run of the suite) the calls really overlap, on separate connections; the embedded database has one
 * connection and runs each transaction whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { checkIntegrity } from './helpers/integrity';
import {
  auth,
  createStudent,
  createTeacher,
  createTestApp,
  login,
  type TestApp,
  uniquePhone,
} from './helpers/test-app';
import { multipartBody, workbook } from './helpers/workbooks';

let t: TestApp;
let admin: string;
const statuses: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(async () => {
  expect(statuses.filter((status) => status >= 500)).toEqual([]);
  expect(await checkIntegrity(t.db)).toEqual([]);
  await t.close();
});

async function send(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const response = await t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: auth(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  statuses.push(response.statusCode);
  return response;
}

async function classOf(className: string, size: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < size; i += 1) {
    ids.push((await createStudent(t.app, admin, { full_name: `Race ${className}-${i}`, class_name: className })).id);
  }
  return ids;
}

describe('concurrent approvals', () => {
  it('approve each record once, alert each absence once, and answer the latecomers 409', async () => {
    const students = await classOf('9', 30);
    const date = addDays(today(), -1);
    const marked = await send(admin, 'POST', '/attendance/mark', {
      date,
      records: students.map((id, i) => ({ student_id: id, status: i % 5 === 0 ? 'absent' : 'present' })),
    });
    expect(marked.statusCode).toBe(200);
    const ids = (await send(admin, 'GET', `/attendance/pending-approval?attendance_date=${date}`)).json() as {
      id: number;
    }[];
    const all = ids.map((record) => record.id);
    const messagesBefore = await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM messages');

    const answers = await Promise.all(
      [all, all, all.slice(0, 15), all.slice(10)].map((batch) =>
        send(admin, 'POST', '/attendance/approve', { attendance_ids: batch }),
      ),
    );
    for (const answer of answers) expect([200, 409]).toContain(answer.statusCode);
    const approvedCounts = answers
      .filter((answer) => answer.statusCode === 200)
      .map((answer) => answer.json().approved_count as number);
    expect(approvedCounts.reduce((sum, n) => sum + n, 0)).toBe(all.length);

    const rows = await t.db.query<{ approved: number }>(
      'SELECT count(*)::int AS approved FROM attendance WHERE id = ANY($1::int[]) AND approved_at IS NOT NULL',
      [all],
    );
    expect(rows[0]?.approved).toBe(all.length);
    const messagesAfter = await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM messages');
    expect((messagesAfter[0]?.count ?? 0) - (messagesBefore[0]?.count ?? 0)).toBe(students.length / 5);
  });
});

describe('two teachers marking the same class at once', () => {
  it('leaves one teacher’s marks whole, never a mix, whichever order the rows come in', async () => {
    const students = await classOf('7', 25);
    const first = await createTeacher(t.app, admin, { first_name: 'Asha', classes_assigned: ['7'] });
    const second = await createTeacher(t.app, admin, { first_name: 'Bina', classes_assigned: ['7'] });
    const tokens = [
      await login(t.app, first.username, first.initial_password),
      await login(t.app, second.username, second.initial_password),
    ] as const;
    for (let round = 0; round < 4; round += 1) {
      const date = addDays(today(), -(round + 2));
      const answers = await Promise.all([
        send(tokens[0], 'POST', '/attendance/mark', {
          date,
          records: students.map((id) => ({ student_id: id, status: 'present' })),
        }),
        send(tokens[1], 'POST', '/attendance/mark', {
          date,
          records: [...students].reverse().map((id) => ({ student_id: id, status: 'absent', remarks: 'second' })),
        }),
      ]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
      const rows = await t.db.query<{ status: string; marked_by: string }>(
        'SELECT status, marked_by FROM attendance WHERE student_id = ANY($1::int[]) AND date = $2',
        [students, date],
      );
      expect(rows).toHaveLength(students.length);
      const outcomes = new Set(rows.map((row) => `${row.status} by ${row.marked_by}`));
      expect(outcomes.size).toBe(1);
    }
  });
});

describe('a teacher deleted while their attendance is being saved', () => {
  it('either the save comes first and the delete takes its rows, or the save is refused whole with 404', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round += 1) {
      const doomed = await createTeacher(t.app, admin, { first_name: `Doomed${round}` });
      const staying = await createTeacher(t.app, admin, { first_name: `Staying${round}` });
      const date = addDays(today(), -round);
      const [saved, deleted] = await Promise.all([
        send(admin, 'POST', '/teacher-attendance/mark', {
          date,
          teacher_records: [
            { teacher_id: staying.id, status: 'present' },
            { teacher_id: doomed.id, status: 'present' },
          ],
        }),
        send(admin, 'DELETE', `/teachers/${doomed.id}`),
      ]);
      expect(deleted.statusCode).toBe(200);
      expect([200, 404]).toContain(saved.statusCode);
      outcomes.add(String(saved.statusCode));
      const rows = await t.db.query<{ teacher_id: number }>(
        'SELECT teacher_id FROM teacher_attendance WHERE teacher_id = ANY($1::int[]) AND date = $2',
        [[doomed.id, staying.id], date],
      );
      expect(rows.map((row) => row.teacher_id)).toEqual(saved.statusCode === 200 ? [staying.id] : []);
      const accounts = await t.db.query('SELECT 1 FROM teachers WHERE id = $1', [doomed.id]);
      expect(accounts).toEqual([]);
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });
});

describe('clear-all during an import', () => {
  it('ends with the import whole or cleared whole, never part of it', async () => {
    for (let round = 0; round < 3; round += 1) {
      const rows: (string | number)[][] = [['First Name', 'Last Name', 'Class', 'Parent Mobile', 'Parent Name']];
      for (let i = 0; i < 200; i += 1) rows.push([`Import${round}`, `Row ${i}`, '8', uniquePhone(), 'Parent']);
      const body = multipartBody([{ field: 'file', filename: 'students.xlsx', content: workbook(rows) }]);
      const [imported, cleared] = await Promise.all([
        t.app
          .inject({
            method: 'POST',
            url: '/api/v1/import/students/import',
            headers: { ...auth(admin), ...body.headers },
            payload: body.payload,
          })
          .then((response) => {
            statuses.push(response.statusCode);
            return response;
          }),
        send(admin, 'DELETE', '/students/clear-all'),
      ]);
      expect(imported.statusCode).toBe(200);
      expect(imported.json().imported_count).toBe(200);
      expect(cleared.statusCode).toBe(200);
      const left = await t.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM students WHERE full_name LIKE $1',
        [`Import${round} %`],
      );
      expect([0, 200]).toContain(left[0]?.count);
      // No attendance or message left pointing at a student that is gone.
      expect(await checkIntegrity(t.db)).toEqual([]);
    }
  });
});

describe('two admins editing the same student at once', () => {
  it('keeps one edit whole', async () => {
    const student = await createStudent(t.app, admin, { full_name: 'Edit Target', class_name: '10' });
    const edits = [
      { full_name: 'Edit One', class_name: '9', parent_name: 'Parent One', parent_phone: uniquePhone() },
      { full_name: 'Edit Two', class_name: '8', parent_name: 'Parent Two', parent_phone: uniquePhone() },
    ];
    const answers = await Promise.all(edits.map((edit) => send(admin, 'PUT', `/students/${student.id}`, edit)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const [row] = await t.db.query<Record<string, string>>(
      'SELECT full_name, class_name, parent_name, parent_phone FROM students WHERE id = $1',
      [student.id],
    );
    expect(edits).toContainEqual(row);
  });
});
