import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { expectRefusal } from './helpers/answers';
import { type Caller, type TestClient, testClient } from './helpers/client';
import { signInNewTeacher } from './helpers/test-app';

/**
 * The register tells the truth (issue 28, item 8): students with no mark are counted apart, per class,
 * for the dashboard and Approval; the roster says who marked it last and when.
 */
let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

function mark(caller: Caller, date: string, records: Record<string, unknown>[]) {
  return caller.post('/api/v1/attendance/mark', { date, records });
}

async function notMarked(caller: Caller, query = '') {
  const response = await caller.get(`/api/v1/attendance/not-marked${query}`);
  expect(response.statusCode).toBe(200);
  return response.json() as { date: string; classes: { class_name: string; students: number; not_marked: number }[] };
}

describe('GET /attendance/not-marked and the dashboard', () => {
  it('counts per class the students with no mark today, partly marked classes included', async () => {
    expect(await notMarked(api.as('admin'))).toEqual({ date: today(), classes: [] });
    const eight = [];
    for (let i = 0; i < 4; i += 1) eight.push(await api.student({ class_name: '8' }));
    const ten = await api.student({ class_name: '10' });
    const seven = await api.student({ class_name: '7' });
    // Class 8: one of four marked; class 7: all marked; class 10: none.
    expect((await mark(api.as('admin'), today(), [{ student_id: eight[0]?.id, status: 'absent' }])).statusCode).toBe(
      200,
    );
    expect((await mark(api.as('admin'), today(), [{ student_id: seven.id, status: 'present' }])).statusCode).toBe(200);

    const expected = [
      { class_name: '8', students: 4, not_marked: 3 },
      { class_name: '10', students: 1, not_marked: 1 },
    ];
    for (const caller of [api.as('admin'), api.as('teacher')]) {
      expect(await notMarked(caller)).toEqual({ date: today(), classes: expected });
      const summary = await caller.get('/api/v1/dashboard/summary');
      expect(summary.statusCode).toBe(200);
      // The dashboard no longer says class 8 is done because one of its students has a mark.
      expect(summary.json().classes_not_marked).toEqual(expected);
      expect(summary.json().classes_without_attendance).toEqual([{ class_name: '10', students: 1 }]);
    }

    // Another day: nobody marked there.
    const yesterday = addDays(today(), -1);
    expect(await notMarked(api.as('admin'), `?date=${yesterday}`)).toEqual({
      date: yesterday,
      classes: [
        { class_name: '7', students: 1, not_marked: 1 },
        { class_name: '8', students: 4, not_marked: 4 },
        { class_name: '10', students: 1, not_marked: 1 },
      ],
    });

    // Marking the rest, and a student who left before today, leaves nothing not marked.
    const rest = [...eight.slice(1), ten].map((student) => ({ student_id: student.id, status: 'present' }));
    const left = await api.student({ class_name: '9' });
    expect((await api.as('admin').post(`/api/v1/students/${left.id}/leave`, { left_on: yesterday })).statusCode).toBe(
      200,
    );
    expect((await mark(api.as('admin'), today(), rest)).statusCode).toBe(200);
    expect(await notMarked(api.as('admin'))).toEqual({ date: today(), classes: [] });
    expect((await api.as('admin').get('/api/v1/dashboard/summary')).json().classes_not_marked).toEqual([]);
    // Left on yesterday: still on yesterday's register, not marked there.
    expect((await notMarked(api.as('admin'), `?date=${yesterday}`)).classes).toContainEqual({
      class_name: '9',
      students: 1,
      not_marked: 1,
    });
  });

  it('refuses a date that is not one, and callers without a token', async () => {
    expectRefusal(
      await api.as('admin').get('/api/v1/attendance/not-marked?date=2026-02-30'),
      422,
      'date: is not a real calendar date',
    );
    expect((await api.anonymous().get('/api/v1/attendance/not-marked')).statusCode).toBe(401);
  });
});

describe('the roster says who marked it last, and when', () => {
  it('answers null before any mark, then the newest mark of the register', async () => {
    // A day inside a teacher's window (today and two days back by default), kept apart from the tests above.
    const date = addDays(today(), -2);
    const a = await api.student({ full_name: 'Asha Last', class_name: '9' });
    const b = await api.student({ full_name: 'Bina Last', class_name: '9' });
    const roster = (day: string) => api.as('admin').get(`/api/v1/attendance/roster?class_name=9&date=${day}`);
    expect((await roster(date)).json().last_marked).toBeNull();

    const priya = await signInNewTeacher(api.app, api.db, await api.adminToken(), {
      first_name: 'Priya',
      last_name: 'Sharma',
      classes_assigned: ['9'],
    });
    expect((await mark(api.as('admin'), date, [{ student_id: a.id, status: 'present' }])).statusCode).toBe(200);
    const first = (await roster(date)).json();
    expect(first.last_marked).toEqual({ by: 'Administrator', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const asha = first.students.find((s: { student_id: number }) => s.student_id === a.id);
    expect(Date.parse(first.last_marked.at)).toBe(Date.parse(asha.marked_at));

    // Priya marks Bina a moment later: hers is now the register's newest mark, whoever marked the rest.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await mark(api.as('teacher', priya), date, [{ student_id: b.id, status: 'late' }])).statusCode).toBe(200);
    const second = (await roster(date)).json();
    expect(second.last_marked.by).toBe('Priya Sharma');
    expect(Date.parse(second.last_marked.at)).toBeGreaterThan(Date.parse(first.last_marked.at));
    expect(Date.now() - Date.parse(second.last_marked.at)).toBeLessThan(60_000);
    // Another day's register has its own: nobody marked class 9 the day before.
    expect((await roster(addDays(date, -1))).json().last_marked).toBeNull();
  });
});
