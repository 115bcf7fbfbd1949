import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { type TestClient, testClient } from './helpers/client';
import { detailOf, uniquePhone } from './helpers/test-app';

/** How often the approval woke the push worker (once per approval that sent alerts, after it committed). */
let notifications = 0;

let api: TestClient;
let admin: string;
let teacher: string;

beforeAll(async () => {
  api = await testClient({
    prepare: (ctx) => {
      const wake = ctx.push.wake.bind(ctx.push);
      ctx.push.wake = () => {
        notifications += 1;
        wake();
      };
      return ctx;
    },
  });
  admin = await api.adminToken();
  teacher = await api.teacherToken();
});
afterAll(async () => {
  await api?.close();
});

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function spoken(isoDate: string): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

let dayOffset = 3;
/** Each test marks its own past day, so pending lists never mix. */
function nextDay(): string {
  dayOffset += 1;
  return addDays(today(), -dayOffset);
}

async function mark(date: string, records: { student_id: number; status: string; remarks?: string }[]) {
  // The admin: each test marks its own day further back than a teacher may (ADR 019).
  const response = await api.as('admin').post('/api/v1/attendance/mark', { date, records });
  expect(response.statusCode).toBe(200);
  const pending = await api.as('admin').get(`/api/v1/attendance/pending-approval?attendance_date=${date}`);
  const ids = new Map<number, number>();
  for (const record of pending.json() as { id: number; student_id: number }[]) ids.set(record.student_id, record.id);
  return ids;
}

function approve(ids: number[], token = admin) {
  return api.withToken(token).post('/api/v1/attendance/approve', { attendance_ids: ids });
}

function putSettings(payload: unknown, token = admin) {
  return api.withToken(token).put('/api/v1/settings', payload);
}

interface AlertRow {
  id: number;
  message_type: string;
  kind: string;
  subject: string;
  message: string;
  recipient: string;
  recipient_name: string;
  student_id: number;
  sent_by: string;
  sent_by_user_id: number;
  delivery_status: string;
}

function alertsFor(studentIds: number[]): Promise<AlertRow[]> {
  return api.db.query<AlertRow>(
    `SELECT id, message_type, kind, subject, message, recipient, recipient_name, student_id, sent_by, sent_by_user_id,
            delivery_status
       FROM messages WHERE kind IN ('absence_alert', 'late_alert') AND student_id = ANY($1::int[]) ORDER BY id`,
    [studentIds],
  );
}

