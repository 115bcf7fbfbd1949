import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { type Caller, type TestClient, testClient } from './helpers/client';
import { detailOf, uniquePhone } from './helpers/test-app';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

const admin = () => api.as('admin');
const day = (offset: number) => addDays(today(), -offset);

async function mark(date: string, records: { student_id: number; status: string }[]): Promise<Map<number, number>> {
  const response = await admin().post('/api/v1/attendance/mark', { date, records });
  expect(response.statusCode, response.body).toBe(200);
  const pending = await admin().get(`/api/v1/attendance/pending-approval?attendance_date=${date}`);
  const ids = new Map<number, number>();
  for (const record of pending.json() as { id: number; student_id: number }[]) ids.set(record.student_id, record.id);
  return ids;
}

function approve(ids: number[]) {
  return admin().post('/api/v1/attendance/approve', { attendance_ids: ids });
}

async function pendingDays(caller: Caller = admin()) {
  const response = await caller.get('/api/v1/attendance/pending-days');
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { date: string; pending: number }[];
}

async function setAlerts(on: boolean) {
  const response = await admin().put('/api/v1/settings', { absence_alerts: on });
  expect(response.statusCode, response.body).toBe(200);
}

describe('GET /attendance/pending-days', () => {
  it('answers an empty list when nothing waits', async () => {
    expect(await pendingDays()).toEqual([]);
  });

  it('lists each day with pending records and how many, newest first, leaving approved ones out', async () => {
    const students = await Promise.all(
      ['Ira Days', 'Jai Days', 'Kavya Days'].map((full_name, index) =>
        api.student({ full_name, class_name: index === 2 ? '9' : '8' }),
      ),
    );
    const [ira, jai, kavya] = students as [(typeof students)[0], (typeof students)[0], (typeof students)[0]];
    const all = (status: string) => students.map((s) => ({ student_id: s.id, status }));
    await mark(day(0), all('present'));
    const twoDaysAgo = await mark(day(2), all('present'));
    await mark(day(5), [{ student_id: kavya.id, status: 'absent' }]);
    const sixDaysAgo = await mark(day(6), [
      { student_id: ira.id, status: 'present' },
      { student_id: jai.id, status: 'late' },
    ]);

    expect(await pendingDays()).toEqual([
      { date: day(0), pending: 3 },
      { date: day(2), pending: 3 },
      { date: day(5), pending: 1 },
      { date: day(6), pending: 2 },
    ]);

    // Part of one day approved: the rest still waits; a day approved in full drops out.
    expect((await approve([twoDaysAgo.get(ira.id) as number])).statusCode).toBe(200);
    expect((await approve([...sixDaysAgo.values()])).statusCode).toBe(200);
    expect(await pendingDays()).toEqual([
      { date: day(0), pending: 3 },
      { date: day(2), pending: 2 },
      { date: day(5), pending: 1 },
    ]);
  });

  it('counts what the pending list holds for each day', async () => {
    const days = await pendingDays();
    const all = (await admin().get('/api/v1/attendance/pending-approval')).json() as { date: string }[];
    const counted = new Map<string, number>();
    for (const record of all) counted.set(record.date, (counted.get(record.date) ?? 0) + 1);
    expect(days.map((d) => [d.date, d.pending])).toEqual([...counted]);
  });

  it('drops a day whose only pending record goes with its student', async () => {
    const student = await api.student({ full_name: 'Lata Gone', class_name: '10' });
    await mark(day(9), [{ student_id: student.id, status: 'present' }]);
    expect((await pendingDays()).find((d) => d.date === day(9))).toEqual({ date: day(9), pending: 1 });
    expect((await admin().delete(`/api/v1/students/${student.id}`)).statusCode).toBe(200);
    expect((await pendingDays()).find((d) => d.date === day(9))).toBeUndefined();
  });

  it('is for admins: a teacher gets 403 and no token 401', async () => {
    const teacher = await api.as('teacher').get('/api/v1/attendance/pending-days');
    expect(teacher.statusCode).toBe(403);
    expect((await api.anonymous().get('/api/v1/attendance/pending-days')).statusCode).toBe(401);
  });
});

