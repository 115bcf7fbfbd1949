/** The parent app: the inbox, delivery receipts and a child's attendance; the access code helper. */
import { normaliseAccessCode } from '@tuitiondesk/contract';
import { describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { TokenService } from '../src/lib/tokens';
import { addSubscription, admin, api, family, insertMessage, parentGet, parentsApp } from './helpers/parents';
import { detailOf } from './helpers/test-app';

parentsApp();

describe('the inbox', () => {
  it('lists only the parent’s in-app messages, newest first, with the unread count; paging works', async () => {
    const { phone, token } = await family(['Yash Menon']);
    const other = await family(['Zoya Menon']);
    const older = await insertMessage(phone, { subject: 'Older', sentAt: '2026-01-01T10:00:00Z' });
    const newer = await insertMessage(phone, { subject: 'Newer', sentAt: '2026-02-01T10:00:00Z' });
    await insertMessage(phone, { subject: 'WhatsApp', type: 'WHATSAPP' });
    await insertMessage(other.phone, { subject: 'Not yours' });

    const response = await parentGet('/parent/messages', token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.unread_count).toBe(2);
    expect(body.messages.map((m: { id: number }) => m.id)).toEqual([newer, older]);
    expect(body.messages[0]).toMatchObject({
      id: newer,
      message_type: 'IN_APP',
      subject: 'Newer',
      message: 'Body text',
      sent_by: 'Admin',
      student_id: null,
      read_at: null,
    });
    const page = await parentGet('/parent/messages?limit=1&offset=1', token);
    expect(page.json().messages.map((m: { id: number }) => m.id)).toEqual([older]);
    expect(page.json().unread_count).toBe(2);
    const bad = await parentGet('/parent/messages?limit=0', token);
    expect(bad.statusCode).toBe(422);
    expect(detailOf(bad)).toMatch(/^limit: /);
  });

  it('receives what staff send to parents', async () => {
    const { token } = await family(['Arjun Nair']);
    const sent = await api.as('teacher').post('/api/v1/messages/send-to-parents', {
      subject: 'Holiday',
      message: 'The centre is closed on Friday.',
      recipients: 'all_parents',
    });
    expect(sent.statusCode).toBe(200);
    const inbox = (await parentGet('/parent/messages', token)).json();
    expect(inbox.messages[0]).toMatchObject({ subject: 'Holiday', message: 'The centre is closed on Friday.' });
  });

  it('reading a message marks it read once (and so delivered), the staff history shows it, and its pushes are dropped', async () => {
    const { phone, token } = await family(['Bela Roy']);
    const id = await insertMessage(phone, { subject: 'Fees' });
    const subscription = await addSubscription(phone);
    await api.db.query('INSERT INTO push_outbox (message_id, subscription_id) VALUES ($1, $2)', [id, subscription]);
    await api.db.query(
      "UPDATE messages SET delivery_status = 'failed', failure_reason = 'push service said no' WHERE id = $1",
      [id],
    );

    const read = await api.withToken(token).post(`/api/v1/parent/messages/${id}/read`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id, subject: 'Fees', read_at: expect.any(String) });
    const firstReadAt = read.json().read_at;
    expect(await api.db.query('SELECT 1 FROM push_outbox WHERE message_id = $1', [id])).toEqual([]);

    const history = await api.as('admin').get('/api/v1/communications/history');
    const entry = history.json().find((m: { id: number }) => m.id === id);
    expect(entry).toMatchObject({
      delivery_status: 'read',
      message_type: 'IN_APP',
      failure_reason: null,
      delivered_at: expect.any(String),
    });

    const again = await api.withToken(token).post(`/api/v1/parent/messages/${id}/read`);
    expect(again.statusCode).toBe(200);
    expect(again.json().read_at).toBe(firstReadAt);
    const history2 = await api.as('admin').get('/api/v1/communications/history');
    expect(history2.json().find((m: { id: number }) => m.id === id).delivered_at).toBe(entry.delivered_at);
    expect((await parentGet('/parent/messages', token)).json().unread_count).toBe(0);
  });

  it("answers 404 for another phone's message and leaves it as it was", async () => {
    const mine = await family(['Chitra Bose']);
    const theirs = await family(['Dev Bose']);
    const id = await insertMessage(theirs.phone);
    const response = await api.withToken(mine.token).post(`/api/v1/parent/messages/${id}/read`);
    expect(response.statusCode).toBe(404);
    expect(detailOf(response)).toBe('Message not found');
    const [row] = await api.db.query<{ read_at: string | null; delivery_status: string }>(
      'SELECT read_at, delivery_status FROM messages WHERE id = $1',
      [id],
    );
    expect(row).toEqual({ read_at: null, delivery_status: 'sent' });
    const whatsapp = await insertMessage(mine.phone, { type: 'WHATSAPP' });
    expect((await api.withToken(mine.token).post(`/api/v1/parent/messages/${whatsapp}/read`)).statusCode).toBe(404);
  });
});

