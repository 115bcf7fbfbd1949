import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { expectRefusal } from './helpers/answers';
import { type TestClient, testClient } from './helpers/client';
import type { createTeacher } from './helpers/test-app';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

type Teacher = Awaited<ReturnType<typeof createTeacher>>;

/** Each test works on its own day, so the days' totals and locks do not mix. */
let dayCounter = 30;
const freshDay = () => {
  dayCounter += 1;
  return addDays(today(), -dayCounter);
};

// Every call below is the admin's: a teacher may make none of them.

function getDay(date: string) {
  return api.as('admin').get(`/api/v1/teacher-attendance/date/${date}`);
}

function mark(date: string, records: Record<string, unknown>[]) {
  return api.as('admin').post('/api/v1/teacher-attendance/mark', { date, teacher_records: records });
}

function lock(date: string, payload?: unknown, headers: Record<string, string> = {}) {
  return api.as('admin').post(`/api/v1/teacher-attendance/lock/${date}`, payload, { headers });
}

function saveRemarks(payload: Record<string, unknown>) {
  return api.as('admin').post('/api/v1/teacher-attendance/update-remarks', payload);
}

async function rowsOf(date: string) {
  return api.db.query<{
    teacher_id: number;
    status: string;
    remarks: string | null;
    check_in_time: string | null;
    check_out_time: string | null;
    marked_by_user_id: number | null;
  }>('SELECT * FROM teacher_attendance WHERE date = $1 ORDER BY teacher_id', [date]);
}

async function countActivities(action: string): Promise<number> {
  const rows = await api.db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM activities WHERE action = $1',
    [action],
  );
  return rows[0]?.count ?? 0;
}

let zoya: Teacher;
let arun: Teacher;
let bina: Teacher;
beforeAll(async () => {
  zoya = await api.teacher({ first_name: 'Zoya', last_name: 'Khan' });
  arun = await api.teacher({ first_name: 'arun', last_name: 'Mehta' });
  bina = await api.teacher({ first_name: 'Bina', last_name: 'Das' });
});

/** The teachers made here, in the order the day lists them (by name). */
const ours = (teachers: { teacher_id: number }[]) =>
  teachers.filter((entry) => [zoya.id, arun.id, bina.id].includes(entry.teacher_id));

describe('who may call the teacher-attendance endpoints', () => {
  const calls = [
    { method: 'GET' as const, url: '/api/v1/teacher-attendance/date/2026-01-05' },
    { method: 'POST' as const, url: '/api/v1/teacher-attendance/mark' },
    { method: 'POST' as const, url: '/api/v1/teacher-attendance/lock/2026-01-05' },
    { method: 'POST' as const, url: '/api/v1/teacher-attendance/update-remarks' },
  ];

  it.each(calls)('$method $url answers 401 without a token', async ({ method, url }) => {
    const response = await api.anonymous().request(method, url, method === 'POST' ? {} : undefined);
    expectRefusal(response, 401, 'Not authenticated');
  });

  it.each(calls)('$method $url refuses a teacher with 403', async ({ method, url }) => {
    const response = await api.as('teacher').request(method, url, method === 'POST' ? {} : undefined);
    expectRefusal(response, 403, 'You do not have permission to do this');
  });
});

