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

describe('families not reached', () => {
  it('counts the last week’s messages no channel reached after the set minutes, as the call list lists them', async () => {
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const message = async (phone: string, sentAt: string, status: string, callRequested = false) => {
      const [row] = await api.db.query<{ id: number }>(
        `INSERT INTO messages (message_type, kind, subject, message, recipient, sent_by, sent_at, delivery_status, call_requested_at)
         VALUES ('IN_APP', 'notice', 'Closed on Friday', 'The centre is closed on Friday.', $1, 'admin', $2, $3,
                 CASE WHEN $4::boolean THEN now() END)
         RETURNING id`,
        [phone, sentAt, status, callRequested],
      );
      return row?.id as number;
    };
    const notReached = async () => ((await summary(api.as('teacher'))).json() as { not_reached: number }).not_reached;
    const before = await notReached();
    await message('+919800000101', ago(29), 'sent'); // not yet: the centre gives it 30 minutes
    await message('+919800000102', ago(32), 'sent'); // not reached
    await message('+919800000103', ago(32), 'delivered'); // reached
    await message('+919800000104', ago(5), 'failed'); // failed at once
    await message('+919800000105', ago(3), 'delivered', true); // reached, but asked for a call
    await message('+919800000106', ago(8 * 24 * 60), 'sent'); // too old to call about
    await message('+919800000107', ago(8 * 24 * 60), 'failed');

    expect(await notReached()).toBe(before + 3);
    const list = (await api.as('teacher').get('/api/v1/communications/call-list')).json() as {
      items: { phone: string }[];
      waiting_count: number;
    };
    const mine = list.items.map((item) => item.phone).filter((phone) => phone.startsWith('+9198000001'));
    expect(mine.sort()).toEqual(['+919800000102', '+919800000104', '+919800000105']);
    expect(list.waiting_count).toBe(before + 3);
  });
});
