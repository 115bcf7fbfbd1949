/**
 * Teachers act on their own classes (ADR 019). A teacher marks attendance only for students of the
 * classes assigned to them, from today back the centre's number of days (default 2); admins mark any
 * class on any past day; a centre setting lets every teacher mark every class.
 */
import { classLabelFallback, ERROR_CODES, formatErrorText, withClassNames } from '@tuitiondesk/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { type Caller, type TestClient, testClient } from './helpers/client';
import { detailOf, signInNewTeacher } from './helpers/test-app';

let api: TestClient;
let admin: Caller;
/** Tess teaches classes 7 and 8. */
let tess: Caller;
const students: Record<'seven' | 'sevenToo' | 'eight' | 'nine' | 'ten', { id: number; full_name: string }> =
  {} as never;

/** A teacher account with its own password set (a fresh account must change the one it was given). */
async function signedInTeacher(fields: Record<string, unknown>): Promise<{ id: number; caller: Caller }> {
  const teacher = await signInNewTeacher(api.app, api.db, await api.adminToken(), fields);
  return { id: teacher.teacherId, caller: api.withToken(teacher.token) };
}

beforeAll(async () => {
  api = await testClient();
  admin = api.as('admin');
  students.seven = await api.student({ full_name: 'Asha Seven', class_name: '7' });
  students.sevenToo = await api.student({ full_name: 'Bala Seven', class_name: '7' });
  students.eight = await api.student({ full_name: 'Chitra Eight', class_name: '8' });
  students.nine = await api.student({ full_name: 'Dev Nine', class_name: '9' });
  students.ten = await api.student({ full_name: 'Esha Ten', class_name: '10' });
  tess = (await signedInTeacher({ first_name: 'Tess', last_name: 'Own', classes_assigned: ['8', '7'] })).caller;
});
afterAll(async () => {
  await api?.close();
});

const RULES = { teacher_mark_days_back: 2, teachers_mark_any_class: false };
// Every test starts from the default rules, whatever the one before it set.
beforeEach(async () => {
  await api.db.query(
    "UPDATE settings SET value = CASE key WHEN 'teacher_mark_days_back' THEN '2' ELSE 'false' END WHERE key IN ('teacher_mark_days_back', 'teachers_mark_any_class')",
  );
});

function mark(caller: Caller, date: string, records: { student_id: number; status: string }[]) {
  return caller.post('/api/v1/attendance/mark', { date, records });
}

function get(caller: Caller, url: string) {
  return caller.get(`/api/v1${url}`);
}

function putRules(caller: Caller, payload: unknown) {
  return caller.put('/api/v1/settings/marking', payload);
}

async function recordsOn(date: string, ids: number[]) {
  return api.db.query<{ student_id: number; status: string; marked_by: string }>(
    'SELECT student_id, status, marked_by FROM attendance WHERE date = $1 AND student_id = ANY($2::int[]) ORDER BY student_id',
    [date, ids],
  );
}

async function countActivities(action: string): Promise<number> {
  const rows = await api.db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM activities WHERE action = $1',
    [action],
  );
  return rows[0]?.count ?? 0;
}

const NOT_NINE = 'You can mark attendance only for your classes (7, 8). Class 9 is not assigned to you.';
const windowDetail = (days = 2) =>
  `date: teachers can mark attendance only from ${addDays(today(), -days)} to ${today()} (today and the ${days} ${
    days === 1 ? 'day' : 'days'
  } before); an admin can mark earlier days`;

