import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, readableDate, today } from '../src/lib/time';
import { expectRefusal } from './helpers/answers';
import { type TestClient, testClient } from './helpers/client';
import { feeFamily, pay, postCharge } from './helpers/fees-ledger';
import { detailOf } from './helpers/test-app';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
  // The test teacher exists from the start: the feed below counts the rows creating it wrote.
  await api.teacherToken();
});
afterAll(async () => {
  await api?.close();
});

interface ActivityItem {
  id: number;
  description: string;
  time_ago: string;
  action: string;
  text_code: string | null;
  params: Record<string, string | number> | null;
  actor: string | null;
  created_at: string;
}

type Staff = 'admin' | 'teacher';

async function recent(who: Staff, query = '') {
  const response = await api.as(who).get(`/api/v1/activities/recent${query}`);
  expect(response.statusCode).toBe(200);
  return response.json() as { activities: ActivityItem[]; count: number };
}

function markViewed(who: Staff, options: { contentType?: string; payload?: string } = {}) {
  return api.as(who).post('/api/v1/activities/mark-viewed', undefined, {
    headers: options.contentType ? { 'content-type': options.contentType } : {},
    raw: options.payload,
  });
}

async function activityCount(): Promise<number> {
  const rows = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM activities');
  return rows[0]?.count ?? 0;
}

