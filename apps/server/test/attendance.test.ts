import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, firstDayOfMonth, today } from '../src/lib/time';
import { expectRefusal } from './helpers/answers';
import { type Caller, type TestClient, testClient, testClientForBlock } from './helpers/client';
import type { createStudent } from './helpers/test-app';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

type Student = Awaited<ReturnType<typeof createStudent>>;

function mark(caller: Caller, date: string, records: Record<string, unknown>[]) {
  return caller.post('/api/v1/attendance/mark', { date, records });
}

function approve(caller: Caller, ids: unknown) {
  return caller.post('/api/v1/attendance/approve', { attendance_ids: ids });
}

function get(caller: Caller, url: string) {
  return caller.get(`/api/v1${url}`);
}

/** One test per query string: the admin's GET `path?query` answers 422 with the detail. */
function refusesQueries(path: string, cases: [query: string, detail: string][]) {
  it.each(cases)(`refuses ${path}?%s with 422`, async (query, detail) => {
    expectRefusal(await get(api.as('admin'), `${path}?${query}`), 422, detail);
  });
}

async function recordOf(studentId: number, date: string) {
  const rows = await api.db.query<{
    id: number;
    status: string;
    class_name: string;
    remarks: string | null;
    marked_by: string;
    marked_by_user_id: number | null;
    marked_at: string;
    approved_by: string | null;
    approved_at: string | null;
  }>('SELECT * FROM attendance WHERE student_id = $1 AND date = $2', [studentId, date]);
  expect(rows.length).toBeLessThanOrEqual(1);
  return rows[0];
}

async function countActivities(action: string): Promise<number> {
  const rows = await api.db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM activities WHERE action = $1',
    [action],
  );
  return rows[0]?.count ?? 0;
}

describe('who may call the attendance endpoints', () => {
  const calls = [
    { method: 'GET' as const, url: '/api/v1/attendance/roster?class_name=7' },
    { method: 'GET' as const, url: '/api/v1/attendance/marking-scope' },
    { method: 'POST' as const, url: '/api/v1/attendance/mark' },
    { method: 'GET' as const, url: '/api/v1/attendance/pending-approval' },
    { method: 'POST' as const, url: '/api/v1/attendance/approve' },
    { method: 'GET' as const, url: '/api/v1/attendance/history' },
    { method: 'GET' as const, url: '/api/v1/attendance/summary' },
  ];

  it.each(calls)('$method $url answers 401 without a token', async ({ method, url }) => {
    const response = await api.anonymous().request(method, url, method === 'POST' ? {} : undefined);
    expectRefusal(response, 401, 'Not authenticated');
  });

  it.each([
    { method: 'POST' as const, url: '/api/v1/attendance/approve' },
    { method: 'GET' as const, url: '/api/v1/attendance/history' },
  ])('$method $url refuses a teacher with 403', async ({ method, url }) => {
    const response = await api
      .as('teacher')
      .request(method, url, method === 'POST' ? { attendance_ids: [1] } : undefined);
    expectRefusal(response, 403, 'You do not have permission to do this');
  });

  it.each([
    '/attendance/roster?class_name=7',
    '/attendance/marking-scope',
    '/attendance/pending-approval',
    '/attendance/summary',
  ])('GET %s answers a teacher', async (url) => {
    expect((await get(api.as('teacher'), url)).statusCode).toBe(200);
  });
});