describe('absence alerts on approval', () => {
  it('alerts the parents of absent and late records, not present or leave, in the approval transaction', async () => {
    const date = nextDay();
    const absent = await api.student({ full_name: 'Asha Verma', parent_name: 'Ramesh Verma' });
    const late = await api.student({ full_name: 'Bilal Sheikh', parent_name: 'Nadia Sheikh' });
    const present = await api.student({ full_name: 'Chetan Gowda' });
    const leave = await api.student({ full_name: 'Divya Reddy' });
    const noName = await api.student({ full_name: 'Eshan Paul' });
    await api.db.query("UPDATE students SET parent_name = '' WHERE id = $1", [noName.id]);
    const ids = await mark(date, [
      { student_id: absent.id, status: 'absent', remarks: 'Fever' },
      { student_id: late.id, status: 'late' },
      { student_id: present.id, status: 'present' },
      { student_id: leave.id, status: 'leave', remarks: 'Wedding' },
      { student_id: noName.id, status: 'absent' },
    ]);
    notifications = 0;

    const response = await approve([...ids.values()]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      approved_count: 5,
      message: 'Successfully approved 5 attendance record(s).',
      alerted_families: 3,
    });
    // The alerted families by the channel that reaches each first add up to them (ADR 044).
    const reach = response.json().alert_reach;
    expect(reach.in_app + reach.whatsapp + reach.no_channel).toBe(3);

    const [user] = await api.db.query<{ id: number; full_name: string }>(
      "SELECT id, full_name FROM users WHERE username = 'admin'",
    );
    const alerts = await alertsFor([absent.id, late.id, present.id, leave.id, noName.id]);
    const byStudent = new Map(alerts.map((a) => [a.student_id, a]));
    expect(alerts).toHaveLength(3);
    // No family here has the app or WhatsApp: each alert is stored failed, with the reason, for the call list.
    expect(byStudent.get(absent.id)).toMatchObject({
      message_type: 'IN_APP',
      kind: 'absence_alert',
      subject: 'Absence alert',
      message: `Asha Verma was marked absent on ${spoken(date)}. Remarks: Fever`,
      recipient: absent.parent_phone,
      recipient_name: 'Ramesh Verma',
      sent_by: user?.full_name,
      sent_by_user_id: user?.id,
      delivery_status: 'failed',
    });
    expect(byStudent.get(late.id)).toMatchObject({
      kind: 'late_alert',
      subject: 'Late arrival',
      message: `Bilal Sheikh was marked late on ${spoken(date)}.`,
      recipient: late.parent_phone,
      recipient_name: 'Nadia Sheikh',
    });
    expect(byStudent.get(noName.id)).toMatchObject({
      subject: 'Absence alert',
      message: `Eshan Paul was marked absent on ${spoken(date)}.`,
      recipient_name: 'Parent of Eshan Paul',
    });

    // The senders are woken once, after the commit.
    expect(notifications).toBe(1);

    const [activity] = await api.db.query<{ description: string }>(
      "SELECT description FROM activities WHERE action = 'attendance.approved' ORDER BY id DESC LIMIT 1",
    );
    expect(activity?.description).toBe(
      `${user?.full_name} approved 5 attendance records and sent 3 absence alerts to parents`,
    );
  });

  it('never alerts twice for a record approved before', async () => {
    const date = nextDay();
    const first = await api.student({ full_name: 'Farhan Mirza' });
    const second = await api.student({ full_name: 'Gauri Patil' });
    const ids = await mark(date, [{ student_id: first.id, status: 'absent' }]);
    const firstId = ids.get(first.id) as number;
    expect((await approve([firstId])).statusCode).toBe(200);
    expect(await alertsFor([first.id])).toHaveLength(1);

    const conflict = await approve([firstId]);
    expect(conflict.statusCode).toBe(409);
    expect(await alertsFor([first.id])).toHaveLength(1);

    const secondId = (await mark(date, [{ student_id: second.id, status: 'late' }])).get(second.id) as number;
    const mixed = await approve([firstId, secondId]);
    expect(mixed.json()).toMatchObject({
      approved_count: 1,
      message: 'Successfully approved 1 attendance record(s).',
      alerted_families: 1,
    });
    expect(await alertsFor([first.id])).toHaveLength(1);
    expect(await alertsFor([second.id])).toHaveLength(1);
  });

  it('sends nothing for present-only approvals and does not mention alerts in the activity', async () => {
    const date = nextDay();
    const student = await api.student({ full_name: 'Hari Prasad' });
    const ids = await mark(date, [{ student_id: student.id, status: 'present' }]);
    notifications = 0;
    expect((await approve([...ids.values()])).statusCode).toBe(200);
    expect(await alertsFor([student.id])).toEqual([]);
    expect(notifications).toBe(0);
    const [activity] = await api.db.query<{ description: string }>(
      "SELECT description FROM activities WHERE action = 'attendance.approved' ORDER BY id DESC LIMIT 1",
    );
    expect(activity?.description).toMatch(/approved 1 attendance record$/);
  });

  it('shows the alerts in the staff history and in the parent inbox', async () => {
    const date = nextDay();
    const phone = uniquePhone();
    const student = await api.student({
      full_name: 'Indu Nair',
      parent_phone: phone,
      parent_name: 'Latha Nair',
    });
    const issued = await api.as('teacher').post(`/api/v1/students/${student.id}/parent-access`);
    const login = await api.anonymous().post('/api/v1/parent/login', { phone, code: issued.json().code });
    const parentToken = login.json().access_token as string;

    const ids = await mark(date, [{ student_id: student.id, status: 'absent', remarks: 'No word from home' }]);
    expect((await approve([...ids.values()])).statusCode).toBe(200);
    const text = `Indu Nair was marked absent on ${spoken(date)}. Remarks: No word from home`;

    const history = await api.as('teacher').get('/api/v1/communications/history');
    expect(history.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          message_type: 'IN_APP',
          kind: 'absence_alert',
          subject: 'Absence alert',
          message: text,
          recipient: phone,
          recipient_name: 'Latha Nair',
          delivery_status: 'failed',
        }),
      ]),
    );
    const inbox = await api.withToken(parentToken).get('/api/v1/parent/messages');
    expect(inbox.statusCode).toBe(200);
    expect(inbox.json().unread_count).toBe(1);
    expect(inbox.json().messages[0]).toMatchObject({
      kind: 'absence_alert',
      subject: 'Absence alert',
      message: text,
      student_id: student.id,
      read_at: null,
    });
  });

  it('approves 200 records with their alerts in one go, quickly', async () => {
    const date = nextDay();
    const students = await api.db.query<{ id: number }>(
      `INSERT INTO students (full_name, class_name, parent_name, parent_phone)
       SELECT 'Bulk Student ' || n, '8', 'Bulk Parent ' || n, '+91700000' || lpad(n::text, 4, '0')
         FROM generate_series(1, 200) AS n
       RETURNING id`,
    );
    const studentIds = students.map((s) => s.id);
    const ids = await mark(
      date,
      studentIds.map((id, index) => ({ student_id: id, status: index % 2 === 0 ? 'absent' : 'present' })),
    );
    const started = performance.now();
    const response = await approve([...ids.values()]);
    const elapsed = performance.now() - started;
    expect(response.json()).toMatchObject({
      approved_count: 200,
      message: 'Successfully approved 200 attendance record(s).',
      alerted_families: 100,
    });
    expect(await alertsFor(studentIds)).toHaveLength(100);
    expect(elapsed).toBeLessThan(3000);
  });
});

