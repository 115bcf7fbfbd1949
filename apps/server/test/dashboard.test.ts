import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../src/lib/time';
import { auth, createStudent, createTeacher, createTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function summary(headers: Record<string, string>) {
  return t.app.inject({ method: 'GET', url: '/api/v1/dashboard/summary', headers });
}

describe('GET /dashboard/summary', () => {
  it('answers zeros on an empty centre', async () => {
    const response = await summary(auth(await t.adminToken()));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      date: today(),
      total_students: 0,
      total_teachers: 0,
      active_classes: 0,
      pending_approval: 0,
      messages_sent: 0,
      attendance_rate: 0,
      classes_without_attendance: [],
    });
  });

  it('counts the centre for admins and teachers, and lists the classes not marked today', async () => {
    const token = await t.adminToken();
    const seven = await createStudent(t.app, token, { class_name: '7' });
    await createStudent(t.app, token, { class_name: '7' });
    await createStudent(t.app, token, { class_name: '10' });
    const nine = await createStudent(t.app, token, { class_name: '9' });
    await createTeacher(t.app, token);
    const marked = await t.app.inject({
      method: 'POST',
      url: '/api/v1/attendance/mark',
      headers: auth(token),
      payload: {
        date: today(),
        records: [
          { student_id: seven.id, status: 'present' },
          { student_id: nine.id, status: 'absent' },
        ],
      },
    });
    expect(marked.statusCode).toBe(200);
    const ids = (await t.db.query<{ id: number }>('SELECT id FROM attendance WHERE student_id = $1', [seven.id])).map(
      (row) => row.id,
    );
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/attendance/approve',
      headers: auth(token),
      payload: { attendance_ids: ids },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/messages/send-to-parents',
      headers: auth(token),
      payload: { subject: 'Holiday', message: 'Closed on Monday', recipients: '10' },
    });

    for (const headers of [auth(token), auth(await t.teacherToken())]) {
      const response = await summary(headers);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        total_students: 4,
        total_teachers: 2, // the one above and the one behind teacherToken()
        active_classes: 3,
        pending_approval: 1,
        messages_sent: 1,
        attendance_rate: 100,
        // Class 7 has a record today (one of its two students), class 9 too; class 10 has none.
        classes_without_attendance: [{ class_name: '10', students: 1 }],
      });
    }
  });

  it('needs a token', async () => {
    expect((await summary({})).statusCode).toBe(401);
  });
});
