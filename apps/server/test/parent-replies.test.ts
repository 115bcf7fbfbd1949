import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { expectRefusal } from './helpers/answers';
import { type Caller, type TestClient, testClient } from './helpers/client';
import { checkIntegrity } from './helpers/integrity';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

let dayOffset = 2;
/** A family with the parent app, and an absence alert for one of its children, approved on its own day. */
async function familyWithAlert(status: 'absent' | 'late' = 'absent') {
  const family = await api.family({ full_name: 'Riya Sharma', parent_name: 'Meena Sharma' });
  const parent = api.as('parent', family);
  dayOffset += 1;
  const date = addDays(today(), -dayOffset);
  await api.as('admin').post('/api/v1/attendance/mark', {
    date,
    records: [{ student_id: family.studentId, status }],
  });
  const [record] = await api.db.query<{ id: number }>('SELECT id FROM attendance WHERE student_id = $1 AND date = $2', [
    family.studentId,
    date,
  ]);
  expect((await api.as('admin').post('/api/v1/attendance/approve', { attendance_ids: [record?.id] })).statusCode).toBe(
    200,
  );
  const inbox = (await parent.get('/api/v1/parent/messages')).json();
  const alert = inbox.messages.find(
    (m: { kind: string }) => m.kind === `${status === 'late' ? 'late' : 'absence'}_alert`,
  );
  return { family, parent, alert, recordId: record?.id as number, date };
}

function reply(parent: Caller, messageId: number, answer: string) {
  return parent.post(`/api/v1/parent/messages/${messageId}/reply`, { reply: answer });
}

describe('one-tap replies in the parent app', () => {
  it('offers the replies on an alert, records the answer as the reason on the record, and only once', async () => {
    const { parent, alert, recordId } = await familyWithAlert();
    expect(alert).toMatchObject({ can_reply: true, reply: null, kind: 'absence_alert' });

    const answered = await reply(parent, alert.id, 'family');
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toMatchObject({
      id: alert.id,
      reply: 'family',
      can_reply: false,
      read_at: expect.any(String),
    });
    const [record] = await api.db.query<{ parent_reason: string }>(
      'SELECT parent_reason FROM attendance WHERE id = $1',
      [recordId],
    );
    expect(record?.parent_reason).toBe('Family reason');
    const history = await api.as('teacher').get('/api/v1/communications/history?limit=20');
    expect(history.json().find((m: { id: number }) => m.id === alert.id)).toMatchObject({
      reply: 'family',
      delivery_status: 'read',
    });
    const [activity] = await api.db.query<{ description: string; user_id: number | null }>(
      "SELECT description, user_id FROM activities WHERE action = 'messages.parent_replied' ORDER BY id DESC LIMIT 1",
    );
    expect(activity).toMatchObject({ user_id: null });
    expect(activity?.description).toMatch(
      /^Meena Sharma replied "Family reason" to the absence alert for Riya Sharma on \d{1,2} \w{3} \d{4} \(parent app\)$/,
    );

    expectRefusal(await reply(parent, alert.id, 'sick'), 409, 'This alert was already answered');
  });

  it('records one answer when two arrive at once, and the record keeps that one', async () => {
    const { parent, alert, recordId } = await familyWithAlert('late');
    const answers = await Promise.all([reply(parent, alert.id, 'sick'), reply(parent, alert.id, 'late')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)?.json().reply;
    const [record] = await api.db.query<{ parent_reason: string }>(
      'SELECT parent_reason FROM attendance WHERE id = $1',
      [recordId],
    );
    expect(record?.parent_reason).toBe(winner === 'sick' ? 'Sick' : 'Coming late');
  });

  it('puts the family on the call list for "Please call me"', async () => {
    const { family, parent, alert } = await familyWithAlert();
    expect((await reply(parent, alert.id, 'call')).statusCode).toBe(200);
    const list = await api.as('teacher').get('/api/v1/communications/call-list');
    expect(list.json().items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ message_id: alert.id, phone: family.phone, reason: 'call_requested' }),
      ]),
    );
    const ticked = await api.as('teacher').put(`/api/v1/communications/call-list/${alert.id}`, { called: true });
    expect(ticked.statusCode).toBe(200);
    expect(ticked.json().items.find((item: { message_id: number }) => item.message_id === alert.id)).toMatchObject({
      called_by: expect.any(String),
      called_at: expect.any(String),
    });
  });

  it("refuses another family's alert, a notice, and a reply it does not know", async () => {
    const mine = await familyWithAlert();
    const theirs = await familyWithAlert();
    expectRefusal(await reply(mine.parent, theirs.alert.id, 'sick'), 404, 'This alert was not found');
    const [notice] = await api.db.query<{ id: number }>(
      `INSERT INTO messages (message_type, kind, subject, message, recipient, sent_by) VALUES ('IN_APP', 'notice', 'Hi', 'Body', $1, 'Admin') RETURNING id`,
      [mine.family.phone],
    );
    expectRefusal(await reply(mine.parent, notice?.id as number, 'sick'), 404, 'This alert was not found');
    expectRefusal(
      await reply(mine.parent, mine.alert.id, 'maybe'),
      422,
      'reply: must be one of sick, family, late or call',
    );
    const [untouched] = await api.db.query<{ reply: string | null }>('SELECT reply FROM messages WHERE id = $1', [
      theirs.alert.id,
    ]);
    expect(untouched?.reply).toBeNull();
  });
});

describe("the parent app's WhatsApp switch", () => {
  it('shows and changes the family consent, logged as the parent’s own, for every child', async () => {
    const family = await api.family({ parent_whatsapp_opt_in: true });
    await api.student({ parent_phone: family.phone, full_name: 'Sibling' });
    const parent = api.as('parent', family);
    expect((await parent.get('/api/v1/parent/whatsapp')).json()).toEqual({ opted_in: true, available: false });

    const off = await parent.put('/api/v1/parent/whatsapp', { opted_in: false });
    expect(off.json()).toEqual({ opted_in: false, available: false });
    const rows = await api.db.query<{ parent_whatsapp_opt_in: boolean }>(
      'SELECT parent_whatsapp_opt_in FROM students WHERE parent_phone = $1',
      [family.phone],
    );
    expect(rows).toEqual([{ parent_whatsapp_opt_in: false }, { parent_whatsapp_opt_in: false }]);
    const log = await api.db.query<{ opted_in: boolean; source: string }>(
      'SELECT opted_in, source FROM whatsapp_consent_log WHERE phone = $1 ORDER BY id',
      [family.phone],
    );
    expect(log.at(-1)).toEqual({ opted_in: false, source: 'parent_app' });
    // Saying the same again changes nothing and logs nothing.
    await parent.put('/api/v1/parent/whatsapp', { opted_in: false });
    expect(await api.db.query('SELECT id FROM whatsapp_consent_log WHERE phone = $1', [family.phone])).toHaveLength(
      log.length,
    );
    expectRefusal(
      await parent.put('/api/v1/parent/whatsapp', { opted_in: 'no' }),
      422,
      'opted_in: must be true or false',
    );
  });

  it('is for parents only', async () => {
    expect((await api.as('admin').get('/api/v1/parent/whatsapp')).statusCode).toBe(403);
    expect((await api.anonymous().put('/api/v1/parent/whatsapp', { opted_in: true })).statusCode).toBe(401);
  });
});

describe('afterwards', () => {
  it('leaves the database consistent', async () => {
    expect(await checkIntegrity(api.db)).toEqual([]);
  });
});