describe('GET /teacher-attendance/date/{date}', () => {
  it('lists every teacher by name as not_marked, with the totals, on a day nothing is marked', async () => {
    const date = freshDay();
    const response = await getDay(date);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ date, is_locked: false, locked_at: null, locked_by: null, marked_attendance: 0 });
    expect(body.total_teachers).toBe(body.teachers.length);
    expect(body.pending_count).toBe(body.total_teachers);
    const names = body.teachers.map((entry: { teacher_name: string }) => entry.teacher_name.toLowerCase());
    expect([...names].sort()).toEqual(names);
    expect(ours(body.teachers).map((entry) => entry.teacher_id)).toEqual([arun.id, bina.id, zoya.id]);
    expect(body.teachers.find((entry: { teacher_id: number }) => entry.teacher_id === zoya.id)).toEqual({
      teacher_id: zoya.id,
      teacher_unique_id: zoya.unique_id,
      teacher_name: 'Zoya Khan',
      phone_number: expect.stringMatching(/^\+\d+$/),
      status: 'not_marked',
      remarks: null,
      check_in_time: null,
      check_out_time: null,
      is_locked: false,
    });
  });

  it('counts marked teachers; a remarks-only row stays pending', async () => {
    const date = freshDay();
    await mark(date, [
      { teacher_id: zoya.id, status: 'present', check_in_time: '09:05', check_out_time: null },
      { teacher_id: arun.id, status: 'half_day', remarks: 'doctor' },
    ]);
    await saveRemarks({ teacher_id: bina.id, date, remarks: 'late train' });
    const body = (await getDay(date)).json();
    expect(body.marked_attendance).toBe(2);
    expect(body.pending_count).toBe(body.total_teachers - 2);
    const [a, b, z] = ours(body.teachers) as Record<string, unknown>[];
    expect(a).toMatchObject({ status: 'half_day', remarks: 'doctor' });
    expect(b).toMatchObject({ status: 'not_marked', remarks: 'late train' });
    expect(z).toMatchObject({ status: 'present', check_in_time: '09:05', check_out_time: null });
  });

  it.each([
    ['2026-02-30', 'date: is not a real calendar date'],
    ['today', 'date: must be a date written yyyy-MM-dd'],
  ])('refuses /date/%s with 422', async (date, detail) => {
    expectRefusal(await getDay(date), 422, detail);
  });
});

describe('POST /teacher-attendance/mark', () => {
  it('saves one row per teacher and date, with one activity row; saving again updates the rows', async () => {
    const date = freshDay();
    const before = await countActivities('teacher_attendance.marked');
    const response = await mark(date, [
      { teacher_id: zoya.id, status: 'present', remarks: 'on time', check_in_time: null, check_out_time: null },
      { teacher_id: arun.id, status: 'on_leave', remarks: null, check_in_time: null, check_out_time: null },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ marked_count: 2, message: 'Attendance saved successfully for 2 teachers!' });
    expect(await countActivities('teacher_attendance.marked')).toBe(before + 1);
    const rows = await rowsOf(date);
    expect(rows.map((row) => [row.teacher_id, row.status, row.remarks])).toEqual(
      [
        [zoya.id, 'present', 'on time'],
        [arun.id, 'on_leave', null],
      ].sort((x, y) => (x[0] as number) - (y[0] as number)),
    );
    expect(rows[0]?.marked_by_user_id).toEqual(expect.any(Number));

    const again = await mark(date, [{ teacher_id: zoya.id, status: 'absent' }]);
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toBe('Attendance saved successfully for 1 teachers!');
    const after = await rowsOf(date);
    expect(after).toHaveLength(2);
    expect(after.find((row) => row.teacher_id === zoya.id)).toMatchObject({ status: 'absent', remarks: 'on time' });
  });

  it('answers 404 for an unknown teacher and writes nothing', async () => {
    const date = freshDay();
    const response = await mark(date, [
      { teacher_id: zoya.id, status: 'present' },
      { teacher_id: 777_777, status: 'present' },
    ]);
    expectRefusal(response, 404, 'Teacher with id 777777 was not found');
    expect(await rowsOf(date)).toEqual([]);
  });

  it('answers 422 for a teacher listed twice', async () => {
    const response = await mark(freshDay(), [
      { teacher_id: zoya.id, status: 'present' },
      { teacher_id: zoya.id, status: 'absent' },
    ]);
    expectRefusal(response, 422, `teacher_records[1].teacher_id: teacher ${zoya.id} is listed more than once`);
  });

  it.each([
    ['no date', { teacher_records: [{ teacher_id: 1, status: 'present' }] }, /^date: /],
    ['a bad date', { date: '2026-02-30', teacher_records: [{ teacher_id: 1, status: 'present' }] }, /^date: /],
    ['no records', { date: '2026-01-05' }, /^teacher_records: must be a list of teacher records$/],
    ['empty records', { date: '2026-01-05', teacher_records: [] }, /^teacher_records: must hold at least one/],
    [
      'status not_marked',
      { date: '2026-01-05', teacher_records: [{ teacher_id: 1, status: 'not_marked' }] },
      /^teacher_records\[0\]\.status: must be one of present, absent, half_day or on_leave$/,
    ],
    [
      'a teacher id that is not a number',
      { date: '2026-01-05', teacher_records: [{ teacher_id: 'x', status: 'present' }] },
      /^teacher_records\[0\]\.teacher_id: must be a teacher id$/,
    ],
    [
      'a teacher id out of range',
      { date: '2026-01-05', teacher_records: [{ teacher_id: 3_000_000_000, status: 'present' }] },
      /^teacher_records\[0\]\.teacher_id: is not a known id$/,
    ],
    [
      'a bad check-in time',
      { date: '2026-01-05', teacher_records: [{ teacher_id: 1, status: 'present', check_in_time: '9am' }] },
      /^teacher_records\[0\]\.check_in_time: must be a time written HH:mm$/,
    ],
    [
      'remarks too long',
      { date: '2026-01-05', teacher_records: [{ teacher_id: 1, status: 'present', remarks: 'x'.repeat(501) }] },
      /^teacher_records\[0\]\.remarks: must be at most 500 characters$/,
    ],
  ])('answers 422 for %s', async (_name, payload, detail) => {
    expectRefusal(await api.as('admin').post('/api/v1/teacher-attendance/mark', payload), 422, detail);
  });
});