describe('GET /attendance/roster', () => {
  let zara: Student;
  let aman: Student;
  let other: Student;
  beforeAll(async () => {
    zara = await api.student({ full_name: 'Zara Roster', class_name: '9' });
    aman = await api.student({ full_name: 'aman Roster', class_name: '9' });
    other = await api.student({ full_name: 'Bela Roster', class_name: '10' });
  });

  it("lists the class's students by name, with nothing marked, for today by default", async () => {
    const response = await get(api.as('teacher'), '/attendance/roster?class_name=9');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.date).toBe(today());
    expect(body.class_name).toBe('9');
    expect(body.students.map((s: { student_id: number }) => s.student_id)).toEqual([aman.id, zara.id]);
    expect(body.students[0]).toEqual({
      student_id: aman.id,
      student_unique_id: aman.unique_id,
      student_name: 'aman Roster',
      parent_phone: aman.parent_phone,
      attendance_id: null,
      status: null,
      remarks: null,
      marked_by: null,
      marked_at: null,
      is_approved: false,
      leave: null,
    });
  });

  it('shows the record of the date asked for, and whether it is approved', async () => {
    const date = addDays(today(), -20);
    expect(
      (await mark(api.as('admin'), date, [{ student_id: zara.id, status: 'late', remarks: 'bus' }])).statusCode,
    ).toBe(200);
    const response = await get(api.as('admin'), `/attendance/roster?class_name=Class%209&date=${date}`);
    expect(response.statusCode).toBe(200);
    const entry = response.json().students.find((s: { student_id: number }) => s.student_id === zara.id);
    expect(entry).toMatchObject({ status: 'late', remarks: 'bus', marked_by: 'Administrator', is_approved: false });
    expect(entry.attendance_id).toEqual(expect.any(Number));
    expect(entry.marked_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    await approve(api.as('admin'), [entry.attendance_id]);
    const after = await get(api.as('admin'), `/attendance/roster?class_name=9&date=${date}`);
    expect(after.json().students.find((s: { student_id: number }) => s.student_id === zara.id).is_approved).toBe(true);
    // Another day shows nothing for that student; another class does not list them.
    const otherDay = await get(api.as('admin'), `/attendance/roster?class_name=9&date=${addDays(date, 1)}`);
    expect(otherDay.json().students.every((s: { status: unknown }) => s.status === null)).toBe(true);
    const ten = await get(api.as('admin'), '/attendance/roster?class_name=10');
    expect(ten.json().students.map((s: { student_id: number }) => s.student_id)).toContain(other.id);
    expect(ten.json().students.map((s: { student_id: number }) => s.student_id)).not.toContain(zara.id);
  });

  refusesQueries('/attendance/roster', [
    ['', 'class_name: must be one of 7, 8, 9 or 10'],
    ['class_name=11', 'class_name: must be one of 7, 8, 9 or 10'],
    ['class_name=7&date=2026-02-30', 'date: is not a real calendar date'],
    ['class_name=7&date=22-11-2026', 'date: must be a date written yyyy-MM-dd'],
  ]);
});