describe('a teacher marks the classes assigned to them', () => {
  it('marks students of their own classes today, as themselves', async () => {
    const day = today();
    const response = await mark(tess, day, [
      { student_id: students.seven.id, status: 'present' },
      { student_id: students.eight.id, status: 'late' },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ marked_count: 2, message: 'Attendance marked for 2 student(s)' });
    expect(await recordsOn(day, [students.seven.id, students.eight.id])).toEqual([
      { student_id: students.seven.id, status: 'present', marked_by: 'Tess Own' },
      { student_id: students.eight.id, status: 'late', marked_by: 'Tess Own' },
    ]);
  });

  it("refuses a student of another class with 403 naming the classes, leaving another marker's record as it was", async () => {
    const day = addDays(today(), -1);
    expect((await mark(admin, day, [{ student_id: students.nine.id, status: 'present' }])).statusCode).toBe(200);
    const activities = await countActivities('attendance.marked');
    const response = await mark(tess, day, [{ student_id: students.nine.id, status: 'absent' }]);
    expect(response.statusCode).toBe(403);
    expect(detailOf(response)).toBe(NOT_NINE);
    expect(await recordsOn(day, [students.nine.id])).toEqual([
      { student_id: students.nine.id, status: 'present', marked_by: 'Administrator' },
    ]);
    expect(await countActivities('attendance.marked')).toBe(activities);
  });

  it('refuses a request that mixes own and other classes whole: nothing of it is written', async () => {
    const day = addDays(today(), -2);
    const activities = await countActivities('attendance.marked');
    const response = await mark(tess, day, [
      { student_id: students.seven.id, status: 'present' },
      { student_id: students.ten.id, status: 'present' },
      { student_id: students.sevenToo.id, status: 'absent' },
      { student_id: students.nine.id, status: 'present' },
    ]);
    expect(response.statusCode).toBe(403);
    expect(detailOf(response)).toBe(
      'You can mark attendance only for your classes (7, 8). Classes 9 and 10 are not assigned to you.',
    );
    expect(
      await recordsOn(
        day,
        Object.values(students).map((s) => s.id),
      ),
    ).toEqual([]);
    expect(await countActivities('attendance.marked')).toBe(activities);
  });

  it('reads the classes from the teacher record as it is now, not as it was at sign-in', async () => {
    const teacher = await signedInTeacher({ first_name: 'Moved', last_name: 'Around', classes_assigned: ['9'] });
    const day = today();
    expect((await mark(teacher.caller, day, [{ student_id: students.nine.id, status: 'late' }])).statusCode).toBe(200);
    const edited = await admin.put(`/api/v1/teachers/${teacher.id}`, { classes_assigned: ['10'] });
    expect(edited.statusCode).toBe(200);
    const refused = await mark(teacher.caller, day, [{ student_id: students.nine.id, status: 'absent' }]);
    expect(refused.statusCode).toBe(403);
    expect(detailOf(refused)).toBe('You can mark attendance only for your class (10). Class 9 is not assigned to you.');
    expect((await recordsOn(day, [students.nine.id]))[0]?.status).toBe('late');
    expect((await mark(teacher.caller, day, [{ student_id: students.ten.id, status: 'present' }])).statusCode).toBe(
      200,
    );
  });

  it('refuses a teacher with no class, or an account with no teacher record, with 403 saying why', async () => {
    const idle = await signedInTeacher({ first_name: 'No', last_name: 'Classes', classes_assigned: [] });
    const response = await mark(idle.caller, today(), [{ student_id: students.seven.id, status: 'present' }]);
    expect(response.statusCode).toBe(403);
    expect(detailOf(response)).toBe(
      'No class is assigned to you, so you cannot mark attendance. Ask an admin to assign your classes on the Teachers screen.',
    );

    const unlinked = await signedInTeacher({ first_name: 'Un', last_name: 'Linked', classes_assigned: ['7'] });
    await api.db.query('UPDATE teachers SET user_id = NULL WHERE id = $1', [unlinked.id]);
    const orphan = await mark(unlinked.caller, today(), [{ student_id: students.seven.id, status: 'present' }]);
    expect(orphan.statusCode).toBe(403);
    expect(detailOf(orphan)).toMatch(/^Your account is not linked to a teacher record, so you cannot mark attendance/);
    expect(await recordsOn(today(), [students.sevenToo.id])).toEqual([]);
  });

  it('answers 404 for an unknown student before looking at classes, as before', async () => {
    const response = await mark(tess, today(), [{ student_id: 987_654, status: 'present' }]);
    expect(response.statusCode).toBe(404);
    expect(detailOf(response)).toBe('Student with id 987654 was not found');
  });
});

