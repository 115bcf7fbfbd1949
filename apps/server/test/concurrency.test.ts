/**
 * Two staff acting at once. Each race below must end in a state some serial order of the same calls
 * would give, with every answer one that order could give, and no 5xx. On PostgreSQL (the second
 * run of the suite) the calls really overlap, on separate connections; the embedded database has one
 * connection and runs each transaction whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { type TestClient, testClient } from './helpers/client';
import { checkIntegrity } from './helpers/integrity';
import { signInNewTeacher, uniquePhone } from './helpers/test-app';
import { workbook } from './helpers/workbooks';

let api: TestClient;
let admin: string;
const statuses: number[] = [];

beforeAll(async () => {
  api = await testClient();
  admin = await api.adminToken();
});
afterAll(async () => {
  expect(statuses.filter((status) => status >= 500)).toEqual([]);
  expect(await checkIntegrity(api.db)).toEqual([]);
  await api.close();
});

/** Every answer's status is kept: none may be a 5xx. */
async function send(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const response = await api.withToken(token).request(method, `/api/v1${url}`, payload);
  statuses.push(response.statusCode);
  return response;
}

/** A teacher account that has set its own password (a fresh account must change the one it was given). */
async function signedInTeacher(fields: Record<string, unknown>): Promise<{ id: number; token: string }> {
  const teacher = await signInNewTeacher(api.app, api.db, admin, fields);
  return { id: teacher.teacherId, token: teacher.token };
}

async function classOf(className: string, size: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < size; i += 1) {
    ids.push((await api.student({ full_name: `Race ${className}-${i}`, class_name: className })).id);
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
    const messagesBefore = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM messages');

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

    const rows = await api.db.query<{ approved: number }>(
      'SELECT count(*)::int AS approved FROM attendance WHERE id = ANY($1::int[]) AND approved_at IS NOT NULL',
      [all],
    );
    expect(rows[0]?.approved).toBe(all.length);
    const messagesAfter = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM messages');
    expect((messagesAfter[0]?.count ?? 0) - (messagesBefore[0]?.count ?? 0)).toBe(students.length / 5);
  });
});

describe('two teachers marking the same class at once', () => {
  it('leaves one teacher’s marks whole, never a mix, whichever order the rows come in', async () => {
    const students = await classOf('7', 25);
    const tokens = [
      (await signedInTeacher({ first_name: 'Asha', classes_assigned: ['7'] })).token,
      (await signedInTeacher({ first_name: 'Bina', classes_assigned: ['7'] })).token,
    ] as const;
    // Four days back, one round each: the centre lets teachers mark that far (the default is 2).
    const rules = { teacher_mark_days_back: 5, teachers_mark_any_class: false };
    expect((await send(admin, 'PUT', '/settings/marking', rules)).statusCode).toBe(200);
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
      const rows = await api.db.query<{ status: string; marked_by: string }>(
        'SELECT status, marked_by FROM attendance WHERE student_id = ANY($1::int[]) AND date = $2',
        [students, date],
      );
      expect(rows).toHaveLength(students.length);
      const outcomes = new Set(rows.map((row) => `${row.status} by ${row.marked_by}`));
      expect(outcomes.size).toBe(1);
    }
    await send(admin, 'PUT', '/settings/marking', { ...rules, teacher_mark_days_back: 2 });
  });
});

/**
 * The teacher's classes and the centre's rules are read, and held, inside the transaction that marks:
 * an admin's change made at the same moment either waits for the marking (which then happened under
 * the old rule, before the change answered) or comes first (and the marking is refused whole). What
 * may never happen is a marking under the old rule written after the change: the activity feed shows
 * the order in which each was written.
 */