describe('POST /teacher-attendance/update-remarks', () => {
  it('saves remarks on a day not marked yet (status stays not_marked) and on a marked day', async () => {
    const date = freshDay();
    const before = await countActivities('teacher_attendance.remarks_updated');
    const response = await saveRemarks({ teacher_id: bina.id, date, remarks: '  called in sick ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Remarks saved successfully.' });
    expect(await rowsOf(date)).toMatchObject([
      { teacher_id: bina.id, status: 'not_marked', remarks: 'called in sick' },
    ]);
    expect(await countActivities('teacher_attendance.remarks_updated')).toBe(before + 1);

    await mark(date, [{ teacher_id: bina.id, status: 'on_leave' }]);
    expect((await rowsOf(date))[0]).toMatchObject({ status: 'on_leave', remarks: 'called in sick' });
    await saveRemarks({ teacher_id: bina.id, date, remarks: 'sick leave approved' });
    const rows = await rowsOf(date);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'on_leave', remarks: 'sick leave approved' });
  });

  it('answers 404 for an unknown teacher', async () => {
    const date = freshDay();
    const response = await saveRemarks({ teacher_id: 777_777, date, remarks: 'x' });
    expectRefusal(response, 404, 'Teacher with id 777777 was not found');
    expect(await rowsOf(date)).toEqual([]);
  });

  it.each([
    [{ date: '2026-01-05', remarks: 'x' }, /^teacher_id: must be a teacher id$/],
    [{ teacher_id: 1, remarks: 'x' }, /^date: /],
    [{ teacher_id: 1.5, date: '2026-01-05', remarks: 'x' }, /^teacher_id: must be a whole number$/],
    [{ teacher_id: 1, date: '2026-01-05', remarks: 'x'.repeat(501) }, /^remarks: must be at most 500 characters$/],
    [{ teacher_id: 1, date: '2026-01-05', remarks: 5 }, /^remarks: must be text$/],
  ])('answers 422 for %j', async (payload, detail) => {
    expectRefusal(await saveRemarks(payload), 422, detail);
  });
});

