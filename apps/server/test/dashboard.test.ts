import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../src/lib/time';
import { type Caller, type TestClient, testClient } from './helpers/client';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

function summary(caller: Caller) {
  return caller.get('/api/v1/dashboard/summary');
}

describe('GET /dashboard/summary', () => {
  it('answers zeros on an empty centre', async () => {
    const response = await summary(api.as('admin'));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      date: today(),
      total_students: 0,
      total_teachers: 0,
      active_classes: 0,
      pending_approval: 0,
      messages_sent: 0,
      not_reached: 0,
      attendance_rate: 0,
      classes_without_attendance: [],
    });
  });

  it('counts the centre for admins and teachers, and lists the classes not marked today', async () => {
    const admin = api.as('admin');
    const seven = await api.student({ class_name: '7' });
    await api.student({ class_name: '7' });
    await api.student({ class_name: '10' });
    const nine = await api.student({ class_name: '9' });
    await api.teacher();
    // The test teacher behind as('teacher') is the second teacher, created before anything is counted.
    await api.teacherToken();
    const marked = await admin.post('/api/v1/attendance/mark', {
      date: today(),
      records: [
        { student_id: seven.id, status: 'present' },
        { student_id: nine.id, status: 'absent' },
      ],
    });
    expect(marked.statusCode).toBe(200);
    const ids = (await api.db.query<{ id: number }>('SELECT id FROM attendance WHERE student_id = $1', [seven.id])).map(
      (row) => row.id,
    );
    await admin.post('/api/v1/attendance/approve', { attendance_ids: ids });
    await admin.post('/api/v1/messages/send-to-parents', {
      subject: 'Holiday',
      message: 'Closed on Monday',
      recipients: '10',
    });

    for (const caller of [admin, api.as('teacher')]) {
      const response = await summary(caller);
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
    expect((await summary(api.anonymous())).statusCode).toBe(401);
  });
});