describe('a teacher marks today and the days the centre allows', () => {
  it('accepts 2 days back and refuses 3 with 422 saying the window and that an admin can mark it', async () => {
    const two = addDays(today(), -2);
    const three = addDays(today(), -3);
    expect((await mark(tess, two, [{ student_id: students.sevenToo.id, status: 'present' }])).statusCode).toBe(200);
    const refused = await mark(tess, three, [{ student_id: students.sevenToo.id, status: 'present' }]);
    expect(refused.statusCode).toBe(422);
    expect(detailOf(refused)).toBe(windowDetail(2));
    expect(await recordsOn(three, [students.sevenToo.id])).toEqual([]);
    const byAdmin = await mark(admin, three, [{ student_id: students.sevenToo.id, status: 'absent' }]);
    expect(byAdmin.statusCode).toBe(200);
  });

  it('refuses a future date as before, to teachers and admins', async () => {
    for (const caller of [tess, admin]) {
      const response = await mark(caller, addDays(today(), 1), [{ student_id: students.seven.id, status: 'present' }]);
      expect(response.statusCode).toBe(422);
      expect(detailOf(response)).toBe('date: cannot be in the future');
    }
  });

  it('with 0 days back, a teacher marks today only', async () => {
    expect((await putRules(admin, { ...RULES, teacher_mark_days_back: 0 })).statusCode).toBe(200);
    const yesterday = await mark(tess, addDays(today(), -1), [{ student_id: students.eight.id, status: 'present' }]);
    expect(yesterday.statusCode).toBe(422);
    expect(detailOf(yesterday)).toBe(
      `date: teachers can mark attendance only for today (${today()}); an admin can mark earlier days`,
    );
    expect((await mark(tess, today(), [{ student_id: students.eight.id, status: 'absent' }])).statusCode).toBe(200);
  });

  it('a longer window reaches further back', async () => {
    expect((await putRules(admin, { ...RULES, teacher_mark_days_back: 7 })).statusCode).toBe(200);
    expect(
      (await mark(tess, addDays(today(), -7), [{ student_id: students.eight.id, status: 'leave' }])).statusCode,
    ).toBe(200);
    const eight = await mark(tess, addDays(today(), -8), [{ student_id: students.eight.id, status: 'leave' }]);
    expect(eight.statusCode).toBe(422);
    expect(detailOf(eight)).toBe(windowDetail(7));
  });

  it('an admin marks any class on any past day', async () => {
    const longAgo = addDays(today(), -400);
    const response = await mark(admin, longAgo, [
      { student_id: students.seven.id, status: 'present' },
      { student_id: students.nine.id, status: 'absent' },
      { student_id: students.ten.id, status: 'late' },
    ]);
    expect(response.statusCode).toBe(200);
    expect(await recordsOn(longAgo, [students.seven.id, students.nine.id, students.ten.id])).toHaveLength(3);
  });
});

describe('the any-class setting', () => {
  it('lets every teacher mark every class, still within the days allowed', async () => {
    const idle = await signedInTeacher({ first_name: 'Cover', last_name: 'Teacher', classes_assigned: [] });
    expect((await putRules(admin, { ...RULES, teachers_mark_any_class: true })).statusCode).toBe(200);
    const day = addDays(today(), -1);
    expect((await mark(tess, day, [{ student_id: students.ten.id, status: 'present' }])).statusCode).toBe(200);
    expect((await mark(idle.caller, day, [{ student_id: students.nine.id, status: 'late' }])).statusCode).toBe(200);
    expect(await recordsOn(day, [students.nine.id, students.ten.id])).toEqual([
      { student_id: students.nine.id, status: 'late', marked_by: 'Cover Teacher' },
      { student_id: students.ten.id, status: 'present', marked_by: 'Tess Own' },
    ]);
    const old = await mark(tess, addDays(today(), -3), [{ student_id: students.ten.id, status: 'present' }]);
    expect(old.statusCode).toBe(422);
    // Turned off again, the classes on the record count once more.
    expect((await putRules(admin, RULES)).statusCode).toBe(200);
    const refused = await mark(tess, day, [{ student_id: students.ten.id, status: 'absent' }]);
    expect(refused.statusCode).toBe(403);
  });
});

/**
 * A roster's or a scope's English reason is its code's catalogue text filled with its params, a class
 * by its label (the spec's classes here: "9" reads "Class 9", ADR 054).
 */
function expectReasonFromCode(answer: {
  cannot_mark_reason: string;
  cannot_mark: { code: keyof typeof ERROR_CODES; params: Record<string, string | number> };
}): void {
  const { code, params } = answer.cannot_mark;
  expect(formatErrorText(ERROR_CODES[code], withClassNames(code, params, classLabelFallback))).toBe(
    answer.cannot_mark_reason,
  );
}