/** Activity rows as staff actions leave them, dated `minutesAgo` before now. */
async function insertActivities(entries: { description: string; minutesAgo: number }[]) {
  for (const entry of entries) {
    await api.db.query(
      `INSERT INTO activities (user_id, actor, action, description, created_at)
       VALUES (NULL, 'Someone', 'test.seeded', $1, now() - make_interval(mins => $2::int))`,
      [entry.description, entry.minutesAgo],
    );
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('authentication', () => {
  it('refuses both calls without a token with 401', async () => {
    const list = await api.anonymous().get('/api/v1/activities/recent');
    expect(list.statusCode).toBe(401);
    expect(detailOf(list)).toBeTruthy();
    const mark = await api.anonymous().post('/api/v1/activities/mark-viewed');
    expect(mark.statusCode).toBe(401);
    expect(detailOf(mark)).toBeTruthy();
  });
});

describe('GET /activities/recent', () => {
  beforeAll(async () => {
    await api.db.query('DELETE FROM activities');
    await insertActivities([
      { description: 'oldest, two days ago', minutesAgo: 2 * 24 * 60 },
      { description: 'three hours ago', minutesAgo: 3 * 60 },
      { description: 'five minutes ago', minutesAgo: 5 },
    ]);
    for (let i = 1; i <= 9; i += 1)
      await insertActivities([{ description: `older ${i}`, minutesAgo: 3 * 24 * 60 + i }]);
  });

  it('answers the 10 newest by default, newest first, with time_ago, and count = the number answered', async () => {
    const body = await recent('admin');
    expect(body.count).toBe(10);
    expect(body.activities).toHaveLength(10);
    expect(body.activities.slice(0, 3).map((a) => [a.description, a.time_ago])).toEqual([
      ['five minutes ago', '5 minutes ago'],
      ['three hours ago', '3 hours ago'],
      ['oldest, two days ago', '2 days ago'],
    ]);
    expect(body.activities[3]?.description).toBe('older 1');
    expect(body.activities[0]).toEqual({
      id: expect.any(Number),
      description: 'five minutes ago',
      time_ago: '5 minutes ago',
      action: 'test.seeded',
      // A row written without a code from the activity catalogue (as before ADR 038): English only.
      text_code: null,
      params: null,
      actor: 'Someone',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/),
    });
  });

  it('honours limit', async () => {
    const two = await recent('admin', '?limit=2');
    expect(two.count).toBe(2);
    expect(two.activities.map((a) => a.description)).toEqual(['five minutes ago', 'three hours ago']);
    const all = await recent('admin', '?limit=100');
    expect(all.count).toBe(12);
  });

  it('breaks ties in time by the newest id', async () => {
    await api.db.query(
      `INSERT INTO activities (actor, action, description, created_at)
       VALUES ('Someone', 'test.tie', 'tie A', '2000-01-01T00:00:00Z'), ('Someone', 'test.tie', 'tie B', '2000-01-01T00:00:00Z')`,
    );
    const all = await recent('admin', '?limit=100');
    expect(all.activities.slice(-2).map((a) => a.description)).toEqual(['tie B', 'tie A']);
    await api.db.query("DELETE FROM activities WHERE action = 'test.tie'");
  });

  it.each([
    ['?limit=0', /^limit: must be at least 1$/],
    ['?limit=101', /^limit: must be at most 100$/],
    ['?limit=ten', /^limit: must be a number$/],
    ['?limit=2.5', /^limit: must be a whole number$/],
    ['?unread_only=maybe', /^unread_only: must be true or false$/],
  ])('refuses %s with 422', async (query, detail) => {
    const response = await api.as('admin').get(`/api/v1/activities/recent${query}`);
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toMatch(detail);
  });

  it('is open to teachers, who see the same feed', async () => {
    const body = await recent('teacher', '?limit=100');
    expect(body.count).toBe(12);
  });
});

describe('unread state, per user', () => {
  it('counts everything as unread for someone who has never viewed the feed', async () => {
    const total = await activityCount();
    expect((await recent('admin', '?unread_only=true&limit=100')).count).toBe(total);
    expect((await recent('teacher', '?unread_only=true&limit=100')).count).toBe(total);
  });

  it('marks viewed for the caller only, without writing an activity row', async () => {
    const before = await activityCount();
    const response = await markViewed('admin');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      message: 'Activities marked as viewed',
      viewed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/),
    });
    expect(Math.abs(new Date(body.viewed_at).getTime() - Date.now())).toBeLessThan(60_000);

    const users = await api.db.query<{ role: string; viewed: boolean }>(
      'SELECT role, activities_viewed_at IS NOT NULL AS viewed FROM users ORDER BY id',
    );
    expect(users).toEqual([
      { role: 'admin', viewed: true },
      { role: 'teacher', viewed: false },
    ]);
    expect(await activityCount()).toBe(before);

    expect((await recent('admin', '?unread_only=true&limit=100')).count).toBe(0);
    expect((await recent('admin', '?unread_only=false&limit=100')).count).toBe(before);
    // The admin's mark does not clear the teacher's badge.
    expect((await recent('teacher', '?unread_only=true&limit=100')).count).toBe(before);
  });

  it('counts what happens after the mark as unread again', async () => {
    await pause(20);
    // A real change: sending to parents writes one activity row.
    await api.student({ class_name: '9' });
    const send = await api.as('teacher').post('/api/v1/messages/send-to-parents', {
      subject: 'Test day',
      message: 'Bring pencils.',
      recipients: '9',
    });
    expect(send.statusCode).toBe(200);
    const unread = await recent('admin', '?unread_only=true&limit=100');
    const newRows = await api.db.query<{ id: number }>(
      `SELECT a.id FROM activities a, users u
        WHERE u.username = 'admin' AND a.created_at > u.activities_viewed_at ORDER BY a.created_at DESC, a.id DESC`,
    );
    expect(unread.count).toBe(newRows.length);
    expect(unread.activities.map((a) => a.id)).toEqual(newRows.map((row) => row.id));
    expect(unread.activities[0]?.description).toMatch(/ sent "Test day" to 1 parent of Class 9$/);
    expect(unread.activities[0]?.time_ago).toBe('just now');
    // unread_only=1 means the same.
    expect((await recent('admin', '?unread_only=1&limit=100')).count).toBe(unread.count);

    // The teacher marks viewed too: now both are clear.
    await pause(20);
    expect((await markViewed('teacher')).statusCode).toBe(200);
    expect((await recent('teacher', '?unread_only=true')).count).toBe(0);
  });
});