describe('POST /parent/receipts', () => {
  function postReceipt(receipt: unknown) {
    return api.anonymous().post('/api/v1/parent/receipts', { receipt });
  }

  it('marks a sent or failed message delivered, idempotently, without a parent token', async () => {
    const { phone } = await family(['Esha Gill']);
    const id = await insertMessage(phone);
    const receipt = await api.ctx.tokens.signReceipt(id);
    const first = await postReceipt(receipt);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message_id: id, delivery_status: 'delivered' });
    const [row] = await api.db.query<{ delivered_at: string; read_at: string | null }>(
      'SELECT delivered_at, read_at FROM messages WHERE id = $1',
      [id],
    );
    expect(row?.read_at).toBeNull();
    const second = await postReceipt(receipt);
    expect(second.json()).toEqual({ message_id: id, delivery_status: 'delivered' });
    const [after] = await api.db.query<{ delivered_at: string }>('SELECT delivered_at FROM messages WHERE id = $1', [
      id,
    ]);
    expect(after?.delivered_at).toBe(row?.delivered_at);

    const failed = await insertMessage(phone);
    await api.db.query("UPDATE messages SET delivery_status = 'failed', failure_reason = 'gone' WHERE id = $1", [
      failed,
    ]);
    expect((await postReceipt(await api.ctx.tokens.signReceipt(failed))).json().delivery_status).toBe('delivered');
    const [cleared] = await api.db.query<{ failure_reason: string | null }>(
      'SELECT failure_reason FROM messages WHERE id = $1',
      [failed],
    );
    expect(cleared?.failure_reason).toBeNull();
  });

  it('refuses a forged receipt, a parent or staff token, and nonsense with 400; a vanished message is 404', async () => {
    const { phone, token } = await family(['Farid Qureshi']);
    const id = await insertMessage(phone);
    const forged = await new TokenService('another-secret-that-is-long-enough-0123456789', 3600).signReceipt(id);
    for (const receipt of [forged, token, admin, 'nonsense']) {
      const response = await postReceipt(receipt);
      expect(response.statusCode).toBe(400);
      expect(detailOf(response)).toBe('This delivery receipt is not valid');
    }
    const [row] = await api.db.query<{ delivery_status: string }>(
      'SELECT delivery_status FROM messages WHERE id = $1',
      [id],
    );
    expect(row?.delivery_status).toBe('sent');
    expect((await postReceipt(await api.ctx.tokens.signReceipt(2_000_000_000))).statusCode).toBe(404);
    expect((await postReceipt('')).statusCode).toBe(422);
  });
});

describe("a child's attendance", () => {
  async function markAndApprove(studentId: number, date: string, statusText: string, remarks?: string) {
    // The admin: up to 30 days back, further than a teacher may mark (ADR 019).
    const marked = await api.as('admin').post('/api/v1/attendance/mark', {
      date,
      records: [{ student_id: studentId, status: statusText, remarks }],
    });
    expect(marked.statusCode).toBe(200);
    const pending = await api.as('admin').get(`/api/v1/attendance/pending-approval?attendance_date=${date}`);
    const record = pending.json().find((r: { student_id: number }) => r.student_id === studentId);
    const approved = await api.as('admin').post('/api/v1/attendance/approve', { attendance_ids: [record.id] });
    expect(approved.statusCode).toBe(200);
  }

  it('shows approved records of the last 30 days (or `days`), newest first, with totals', async () => {
    const { children, token } = await family(['Gita Joshi', 'Hemant Joshi']);
    const child = children[0] as { id: number; unique_id: string };
    const day = today();
    await markAndApprove(child.id, day, 'present');
    await markAndApprove(child.id, addDays(day, -1), 'late', 'Bus was late');
    await markAndApprove(child.id, addDays(day, -29), 'absent');
    await markAndApprove(child.id, addDays(day, -30), 'absent');
    // Pending: not shown.
    await api.as('admin').post('/api/v1/attendance/mark', {
      date: addDays(day, -2),
      records: [{ student_id: child.id, status: 'leave' }],
    });

    const response = await parentGet(`/parent/children/${child.id}/attendance`, token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      child: { id: child.id, unique_id: child.unique_id, full_name: 'Gita Joshi', class_name: '7' },
      from_date: addDays(day, -29),
      to_date: day,
      days: [
        { date: day, status: 'present', remarks: null },
        { date: addDays(day, -1), status: 'late', remarks: 'Bus was late' },
        { date: addDays(day, -29), status: 'absent', remarks: null },
      ],
      totals: { present: 1, absent: 1, late: 1, leave: 0 },
    });
    const two = await parentGet(`/parent/children/${child.id}/attendance?days=2`, token);
    expect(two.json().from_date).toBe(addDays(day, -1));
    expect(two.json().days).toHaveLength(2);
    const sibling = await parentGet(`/parent/children/${children[1]?.id}/attendance?days=90`, token);
    expect(sibling.statusCode).toBe(200);
    expect(sibling.json().days).toEqual([]);
    for (const days of ['0', '91', 'x']) {
      const bad = await parentGet(`/parent/children/${child.id}/attendance?days=${days}`, token);
      expect(bad.statusCode).toBe(422);
      expect(detailOf(bad)).toMatch(/^days: /);
    }
  });

  it("answers 404 for another family's child and for no child at all", async () => {
    const mine = await family(['Isha Kapoor']);
    const theirs = await family(['Jai Kapoor']);
    for (const id of [theirs.children[0]?.id, 999999]) {
      const response = await parentGet(`/parent/children/${id}/attendance`, mine.token);
      expect(response.statusCode).toBe(404);
      expect(detailOf(response)).toBe('Student not found');
    }
  });
});

describe('access code normalisation (contract helper)', () => {
  it('maps what people type to the code', () => {
    expect(normaliseAccessCode('abcd-efgh')).toBe('ABCDEFGH');
    expect(normaliseAccessCode('OOOO IIII')).toBe('00001111');
    expect(normaliseAccessCode('ABCD-EFG')).toBeUndefined();
    expect(normaliseAccessCode('ABCD-EFGU')).toBeUndefined();
  });
});