describe('GET /messages/family-count', () => {
  /** What the send writes to for `recipients`: its count, and the distinct phones of the messages it stored. */
  async function sendReaches(recipients: string): Promise<{ count: number; phones: number }> {
    const response = await admin().post('/api/v1/messages/send-to-parents', {
      subject: 'Reach check',
      message: `Counting families of ${recipients}`,
      recipients,
    });
    expect(response.statusCode, response.body).toBe(200);
    const [send] = await api.db.query<{ phones: number }>(
      `SELECT count(DISTINCT recipient)::int AS phones FROM messages
        WHERE send_id = (SELECT max(id) FROM message_sends WHERE kind = 'notice')`,
    );
    return { count: response.json().recipients_count as number, phones: send?.phones ?? -1 };
  }

  type FamilyCount = { recipients: string; families: number; in_app: number; whatsapp: number; no_channel: number };
  async function familyCount(recipients: string, caller: Caller = admin()) {
    const response = await caller.get(`/api/v1/messages/family-count?recipients=${recipients}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as FamilyCount;
  }

  let sharedPhone: string;
  beforeAll(async () => {
    // Class 7: a family with two children (one phone), a family of one, a student who left (their family
    // has no other child here). Class 10: one more family, and the shared family's third child.
    sharedPhone = uniquePhone();
    await api.student({ full_name: 'Mira Sibling', class_name: '7', parent_phone: sharedPhone });
    await api.student({ full_name: 'Nikhil Sibling', class_name: '7', parent_phone: sharedPhone });
    await api.student({ full_name: 'Omar Single', class_name: '7' });
    const leaver = await api.student({ full_name: 'Pia Leaver', class_name: '7' });
    const left = await admin().post(`/api/v1/students/${leaver.id}/leave`, {});
    expect(left.statusCode, left.body).toBe(200);
    await api.student({ full_name: 'Qadir Ten', class_name: '10' });
    await api.student({ full_name: 'Rhea Sibling', class_name: '10', parent_phone: sharedPhone });
  });

  it('counts the families of a class once each, without those whose child left, as the send writes to them', async () => {
    const before = await familyCount('7');
    expect(before).toEqual({ recipients: '7', families: 2, in_app: 0, whatsapp: 0, no_channel: 2 });
    const sent = await sendReaches('7');
    expect(sent).toEqual({ count: before.families, phones: before.families });
  });

  it('counts all parents as the send to all parents writes to them', async () => {
    const [expected] = await api.db.query<{ families: number }>(
      'SELECT count(DISTINCT parent_phone)::int AS families FROM students WHERE left_on IS NULL',
    );
    const before = await familyCount('all_parents');
    expect(before).toMatchObject({ recipients: 'all_parents', families: expected?.families });
    expect(before.in_app + before.whatsapp + before.no_channel).toBe(before.families);
    const sent = await sendReaches('all_parents');
    expect(sent).toEqual({ count: before.families, phones: before.families });
  });

  it('takes a class as the send does ("Class 10" is 10), for teachers too', async () => {
    expect(await familyCount('Class%2010')).toMatchObject({ recipients: '10', families: 2 });
    expect(await familyCount('9', api.as('teacher'))).toMatchObject({ recipients: '9', families: 1 });
  });

  it('refuses recipients that are neither all parents nor a class, naming the field', async () => {
    const response = await admin().get('/api/v1/messages/family-count?recipients=11');
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toBe('recipients: must be all_parents or a class (7, 8, 9 or 10)');
    const missing = await admin().get('/api/v1/messages/family-count');
    expect(missing.statusCode).toBe(422);
    expect(detailOf(missing)).toMatch(/^recipients: /);
    expect((await api.anonymous().get('/api/v1/messages/family-count?recipients=7')).statusCode).toBe(401);
  });
});

describe('POST /attendance/approve: families alerted', () => {
  it('answers how many families the alerts went to, a family of two absent children once', async () => {
    const phone = uniquePhone();
    const first = await api.student({ full_name: 'Sana Twin', class_name: '8', parent_phone: phone });
    const second = await api.student({ full_name: 'Tara Twin', class_name: '8', parent_phone: phone });
    const late = await api.student({ full_name: 'Uday Late', class_name: '8' });
    const present = await api.student({ full_name: 'Veer Present', class_name: '8' });
    const ids = await mark(day(12), [
      { student_id: first.id, status: 'absent' },
      { student_id: second.id, status: 'absent' },
      { student_id: late.id, status: 'late' },
      { student_id: present.id, status: 'present' },
    ]);
    const response = await approve([...ids.values()]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      approved_count: 4,
      message: 'Successfully approved 4 attendance record(s).',
      alerted_families: 2,
      alert_reach: { in_app: 0, whatsapp: 0, no_channel: 2 },
    });
    const [alerts] = await api.db.query<{ messages: number }>(
      `SELECT count(*)::int AS messages FROM messages
        WHERE kind IN ('absence_alert', 'late_alert') AND student_id = ANY($1::int[])`,
      [[first.id, second.id, late.id, present.id]],
    );
    expect(alerts?.messages).toBe(3);
  });

  it('answers 0 when absence alerts are off', async () => {
    const student = await api.student({ full_name: 'Wasim Off', class_name: '9' });
    const ids = await mark(day(13), [{ student_id: student.id, status: 'absent' }]);
    await setAlerts(false);
    try {
      const response = await approve([...ids.values()]);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ approved_count: 1, alerted_families: 0 });
    } finally {
      await setAlerts(true);
    }
  });

  it('answers 0 when nobody approved was absent or late', async () => {
    const student = await api.student({ full_name: 'Xena Present', class_name: '9' });
    const ids = await mark(day(14), [{ student_id: student.id, status: 'present' }]);
    const response = await approve([...ids.values()]);
    expect(response.json()).toMatchObject({ approved_count: 1, alerted_families: 0 });
  });
});