describe('a class or a rule taken away while a teacher saves', () => {
  async function activitiesAfter(id: number): Promise<string[]> {
    const rows = await api.db.query<{ action: string }>('SELECT action FROM activities WHERE id > $1 ORDER BY id', [
      id,
    ]);
    return rows.map((row) => row.action);
  }
  async function lastActivityId(): Promise<number> {
    const rows = await api.db.query<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM activities');
    return rows[0]?.id ?? 0;
  }
  async function marksOn(date: string, students: number[]): Promise<string[]> {
    const rows = await api.db.query<{ marked_by: string }>(
      'SELECT marked_by FROM attendance WHERE student_id = ANY($1::int[]) AND date = $2',
      [students, date],
    );
    return rows.map((row) => row.marked_by);
  }

  it('a class unassigned by an admin: the marking comes whole before the change, or is refused whole with 403', async () => {
    const students = await classOf('8', 40);
    const teacher = await signedInTeacher({ first_name: 'Racing', last_name: 'Teacher', classes_assigned: ['7', '8'] });
    const date = today();
    const outcomes = new Set<number>();
    for (let round = 0; round < 8; round += 1) {
      await api.db.query('DELETE FROM attendance WHERE student_id = ANY($1::int[])', [students]);
      const restored = await send(admin, 'PUT', `/teachers/${teacher.id}`, { classes_assigned: ['7', '8'] });
      expect(restored.statusCode).toBe(200);
      const before = await lastActivityId();
      const marking = () =>
        send(teacher.token, 'POST', '/attendance/mark', {
          date,
          records: students.map((id) => ({ student_id: id, status: 'present' })),
        });
      const unassigning = () => send(admin, 'PUT', `/teachers/${teacher.id}`, { classes_assigned: ['7'] });
      // Either call may leave first.
      const [marked, unassigned] =
        round % 2 === 0
          ? await Promise.all([marking(), unassigning()])
          : await Promise.all([unassigning(), marking()]).then(([u, m]) => [m, u] as const);
      expect(unassigned.statusCode).toBe(200);
      expect([200, 403]).toContain(marked.statusCode);
      outcomes.add(marked.statusCode);
      if (marked.statusCode === 200) {
        expect(await marksOn(date, students)).toEqual(students.map(() => 'Racing Teacher'));
        expect(await activitiesAfter(before)).toEqual(['attendance.marked', 'teacher.updated']);
      } else {
        expect(marked.json().detail).toBe(
          'You can mark attendance only for your class (7). Class 8 is not assigned to you.',
        );
        expect(await marksOn(date, students)).toEqual([]);
        expect(await activitiesAfter(before)).toEqual(['teacher.updated']);
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it('the any-class rule turned off: the same, for a teacher covering a class that is not theirs', async () => {
    const students = await classOf('10', 40);
    const teacher = await signedInTeacher({ first_name: 'Cover', last_name: 'Racer', classes_assigned: ['7'] });
    const date = addDays(today(), -1);
    const open = { teacher_mark_days_back: 2, teachers_mark_any_class: true };
    for (let round = 0; round < 6; round += 1) {
      await api.db.query('DELETE FROM attendance WHERE student_id = ANY($1::int[])', [students]);
      expect((await send(admin, 'PUT', '/settings/marking', open)).statusCode).toBe(200);
      const before = await lastActivityId();
      const [marked, closed] = await Promise.all([
        send(teacher.token, 'POST', '/attendance/mark', {
          date,
          records: students.map((id) => ({ student_id: id, status: 'late' })),
        }),
        send(admin, 'PUT', '/settings/marking', { ...open, teachers_mark_any_class: false }),
      ]);
      expect(closed.statusCode).toBe(200);
      expect([200, 403]).toContain(marked.statusCode);
      const after = await activitiesAfter(before);
      if (marked.statusCode === 200) {
        expect(await marksOn(date, students)).toHaveLength(students.length);
        expect(after).toEqual(['attendance.marked', 'settings.updated']);
      } else {
        expect(await marksOn(date, students)).toEqual([]);
        expect(after).toEqual(['settings.updated']);
      }
    }
  });
});

describe('a teacher deleted while their attendance is being saved', () => {
  it('either the save comes first and the delete takes its rows, or the save is refused whole with 404', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round += 1) {
      const doomed = await api.teacher({ first_name: `Doomed${round}` });
      const staying = await api.teacher({ first_name: `Staying${round}` });
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
      const rows = await api.db.query<{ teacher_id: number }>(
        'SELECT teacher_id FROM teacher_attendance WHERE teacher_id = ANY($1::int[]) AND date = $2',
        [[doomed.id, staying.id], date],
      );
      expect(rows.map((row) => row.teacher_id)).toEqual(saved.statusCode === 200 ? [staying.id] : []);
      const accounts = await api.db.query('SELECT 1 FROM teachers WHERE id = $1', [doomed.id]);
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
      const file = { field: 'file', filename: 'students.xlsx', content: workbook(rows) };
      const [imported, cleared] = await Promise.all([
        api
          .withToken(admin)
          .upload('/api/v1/import/students/import', [file])
          .then((response) => {
            statuses.push(response.statusCode);
            return response;
          }),
        send(admin, 'DELETE', '/students/clear-all'),
      ]);
      expect(imported.statusCode).toBe(200);
      expect(imported.json().imported_count).toBe(200);
      expect(cleared.statusCode).toBe(200);
      const left = await api.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM students WHERE full_name LIKE $1',
        [`Import${round} %`],
      );
      expect([0, 200]).toContain(left[0]?.count);
      // No attendance or message left pointing at a student that is gone.
      expect(await checkIntegrity(api.db)).toEqual([]);
    }
  });
});

describe('two admins editing the same student at once', () => {
  it('keeps one edit whole', async () => {
    const student = await api.student({ full_name: 'Edit Target', class_name: '10' });
    const edits = [
      { full_name: 'Edit One', class_name: '9', parent_name: 'Parent One', parent_phone: uniquePhone() },
      { full_name: 'Edit Two', class_name: '8', parent_name: 'Parent Two', parent_phone: uniquePhone() },
    ];
    const answers = await Promise.all(edits.map((edit) => send(admin, 'PUT', `/students/${student.id}`, edit)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const [row] = await api.db.query<Record<string, string>>(
      'SELECT full_name, class_name, parent_name, parent_phone FROM students WHERE id = $1',
      [student.id],
    );
    expect(edits).toContainEqual(row);
  });
});