describe('POST /activities/mark-viewed without a body', () => {
  it.each([
    ['no content type and no body', {}],
    ['application/json and an empty body', { contentType: 'application/json', payload: '' }],
    ['application/json and only whitespace', { contentType: 'application/json', payload: '  ' }],
    [
      'application/json with charset and an empty body',
      { contentType: 'application/json; charset=utf-8', payload: '' },
    ],
    ['an empty JSON object', { contentType: 'application/json', payload: '{}' }],
    ['text/plain and an empty body', { contentType: 'text/plain', payload: '' }],
  ])('answers 200 for %s', async (_name, options) => {
    const response = await markViewed('admin', options);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Activities marked as viewed');
  });

  it('still refuses malformed JSON with 400 and a detail', async () => {
    const response = await markViewed('admin', { contentType: 'application/json', payload: '{"a":' });
    expectRefusal(response, 400, 'body: is not valid JSON');
  });

  it('keeps the usual JSON handling on other routes (an empty JSON body elsewhere is still a 400)', async () => {
    const response = await api.as('admin').post('/api/v1/messages/send-to-parents', undefined, { json: '' });
    expectRefusal(response, 400, 'body: is not valid JSON');
  });
});

describe('activity texts: dates as people read them, and "Class 9"', () => {
  const day = addDays(today(), -2);
  const dayRead = readableDate(day);

  async function newest(action: string): Promise<string | undefined> {
    const body = await recent('admin', '?limit=100');
    return body.activities.find((activity) => activity.action === action)?.description;
  }

  it('marking attendance names the classes with a capital C and the day as "23 Nov 2026"', async () => {
    const nine = await api.student({ class_name: '9' });
    const ten = await api.student({ class_name: '10' });
    const one = await api.as('admin').post('/api/v1/attendance/mark', {
      date: day,
      records: [{ student_id: nine.id, status: 'present' }],
    });
    expect(one.statusCode).toBe(200);
    expect(await newest('attendance.marked')).toMatch(
      new RegExp(`marked attendance for 1 student of Class 9 on ${dayRead}$`),
    );
    const two = await api.as('admin').post('/api/v1/attendance/mark', {
      date: day,
      records: [
        { student_id: ten.id, status: 'absent' },
        { student_id: nine.id, status: 'present' },
      ],
    });
    expect(two.statusCode).toBe(200);
    expect(await newest('attendance.marked')).toMatch(
      new RegExp(`marked attendance for 2 students of Classes 9, 10 on ${dayRead}$`),
    );
    // Stored as shown: the text is right at its source, not only on the way out.
    const stored = await api.db.query<{ description: string }>(
      "SELECT description FROM activities WHERE action = 'attendance.marked' ORDER BY id DESC LIMIT 1",
    );
    expect(stored[0]?.description).toMatch(/of Classes 9, 10 on \d{1,2} [A-Z][a-z]{2} \d{4}$/);
  });

  it('teacher attendance: saved, remarks and locked name the day as people read it', async () => {
    const teacher = await api.teacher();
    const saved = await api.as('admin').post('/api/v1/teacher-attendance/mark', {
      date: day,
      teacher_records: [{ teacher_id: teacher.id, status: 'present' }],
    });
    expect(saved.statusCode).toBe(200);
    expect(await newest('teacher_attendance.marked')).toMatch(new RegExp(`for 1 teacher on ${dayRead}$`));
    const remarks = await api.as('admin').post('/api/v1/teacher-attendance/update-remarks', {
      teacher_id: teacher.id,
      date: day,
      remarks: 'Came in for the morning only',
    });
    expect(remarks.statusCode).toBe(200);
    expect(await newest('teacher_attendance.remarks_updated')).toMatch(new RegExp(` for ${dayRead}$`));
    const locked = await api.as('admin').post(`/api/v1/teacher-attendance/lock/${day}`);
    expect(locked.statusCode).toBe(200);
    expect(await newest('teacher_attendance.locked')).toMatch(
      new RegExp(`locked teacher attendance for ${dayRead} \\(\\d+ teachers? marked\\)$`),
    );
  });

  it('rows stored in the older form read as new ones do; other texts with dates are left as written', async () => {
    const older: [string, string][] = [
      ['attendance.marked', 'Asha Rao marked attendance for 3 students of class 9 on 2026-11-23'],
      ['attendance.marked', 'Asha Rao marked attendance for 4 students of class 8, 10 on 2026-11-03'],
      [
        'attendance.marked',
        "Asha Rao marked attendance for 1 student of class 7 on 2026-01-09 (sent from a device's queue)",
      ],
      ['teacher_attendance.marked', 'Administrator saved teacher attendance for 2 teachers on 2026-11-23'],
      ['teacher_attendance.locked', 'Administrator locked teacher attendance for 2026-11-23 (1 teacher marked)'],
      [
        'teacher_attendance.remarks_updated',
        'Administrator updated the remarks of Ravi 2026-01-01 Kumar for 2026-11-23',
      ],
      // Someone's own words: a subject with a date and "class" in it is never rewritten.
      ['messages.sent', 'Administrator sent "Exams of class 9 on 2026-12-01" to 3 parents of Class 9'],
    ];
    await api.db.query('DELETE FROM activities');
    for (const [action, description] of older) {
      await api.db.query("INSERT INTO activities (actor, action, description) VALUES ('Someone', $1, $2)", [
        action,
        description,
      ]);
    }
    const shown = (await recent('admin', '?limit=100')).activities.map((activity) => activity.description).reverse();
    expect(shown).toEqual([
      'Asha Rao marked attendance for 3 students of Class 9 on 23 Nov 2026',
      'Asha Rao marked attendance for 4 students of Classes 8, 10 on 3 Nov 2026',
      "Asha Rao marked attendance for 1 student of Class 7 on 9 Jan 2026 (sent from a device's queue)",
      'Administrator saved teacher attendance for 2 teachers on 23 Nov 2026',
      'Administrator locked teacher attendance for 23 Nov 2026 (1 teacher marked)',
      'Administrator updated the remarks of Ravi 2026-01-01 Kumar for 23 Nov 2026',
      'Administrator sent "Exams of class 9 on 2026-12-01" to 3 parents of Class 9',
    ]);
    // The stored rows are as they were written.
    const stored = await api.db.query<{ description: string }>('SELECT description FROM activities ORDER BY id');
    expect(stored.map((row) => row.description)).toEqual(older.map(([, description]) => description));
  });
});