describe('the roster says whether the caller may mark it', () => {
  it('a teacher reads their own class as markable, another class and an old day as read-only with the reason', async () => {
    const own = (await get(tess, '/attendance/roster?class_name=7')).json();
    expect(own).toMatchObject({
      class_name: '7',
      date: today(),
      can_mark: true,
      cannot_mark_reason: null,
      cannot_mark: null,
    });
    expect(own.students.map((s: { student_id: number }) => s.student_id)).toContain(students.seven.id);

    const other = await get(tess, '/attendance/roster?class_name=9');
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({
      can_mark: false,
      cannot_mark_reason: NOT_NINE,
      cannot_mark: { code: 'attendance.class_not_yours', params: { count: 2, classes: '7, 8', other: '9' } },
    });
    expectReasonFromCode(other.json());
    expect(other.json().students.map((s: { student_id: number }) => s.student_id)).toContain(students.nine.id);

    const old = (await get(tess, `/attendance/roster?class_name=7&date=${addDays(today(), -3)}`)).json();
    expect(old.can_mark).toBe(false);
    expect(old.cannot_mark_reason).toBe(
      `Teachers can mark attendance only from ${addDays(today(), -2)} to ${today()} (today and the 2 days before); an admin can mark earlier days.`,
    );
    expect(old.cannot_mark).toEqual({
      code: 'attendance.teacher_window',
      params: { earliest: addDays(today(), -2), today: today(), days: 2 },
    });
    expectReasonFromCode(old);
  });

  it('a teacher who may mark only today reads yesterday with that reason, as a code', async () => {
    expect((await putRules(admin, { teacher_mark_days_back: 0, teachers_mark_any_class: false })).statusCode).toBe(200);
    const yesterday = (await get(tess, `/attendance/roster?class_name=7&date=${addDays(today(), -1)}`)).json();
    expect(yesterday).toMatchObject({
      can_mark: false,
      cannot_mark_reason: `Teachers can mark attendance only for today (${today()}); an admin can mark earlier days.`,
      cannot_mark: { code: 'attendance.teacher_today_only', params: { today: today() } },
    });
    expectReasonFromCode(yesterday);
  });

  it('an admin may mark every class on a past day, not a future one', async () => {
    const past = (await get(admin, `/attendance/roster?class_name=9&date=${addDays(today(), -90)}`)).json();
    expect(past).toMatchObject({ can_mark: true, cannot_mark_reason: null, cannot_mark: null });
    const future = (await get(admin, `/attendance/roster?class_name=9&date=${addDays(today(), 1)}`)).json();
    expect(future).toMatchObject({
      can_mark: false,
      cannot_mark_reason: 'Attendance cannot be marked for a future date.',
      cannot_mark: { code: 'attendance.future_date', params: {} },
    });
    expectReasonFromCode(future);
  });
});

describe('GET /attendance/marking-scope', () => {
  it('gives a teacher their classes and the window; an admin every class and no limit', async () => {
    const scope = await get(tess, '/attendance/marking-scope');
    expect(scope.statusCode).toBe(200);
    expect(scope.json()).toEqual({
      restricted: true,
      classes: ['7', '8'],
      any_class: false,
      days_back: 2,
      earliest_date: addDays(today(), -2),
      today: today(),
      cannot_mark_reason: null,
      cannot_mark: null,
    });
    expect((await get(admin, '/attendance/marking-scope')).json()).toEqual({
      restricted: false,
      classes: ['7', '8', '9', '10'],
      any_class: false,
      days_back: 2,
      earliest_date: null,
      today: today(),
      cannot_mark_reason: null,
      cannot_mark: null,
    });
  });

  it('says why a teacher with no class can mark nothing, and follows the settings', async () => {
    const idle = await signedInTeacher({ first_name: 'Scope', last_name: 'Less', classes_assigned: [] });
    expect((await get(idle.caller, '/attendance/marking-scope')).json()).toMatchObject({
      restricted: true,
      classes: [],
      cannot_mark_reason: expect.stringMatching(/^No class is assigned to you/),
      cannot_mark: { code: 'attendance.no_class_assigned', params: {} },
    });
    expectReasonFromCode((await get(idle.caller, '/attendance/marking-scope')).json());
    expect((await putRules(admin, { teacher_mark_days_back: 5, teachers_mark_any_class: true })).statusCode).toBe(200);
    expect((await get(idle.caller, '/attendance/marking-scope')).json()).toEqual({
      restricted: true,
      classes: ['7', '8', '9', '10'],
      any_class: true,
      days_back: 5,
      earliest_date: addDays(today(), -5),
      today: today(),
      cannot_mark_reason: null,
      cannot_mark: null,
    });
  });

  it('answers 401 without a token', async () => {
    const response = await api.anonymous().get('/api/v1/attendance/marking-scope');
    expect(response.statusCode).toBe(401);
  });
});