describe('POST /attendance/mark', () => {
  let ravi: Student;
  let meena: Student;
  beforeAll(async () => {
    ravi = await api.student({ full_name: 'Ravi Mark', class_name: '7' });
    meena = await api.student({ full_name: 'Meena Mark', class_name: '8' });
  });

  it('creates one pending record per student, marked by the caller, with one activity row', async () => {
    const date = addDays(today(), -1);
    const before = await countActivities('attendance.marked');
    const response = await mark(api.as('admin'), date, [
      { student_id: ravi.id, status: 'present' },
      { student_id: meena.id, status: 'absent', remarks: '  fever  ' },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ marked_count: 2, message: 'Attendance marked for 2 student(s)' });
    const record = await recordOf(meena.id, date);
    expect(record).toMatchObject({
      status: 'absent',
      class_name: '8',
      remarks: 'fever',
      marked_by: 'Administrator',
      approved_by: null,
      approved_at: null,
    });
    expect(record?.marked_by_user_id).toEqual(expect.any(Number));
    expect(Date.now() - Date.parse(record?.marked_at ?? '')).toBeLessThan(60_000);
    expect(await recordOf(ravi.id, date)).toMatchObject({ status: 'present', class_name: '7', remarks: null });
    expect(await countActivities('attendance.marked')).toBe(before + 1);
  });

  it('re-marking a pending record updates it (never two rows), keeping remarks that are not sent', async () => {
    const date = addDays(today(), -2);
    await mark(api.as('admin'), date, [{ student_id: ravi.id, status: 'absent', remarks: 'called parent' }]);
    const first = await recordOf(ravi.id, date);
    const response = await mark(api.as('teacher'), date, [{ student_id: ravi.id, status: 'late' }]);
    expect(response.statusCode).toBe(200);
    const rows = await api.db.query('SELECT id FROM attendance WHERE student_id = $1 AND date = $2', [ravi.id, date]);
    expect(rows).toHaveLength(1);
    const second = await recordOf(ravi.id, date);
    expect(second).toMatchObject({
      id: first?.id,
      status: 'late',
      remarks: 'called parent',
      marked_by: 'Tess Teacher',
    });
    expect(second?.marked_by_user_id).not.toBe(first?.marked_by_user_id);
    await mark(api.as('teacher'), date, [{ student_id: ravi.id, status: 'late', remarks: '' }]);
    expect((await recordOf(ravi.id, date))?.remarks).toBe('');
  });

  it('keeps the class the student was in on the day', async () => {
    const date = addDays(today(), -3);
    await mark(api.as('admin'), date, [{ student_id: meena.id, status: 'present' }]);
    await api.db.query("UPDATE students SET class_name = '9' WHERE id = $1", [meena.id]);
    try {
      await mark(api.as('admin'), addDays(date, 1), [{ student_id: meena.id, status: 'present' }]);
      expect((await recordOf(meena.id, date))?.class_name).toBe('8');
      expect((await recordOf(meena.id, addDays(date, 1)))?.class_name).toBe('9');
    } finally {
      await api.db.query("UPDATE students SET class_name = '8' WHERE id = $1", [meena.id]);
    }
  });

  it('answers 404 naming an unknown student, and writes nothing', async () => {
    const date = addDays(today(), -4);
    const response = await mark(api.as('admin'), date, [
      { student_id: ravi.id, status: 'present' },
      { student_id: 999_999, status: 'present' },
    ]);
    expectRefusal(response, 404, 'Student with id 999999 was not found');
    expect(await recordOf(ravi.id, date)).toBeUndefined();
  });

  it('answers 409 for an approved record, and changes nothing in the request', async () => {
    const date = addDays(today(), -5);
    await mark(api.as('admin'), date, [{ student_id: meena.id, status: 'present' }]);
    const approved = await recordOf(meena.id, date);
    expect((await approve(api.as('admin'), [approved?.id])).statusCode).toBe(200);
    const activities = await countActivities('attendance.marked');
    // The admin: a teacher may not mark class 8, nor five days back (marking-rules.test.ts).
    const response = await mark(api.as('admin'), date, [
      { student_id: ravi.id, status: 'present' },
      { student_id: meena.id, status: 'absent' },
    ]);
    expectRefusal(response, 409, `Attendance for Meena Mark on ${date} is already approved and cannot be changed`);
    expect(await recordOf(ravi.id, date)).toBeUndefined();
    expect(await recordOf(meena.id, date)).toMatchObject({ status: 'present', marked_by: 'Administrator' });
    expect(await countActivities('attendance.marked')).toBe(activities);
  });

  it('answers 422 for a student listed twice', async () => {
    const response = await mark(api.as('admin'), addDays(today(), -6), [
      { student_id: ravi.id, status: 'present' },
      { student_id: ravi.id, status: 'absent' },
    ]);
    expectRefusal(response, 422, `records[1].student_id: student ${ravi.id} is listed more than once`);
  });

  it('answers 422 for a date in the future, and accepts today', async () => {
    const tomorrow = await mark(api.as('admin'), addDays(today(), 1), [{ student_id: ravi.id, status: 'present' }]);
    expectRefusal(tomorrow, 422, 'date: cannot be in the future');
    const now = await mark(api.as('admin'), today(), [{ student_id: ravi.id, status: 'present' }]);
    expect(now.statusCode).toBe(200);
  });

  it.each([
    ['date missing', { records: [{ student_id: 1, status: 'present' }] }, /^date: /],
    [
      'date malformed',
      { date: '2026/11/01', records: [{ student_id: 1, status: 'present' }] },
      /^date: must be a date/,
    ],
    ['records missing', { date: '2026-11-01' }, /^records: must be a list of records$/],
    ['records empty', { date: '2026-11-01', records: [] }, /^records: must hold at least one record$/],
    [
      'a bad status',
      { date: '2026-11-01', records: [{ student_id: 1, status: 'here' }] },
      /^records\[0\]\.status: must be one of present, absent, late or leave$/,
    ],
    [
      'a student id that is not a number',
      { date: '2026-11-01', records: [{ student_id: 'abc', status: 'present' }] },
      /^records\[0\]\.student_id: must be a student id$/,
    ],
    [
      'a student id out of range',
      { date: '2026-11-01', records: [{ student_id: 3_000_000_000, status: 'present' }] },
      /^records\[0\]\.student_id: is not a known id$/,
    ],
    [
      'remarks too long',
      { date: '2026-11-01', records: [{ student_id: 1, status: 'present', remarks: 'x'.repeat(501) }] },
      /^records\[0\]\.remarks: must be at most 500 characters$/,
    ],
  ])('answers 422 for %s', async (_name, payload, detail) => {
    expectRefusal(await api.as('admin').post('/api/v1/attendance/mark', payload), 422, detail);
  });
});