describe('centre settings', () => {
  it('answers the settings to both roles; alerts are on by default', async () => {
    for (const token of [admin, teacher]) {
      const response = await api.withToken(token).get('/api/v1/settings');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ absence_alerts: true });
    }
    expect((await api.anonymous().get('/api/v1/settings')).statusCode).toBe(401);
  });

  it('lets only an admin change them: 401, 403 and 422 change nothing', async () => {
    expect((await api.anonymous().put('/api/v1/settings', { absence_alerts: false })).statusCode).toBe(401);
    const forbidden = await putSettings({ absence_alerts: false }, teacher);
    expect(forbidden.statusCode).toBe(403);
    for (const payload of [{}, { absence_alerts: 'no' }, { absence_alerts: null }]) {
      const invalid = await putSettings(payload);
      expect(invalid.statusCode).toBe(422);
      expect(detailOf(invalid)).toBe('absence_alerts: must be true or false');
    }
    const [row] = await api.db.query<{ value: string }>("SELECT value FROM settings WHERE key = 'absence_alerts'");
    expect(row?.value).toBe('true');
  });

  it('with alerts turned off, approving sends none; turned on again, it does', async () => {
    const off = await putSettings({ absence_alerts: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ absence_alerts: false });
    const [activity] = await api.db.query<{ action: string; description: string }>(
      'SELECT action, description FROM activities ORDER BY id DESC LIMIT 1',
    );
    expect(activity?.action).toBe('settings.updated');
    expect(activity?.description).toMatch(/turned absence alerts to parents off$/);
    const seen = await api.as('teacher').get('/api/v1/settings');
    expect(seen.json()).toEqual({ absence_alerts: false });

    const date = nextDay();
    const student = await api.student({ full_name: 'Jaya Kumar' });
    const ids = await mark(date, [{ student_id: student.id, status: 'absent' }]);
    expect((await approve([...ids.values()])).statusCode).toBe(200);
    expect(await alertsFor([student.id])).toEqual([]);

    expect((await putSettings({ absence_alerts: true })).json()).toEqual({ absence_alerts: true });
    const later = await api.student({ full_name: 'Kavya Kumar' });
    const laterIds = await mark(date, [{ student_id: later.id, status: 'late' }]);
    expect((await approve([...laterIds.values()])).statusCode).toBe(200);
    expect(await alertsFor([later.id])).toHaveLength(1);
  });
});

// Last in the file: it removes the centre's alert templates, which every test above reads.
describe('a centre without alert templates', () => {
  it('still alerts, in the default template words in English (the families catalogue alert_body)', async () => {
    const date = nextDay();
    const absent = await api.student({ full_name: 'Farah Khan', parent_name: 'Imran Khan' });
    const late = await api.student({ full_name: 'Gopal Iyer' });
    const ids = await mark(date, [
      { student_id: absent.id, status: 'absent', remarks: 'Cough' },
      { student_id: late.id, status: 'late' },
    ]);
    await api.db.query("DELETE FROM message_templates WHERE purpose IN ('absence_alert', 'late_alert')");

    const response = await approve([...ids.values()]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ approved_count: 2, alerted_families: 2 });
    const alerts = await alertsFor([absent.id, late.id]);
    expect(alerts.map(({ kind, subject, message }) => ({ kind, subject, message }))).toEqual([
      {
        kind: 'absence_alert',
        subject: 'Absence alert',
        message: `Farah Khan was marked absent on ${spoken(date)}. Remarks: Cough`,
      },
      { kind: 'late_alert', subject: 'Late arrival', message: `Gopal Iyer was marked late on ${spoken(date)}.` },
    ]);
  });
});