describe('the marking rules setting', () => {
  it('starts at 2 days back and own classes only (migration 0007), readable by staff', async () => {
    const rows = await api.db.query<{ key: string; value: string }>(
      "SELECT key, value FROM settings WHERE key IN ('teacher_mark_days_back', 'teachers_mark_any_class') ORDER BY key",
    );
    expect(rows).toEqual([
      { key: 'teacher_mark_days_back', value: '2' },
      { key: 'teachers_mark_any_class', value: 'false' },
    ]);
    for (const headers of [admin, tess]) {
      const response = await get(headers, '/settings/marking');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(RULES);
    }
  });

  it('leaves /settings answering exactly what it did', async () => {
    const response = await get(admin, '/settings');
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json())).toEqual(['absence_alerts']);
  });

  it('an admin changes it, with one activity row saying what the rules are now; saving the same values adds none', async () => {
    const before = await countActivities('settings.updated');
    const response = await putRules(admin, { teacher_mark_days_back: 4, teachers_mark_any_class: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ teacher_mark_days_back: 4, teachers_mark_any_class: true });
    expect((await get(tess, '/settings/marking')).json()).toEqual(response.json());
    const [activity] = await api.db.query<{ description: string; actor: string }>(
      "SELECT description, actor FROM activities WHERE action = 'settings.updated' ORDER BY id DESC LIMIT 1",
    );
    expect(activity).toEqual({
      actor: 'Administrator',
      description:
        'Administrator changed the attendance marking rules: any teacher marks any class, today and 4 days back',
    });
    expect(await countActivities('settings.updated')).toBe(before + 1);
    expect((await putRules(admin, { teacher_mark_days_back: 4, teachers_mark_any_class: true })).statusCode).toBe(200);
    expect(await countActivities('settings.updated')).toBe(before + 1);
    await putRules(admin, { teacher_mark_days_back: 0, teachers_mark_any_class: false });
    const [latest] = await api.db.query<{ description: string }>(
      "SELECT description FROM activities WHERE action = 'settings.updated' ORDER BY id DESC LIMIT 1",
    );
    expect(latest?.description).toBe(
      'Administrator changed the attendance marking rules: teachers mark only their own classes, today only',
    );
  });

  it('refuses a teacher with 403 and changes nothing', async () => {
    const before = await countActivities('settings.updated');
    const response = await putRules(tess, { teacher_mark_days_back: 31, teachers_mark_any_class: true });
    expect(response.statusCode).toBe(403);
    expect(detailOf(response)).toBe('You do not have permission to do this');
    expect((await get(admin, '/settings/marking')).json()).toEqual(RULES);
    expect(await countActivities('settings.updated')).toBe(before);
  });

  it.each([
    [{ teachers_mark_any_class: false }, 'teacher_mark_days_back: must be a whole number from 0 to 31'],
    [{ ...RULES, teacher_mark_days_back: -1 }, 'teacher_mark_days_back: must be a whole number from 0 to 31'],
    [{ ...RULES, teacher_mark_days_back: 32 }, 'teacher_mark_days_back: must be a whole number from 0 to 31'],
    [{ ...RULES, teacher_mark_days_back: 1.5 }, 'teacher_mark_days_back: must be a whole number from 0 to 31'],
    [{ ...RULES, teacher_mark_days_back: '2' }, 'teacher_mark_days_back: must be a whole number from 0 to 31'],
    [{ ...RULES, teacher_mark_days_back: null }, 'teacher_mark_days_back: must be a whole number from 0 to 31'],
    [{ ...RULES, teacher_mark_days_back: 1e308 }, 'teacher_mark_days_back: must be a whole number from 0 to 31'],
    [{ teacher_mark_days_back: 2 }, 'teachers_mark_any_class: must be true or false'],
    [{ ...RULES, teachers_mark_any_class: 'yes' }, 'teachers_mark_any_class: must be true or false'],
    [{ ...RULES, teachers_mark_any_class: 1 }, 'teachers_mark_any_class: must be true or false'],
  ])('refuses %j with 422 naming the field, and changes nothing', async (payload, detail) => {
    const response = await putRules(admin, payload);
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toBe(detail);
    expect((await get(admin, '/settings/marking')).json()).toEqual(RULES);
  });

  it('treats a value edited by hand into nonsense as the default, never as "no limit"', async () => {
    await api.db.query("UPDATE settings SET value = 'lots' WHERE key = 'teacher_mark_days_back'");
    expect((await get(admin, '/settings/marking')).json()).toEqual(RULES);
    const response = await mark(tess, addDays(today(), -3), [{ student_id: students.seven.id, status: 'present' }]);
    expect(response.statusCode).toBe(422);
  });
});