describe('money is for admins: fee activities are in no teacher feed', () => {
  it("shows a payment and its reversal to the admin, and leaves them out of a teacher's feed (limit counts what is shown)", async () => {
    const family = await feeFamily(api, 1, 'Kavya Rao');
    await postCharge(api.db, family.familyId, family.children[0] ?? null, 100_000, today());
    const payment = await pay(api, family.familyId, 125_000);
    const reversed = await api
      .as('admin')
      .post(`/api/v1/fees/payments/${payment.payment_id}/reverse`, { reason: 'Entered twice' });
    expect(reversed.statusCode, reversed.body).toBe(200);

    const admin = await recent('admin', '?limit=3');
    expect(admin.activities.map((item) => item.action)).toEqual([
      'fees.payment_reversed',
      'fees.payment_received',
      'student.created',
    ]);
    expect(admin.activities[1]?.description).toBe(
      `Administrator recorded a payment of ₹1,250.00 from Kavya Rao (${family.phone}), cash, receipt ${payment.receipt_number}`,
    );

    const teacher = await recent('teacher', '?limit=3');
    expect(teacher.count).toBe(3);
    expect(teacher.activities[0]?.action).toBe('student.created');
    expect(teacher.activities.filter((item) => item.action.startsWith('fees.'))).toEqual([]);
    const everything = await recent('teacher', '?limit=100');
    expect(everything.activities.some((item) => item.action.startsWith('fees.'))).toBe(false);
    const unread = await recent('teacher', '?limit=100&unread_only=true');
    expect(unread.activities.some((item) => item.action.startsWith('fees.'))).toBe(false);
  });
});