describe('POST /teacher-attendance/lock/{date}', () => {
  it('answers 409 when nothing is marked, even with remarks saved', async () => {
    const date = freshDay();
    const empty = await lock(date);
    expectRefusal(empty, 409, 'No attendance has been marked for this date yet');
    await saveRemarks({ teacher_id: zoya.id, date, remarks: 'note' });
    const remarksOnly = await lock(date);
    expectRefusal(remarksOnly, 409, 'No attendance has been marked for this date yet');
    expect(await api.db.query('SELECT * FROM teacher_attendance_locks WHERE date = $1', [date])).toEqual([]);
  });

  it('locks a marked day for good: the day shows it, marks and remarks then answer 409', async () => {
    const date = freshDay();
    await mark(date, [
      { teacher_id: zoya.id, status: 'present' },
      { teacher_id: arun.id, status: 'absent', remarks: 'no call' },
    ]);
    const before = await countActivities('teacher_attendance.locked');
    const response = await lock(date);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      date,
      is_locked: true,
      locked_count: 2,
      message: 'Attendance locked successfully for the date. No further edits allowed.',
    });
    expect(await countActivities('teacher_attendance.locked')).toBe(before + 1);

    const day = (await getDay(date)).json();
    expect(day).toMatchObject({ is_locked: true, locked_by: 'Administrator', marked_attendance: 2 });
    expect(day.locked_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(day.teachers.every((entry: { is_locked: boolean }) => entry.is_locked)).toBe(true);

    const rowsBefore = await rowsOf(date);
    const again = await lock(date);
    expectRefusal(again, 409, 'Attendance for this date is already locked');
    const marked = await mark(date, [{ teacher_id: bina.id, status: 'present' }]);
    expectRefusal(marked, 409, 'Attendance for this date is locked and cannot be modified');
    const remarks = await saveRemarks({ teacher_id: arun.id, date, remarks: 'changed' });
    expectRefusal(remarks, 409, 'Attendance for this date is locked and cannot be modified');
    expect(await rowsOf(date)).toEqual(rowsBefore);
    // Other days stay open.
    expect((await mark(freshDay(), [{ teacher_id: bina.id, status: 'present' }])).statusCode).toBe(200);
  });

  it.each([
    ['no body and no content type', undefined, {}],
    ['a JSON {} body', {}, {}],
    ['a JSON content type with an empty body', '', { 'content-type': 'application/json' }],
  ])('accepts %s', async (_name, payload, headers) => {
    const date = freshDay();
    await mark(date, [{ teacher_id: zoya.id, status: 'present' }]);
    const response = await lock(date, payload, headers);
    expect(response.statusCode).toBe(200);
    expect(response.json().locked_count).toBe(1);
  });

  it('refuses a malformed date with 422', async () => {
    const response = await lock('2026-1-5');
    expectRefusal(response, 422, 'date: must be a date written yyyy-MM-dd');
  });

  it('a lock and a mark sent at once never leave a change after the lock', async () => {
    for (let round = 0; round < 3; round += 1) {
      const date = freshDay();
      await mark(date, [{ teacher_id: zoya.id, status: 'present' }]);
      const [locked, marked] = await Promise.all([
        lock(date),
        mark(date, [{ teacher_id: arun.id, status: 'present' }]),
      ]);
      expect(locked.statusCode).toBe(200);
      const rows = await rowsOf(date);
      if (marked.statusCode === 200) {
        expect(locked.json().locked_count).toBe(2);
        expect(rows).toHaveLength(2);
      } else {
        expect(marked.statusCode).toBe(409);
        expect(locked.json().locked_count).toBe(1);
        expect(rows).toHaveLength(1);
      }
    }
  });
});

describe('deleting a teacher', () => {
  it('deletes their attendance rows with them', async () => {
    const gone = await api.teacher({ first_name: 'Gone', last_name: 'Soon' });
    const date = freshDay();
    await mark(date, [
      { teacher_id: gone.id, status: 'present' },
      { teacher_id: zoya.id, status: 'present' },
    ]);
    const deleted = await api.as('admin').delete(`/api/v1/teachers/${gone.id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await rowsOf(date)).map((row) => row.teacher_id)).toEqual([zoya.id]);
    const day = (await getDay(date)).json();
    expect(day.teachers.some((entry: { teacher_id: number }) => entry.teacher_id === gone.id)).toBe(false);
  });
});