describe('pending approval, approval and history', () => {
  let asha: Student;
  let bala: Student;
  let chandra: Student;
  let dev: Student;
  const day = (offset: number) => addDays(today(), -offset);
  beforeAll(async () => {
    asha = await api.student({ full_name: 'Asha Flow', class_name: '10' });
    bala = await api.student({ full_name: 'Bala Flow', class_name: '7' });
    chandra = await api.student({ full_name: 'Chandra Flow', class_name: '7' });
    dev = await api.student({ full_name: 'Dev Flow', class_name: '8' });
  });

  async function pendingIds(query = ''): Promise<number[]> {
    const response = await get(api.as('admin'), `/attendance/pending-approval${query}`);
    expect(response.statusCode).toBe(200);
    return response.json().map((r: { id: number }) => r.id);
  }

  it('lists pending records for a date, by class then name, with every field of a record', async () => {
    const date = day(10);
    // The admin: a teacher marks only their classes, and only the last few days (marking-rules.test.ts).
    await mark(api.as('admin'), date, [
      { student_id: asha.id, status: 'present' },
      { student_id: chandra.id, status: 'leave', remarks: 'wedding' },
      { student_id: bala.id, status: 'absent' },
      { student_id: dev.id, status: 'late' },
    ]);
    const response = await get(api.as('teacher'), `/attendance/pending-approval?attendance_date=${date}`);
    expect(response.statusCode).toBe(200);
    const records = response.json();
    expect(records.map((r: { student_name: string }) => r.student_name)).toEqual([
      'Bala Flow',
      'Chandra Flow',
      'Dev Flow',
      'Asha Flow',
    ]);
    expect(records[1]).toEqual({
      id: expect.any(Number),
      student_id: chandra.id,
      student_name: 'Chandra Flow',
      student_unique_id: chandra.unique_id,
      class_name: '7',
      date,
      status: 'leave',
      remarks: 'wedding',
      parent_reason: null,
      parent_phone: chandra.parent_phone,
      marked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
      marked_by: 'Administrator',
      approved_by: null,
      approved_at: null,
    });
  });

  it('lists pending records of every date, newest first, when no date is given', async () => {
    await mark(api.as('admin'), day(11), [{ student_id: asha.id, status: 'present' }]);
    const response = await get(api.as('admin'), '/attendance/pending-approval');
    const dates: string[] = response.json().map((r: { date: string }) => r.date);
    expect(dates).toContain(day(10));
    expect(dates).toContain(day(11));
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(response.json().every((r: { approved_at: unknown }) => r.approved_at === null)).toBe(true);
  });

  it('refuses a malformed attendance_date with 422', async () => {
    const response = await get(api.as('admin'), '/attendance/pending-approval?attendance_date=yesterday');
    expectRefusal(response, 422, 'attendance_date: must be a date written yyyy-MM-dd');
  });

  it('approves, removing the records from pending and showing them in history with approved_by', async () => {
    const date = day(10);
    const ids = await pendingIds(`?attendance_date=${date}`);
    const [first, second] = ids as [number, number];
    const before = await countActivities('attendance.approved');
    const response = await approve(api.as('admin'), [first, second]);
    expect(response.statusCode).toBe(200);
    // Bala was absent (an alert to the family), Chandra on leave (none).
    expect(response.json()).toEqual({
      approved_count: 2,
      message: 'Successfully approved 2 attendance record(s).',
      alerted_families: 1,
      // Bala's family has neither the app nor WhatsApp: the alert goes on the send list (ADR 044).
      alert_reach: { in_app: 0, whatsapp: 0, no_channel: 1 },
    });
    expect(await countActivities('attendance.approved')).toBe(before + 1);
    expect(await pendingIds(`?attendance_date=${date}`)).toEqual(ids.slice(2));
    const rows = await api.db.query<{ approved_by: string; approved_by_user_id: number; approved_at: string }>(
      'SELECT approved_by, approved_by_user_id, approved_at FROM attendance WHERE id = ANY($1::int[])',
      [[first, second]],
    );
    for (const row of rows) {
      expect(row.approved_by).toBe('Administrator');
      expect(row.approved_by_user_id).toEqual(expect.any(Number));
      expect(row.approved_at).toMatch(/^\d{4}-/);
    }
    const history = await get(api.as('admin'), `/attendance/history?start_date=${date}&end_date=${date}`);
    expect(history.statusCode).toBe(200);
    const byId = new Map(history.json().map((r: { id: number }) => [r.id, r]));
    expect(byId.size).toBe(4);
    expect(byId.get(first)).toMatchObject({ approved_by: 'Administrator', approved_at: expect.any(String) });
    expect(byId.get(ids[2] as number)).toMatchObject({ approved_by: null, approved_at: null });
  });

  it('approves only the pending ones among the ids, 409 when all were approved, 404 when none exist', async () => {
    const date = day(10);
    const remaining = await pendingIds(`?attendance_date=${date}`);
    const [approvedAlready] = (
      await api.db.query<{ id: number }>('SELECT id FROM attendance WHERE date = $1 AND approved_at IS NOT NULL', [
        date,
      ])
    ).map((r) => r.id);
    const partly = await approve(api.as('admin'), [approvedAlready, remaining[0], 888_888]);
    expect(partly.statusCode).toBe(200);
    expect(partly.json().approved_count).toBe(1);
    const again = await approve(api.as('admin'), [approvedAlready, remaining[0]]);
    expectRefusal(again, 409, 'These attendance records are already approved');
    const unknown = await approve(api.as('admin'), [888_888, 888_889]);
    expectRefusal(unknown, 404, 'None of these attendance records exist');
    const activities = await countActivities('attendance.approved');
    await approve(api.as('admin'), [888_888]);
    expect(await countActivities('attendance.approved')).toBe(activities);
  });

  it('two admins approving the same ids at once approve each record once', async () => {
    const date = day(12);
    await mark(api.as('admin'), date, [
      { student_id: asha.id, status: 'present' },
      { student_id: bala.id, status: 'present' },
      { student_id: chandra.id, status: 'absent' },
      { student_id: dev.id, status: 'late' },
    ]);
    const ids = await pendingIds(`?attendance_date=${date}`);
    expect(ids).toHaveLength(4);
    const secondAdmin = api.as('admin');
    const before = await countActivities('attendance.approved');
    const responses = await Promise.all([approve(api.as('admin'), ids), approve(secondAdmin, ids)]);
    const approvedCounts = responses.map((r) => (r.statusCode === 200 ? r.json().approved_count : 0));
    expect(approvedCounts.reduce((a, b) => a + b, 0)).toBe(4);
    for (const response of responses) expect([200, 409]).toContain(response.statusCode);
    expect(await countActivities('attendance.approved')).toBe(
      before + responses.filter((r) => r.statusCode === 200).length,
    );
    const rows = await api.db.query<{ approved_at: string | null }>(
      'SELECT approved_at FROM attendance WHERE id = ANY($1::int[])',
      [ids],
    );
    expect(rows.every((r) => r.approved_at !== null)).toBe(true);
    expect(await pendingIds(`?attendance_date=${date}`)).toEqual([]);
  });

  it.each([
    [{}, /^attendance_ids: must be a list of attendance ids$/],
    [{ attendance_ids: [] }, /^attendance_ids: must list at least one attendance record$/],
    [{ attendance_ids: ['a'] }, /^attendance_ids\[0\]: must be an attendance id$/],
    [{ attendance_ids: [0] }, /^attendance_ids\[0\]: must be a positive id$/],
    [{ attendance_ids: [1.5] }, /^attendance_ids\[0\]: must be a whole number$/],
    [{ attendance_ids: [3_000_000_000] }, /^attendance_ids\[0\]: is not a known id$/],
    [{ attendance_ids: 5 }, /^attendance_ids: must be a list of attendance ids$/],
  ])('refuses the approval body %j with 422', async (payload, detail) => {
    expectRefusal(await api.as('admin').post('/api/v1/attendance/approve', payload), 422, detail);
  });

  it('history spans the last 7 days by default, newest first, then class and name', async () => {
    await mark(api.as('admin'), day(7), [{ student_id: dev.id, status: 'present' }]);
    await mark(api.as('admin'), day(8), [{ student_id: dev.id, status: 'present' }]);
    await mark(api.as('admin'), day(0), [
      { student_id: dev.id, status: 'absent' },
      { student_id: bala.id, status: 'present' },
      { student_id: asha.id, status: 'leave' },
    ]);
    const response = await get(api.as('admin'), '/attendance/history');
    expect(response.statusCode).toBe(200);
    const records: { date: string; class_name: string; student_name: string; approved_by: string | null }[] =
      response.json();
    const dates = records.map((r) => r.date);
    expect(dates).toContain(day(7));
    expect(dates).toContain(day(0));
    expect(dates).not.toContain(day(8));
    expect(dates.every((d) => d >= day(7) && d <= day(0))).toBe(true);
    expect([...dates].sort().reverse()).toEqual(dates);
    const todays = records.filter((r) => r.date === day(0) && r.student_name.endsWith('Flow'));
    expect(todays.map((r) => r.student_name)).toEqual(['Bala Flow', 'Dev Flow', 'Asha Flow']);
    expect(todays.every((r) => r.approved_by === null)).toBe(true);
  });

  it('history takes an inclusive range, and either end alone', async () => {
    const inclusive = await get(api.as('admin'), `/attendance/history?start_date=${day(12)}&end_date=${day(10)}`);
    const dates = new Set(inclusive.json().map((r: { date: string }) => r.date));
    expect([...dates].sort()).toEqual([day(12), day(11), day(10)]);
    const fromOnly = await get(api.as('admin'), `/attendance/history?start_date=${day(8)}`);
    expect(new Set(fromOnly.json().map((r: { date: string }) => r.date)).has(day(0))).toBe(true);
    const toOnly = await get(api.as('admin'), `/attendance/history?end_date=${day(10)}`);
    const toDates: string[] = toOnly.json().map((r: { date: string }) => r.date);
    expect(toDates).toContain(day(12));
    expect(toDates.every((d) => d >= day(17) && d <= day(10))).toBe(true);
  });

  refusesQueries('/attendance/history', [
    ['start_date=2026-03-10&end_date=2026-03-01', 'start_date: must not be after end_date'],
    ['start_date=2024-01-01&end_date=2025-01-01', 'end_date: the range must not span more than 366 days'],
    ['start_date=2026-3-01&end_date=2026-03-01', 'start_date: must be a date written yyyy-MM-dd'],
    ['start_date=2026-01-01&end_date=2026-02-29', 'end_date: is not a real calendar date'],
  ]);

  it('history accepts a range of exactly 366 days', async () => {
    const response = await get(api.as('admin'), '/attendance/history?start_date=2024-01-01&end_date=2024-12-31');
    expect(response.statusCode).toBe(200);
  });
});

describe('GET /attendance/summary', () => {
  // Its own database, so the month's figures are known exactly.
  const s = testClientForBlock();

  it('answers zeros for a month without records', async () => {
    const response = await get(s().as('admin'), '/attendance/summary');
    expect(response.statusCode).toBe(200);
    const now = today();
    expect(response.json()).toEqual({
      period: { start_date: firstDayOfMonth(now), end_date: expect.stringMatching(new RegExp(`^${now.slice(0, 7)}-`)) },
      metrics: { attendance_rate: 0 },
      totals: {
        total_records: 0,
        approved_records: 0,
        pending_records: 0,
        present: 0,
        absent: 0,
        late: 0,
        leave: 0,
        messages_sent: 0,
      },
    });
  });

  it("counts this month's records and messages: rate = (present + late) / approved, one decimal", async () => {
    const admin = s().as('admin');
    const students = [];
    for (const name of ['Sum One', 'Sum Two', 'Sum Three', 'Sum Four'])
      students.push(await s().student({ full_name: name, class_name: '8' }));
    const [one, two, three, four] = students as [Student, Student, Student, Student];
    const date = today();
    const lastMonth = addDays(firstDayOfMonth(date), -1);
    expect(
      (
        await mark(admin, date, [
          { student_id: one.id, status: 'present' },
          { student_id: two.id, status: 'late' },
          { student_id: three.id, status: 'absent' },
          { student_id: four.id, status: 'leave' },
        ])
      ).statusCode,
    ).toBe(200);
    await mark(admin, lastMonth, [{ student_id: one.id, status: 'absent' }]);
    const ids = (
      await s().db.query<{ id: number }>('SELECT id FROM attendance WHERE student_id = ANY($1::int[])', [
        [one.id, two.id, three.id],
      ])
    ).map((r) => r.id);
    // Absence alerts would add messages of their own; this test counts the ones it inserts.
    await admin.put('/api/v1/settings', { absence_alerts: false });
    expect((await approve(admin, ids)).json().approved_count).toBe(4);
    await admin.put('/api/v1/settings', { absence_alerts: true });
    // Two messages this month, one just before it began.
    const [year, month] = date.split('-').map(Number) as [number, number];
    const monthStart = new Date(year, month - 1, 1);
    await s().db.query(
      `INSERT INTO messages (subject, message, recipient, sent_at) VALUES
         ('a', 'b', '+919800000001', now()), ('a', 'b', '+919800000002', $1::timestamptz),
         ('a', 'b', '+919800000003', $2::timestamptz)`,
      [monthStart.toISOString(), new Date(monthStart.getTime() - 1000).toISOString()],
    );

    const response = await get(s().as('teacher'), '/attendance/summary');
    expect(response.statusCode).toBe(200);
    expect(response.json().metrics).toEqual({ attendance_rate: 66.7 });
    expect(response.json().totals).toEqual({
      total_records: 4,
      approved_records: 3,
      pending_records: 1,
      present: 1,
      absent: 1,
      late: 1,
      leave: 0,
      messages_sent: 2,
    });
  });
});
