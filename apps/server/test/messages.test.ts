import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, type TestClient, testClient } from './helpers/client';
import { detailOf, uniquePhone } from './helpers/test-app';

/** How often a send woke the push worker (after its commit). */
let notified = 0;

let api: TestClient;
beforeAll(async () => {
  api = await testClient({
    prepare: (ctx) => {
      ctx.push.wake = () => {
        notified += 1;
      };
      return ctx;
    },
  });
});

/** A device that allowed notifications for `phone`: the family is reached through the parent app first. */
async function giveDevice(phone: string): Promise<void> {
  await api.db.query(
    `INSERT INTO parent_access (phone, code_hash, issued_by) VALUES ($1, 'x', 'test') ON CONFLICT (phone) DO NOTHING`,
    [phone],
  );
  await api.db.query(`INSERT INTO push_subscriptions (phone, endpoint, p256dh, auth) VALUES ($1, $2, 'k', 'a')`, [
    phone,
    `https://push.example.com/${encodeURIComponent(phone)}/${Math.random()}`,
  ]);
}
afterAll(async () => {
  await api?.close();
});

const admin = () => api.as('admin');

function send(caller: Caller, payload: unknown) {
  return caller.post('/api/v1/messages/send-to-parents', payload);
}

function history(caller: Caller, query = '') {
  return caller.get(`/api/v1/communications/history${query}`);
}

async function messageCount(): Promise<number> {
  const rows = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM messages');
  return rows[0]?.count ?? 0;
}

async function activitiesOf(action: string) {
  return api.db.query<{ description: string; actor: string; user_id: number }>(
    'SELECT description, actor, user_id FROM activities WHERE action = $1 ORDER BY id',
    [action],
  );
}

const SUBJECT = 'Holiday notice';
const BODY = 'The centre is closed on Friday.';

describe('before any student exists', () => {
  it('refuses to send to all parents with 422 and writes nothing', async () => {
    const response = await send(admin(), { subject: SUBJECT, message: BODY, recipients: 'all_parents' });
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toBe('recipients: no parents found');
    expect(await messageCount()).toBe(0);
    expect(await activitiesOf('messages.sent_to_parents')).toHaveLength(0);
  });

  it('answers an empty history', async () => {
    const response = await history(admin());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });
});

describe('POST /messages/send-to-parents', () => {
  const sharedPhone = uniquePhone();
  let class8Phone: string;
  let class9Phone: string;

  beforeAll(async () => {
    // Two siblings in class 7 share one parent phone; class 8 and 9 have one student each.
    await api.student({
      full_name: 'Asha Mehta',
      class_name: '7',
      parent_name: 'Kiran Mehta',
      parent_phone: sharedPhone,
    });
    await api.student({
      full_name: 'Rohan Mehta',
      class_name: '7',
      parent_name: 'Kiran Mehta',
      parent_phone: sharedPhone,
    });
    class8Phone = (await api.student({ full_name: 'Dev Shah', class_name: '8', parent_name: 'Meera Shah' }))
      .parent_phone;
    const noParentName = await api.student({ full_name: 'Lila Rao', class_name: '9', parent_name: 'Temp' });
    class9Phone = noParentName.parent_phone;
    // An imported student may have no parent name on record.
    await api.db.query("UPDATE students SET parent_name = '' WHERE id = $1", [noParentName.id]);
  });

  it('refuses a call without a token with 401', async () => {
    const response = await send(api.anonymous(), { subject: SUBJECT, message: BODY, recipients: 'all_parents' });
    expect(response.statusCode).toBe(401);
    expect(detailOf(response)).toBeTruthy();
  });

  it.each([
    ['a blank subject', { subject: '   ', message: BODY, recipients: 'all_parents' }, /^subject: must not be empty$/],
    ['a missing subject', { message: BODY, recipients: 'all_parents' }, /^subject: /],
    [
      'a blank message after trimming',
      { subject: SUBJECT, message: ' \n\t ', recipients: '7' },
      /^message: must not be empty$/,
    ],
    ['a missing message', { subject: SUBJECT, recipients: '7' }, /^message: /],
    [
      'a class the centre does not teach',
      { subject: SUBJECT, message: BODY, recipients: 'class 11' },
      /^recipients: must be all_parents or a class \(7, 8, 9 or 10\)$/,
    ],
    ['missing recipients', { subject: SUBJECT, message: BODY }, /^recipients: /],
    ['a subject over 200 characters', { subject: 'x'.repeat(201), message: BODY, recipients: '7' }, /^subject: .*200/],
  ])('refuses %s with 422 naming the field, and writes nothing', async (_name, payload, detail) => {
    const before = await messageCount();
    const response = await send(admin(), payload);
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toMatch(detail);
    expect(await messageCount()).toBe(before);
  });

  it('refuses a class with no students with 422 naming the class, and writes nothing', async () => {
    const before = await messageCount();
    const response = await send(admin(), { subject: SUBJECT, message: BODY, recipients: '10' });
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toBe('recipients: no parents found for Class 10');
    expect(await messageCount()).toBe(before);
    expect(await activitiesOf('messages.sent_to_parents')).toHaveLength(0);
  });

  it('sends one message per distinct parent phone in a class, and queues them in the same transaction', async () => {
    await giveDevice(sharedPhone);
    const notifiedBefore = notified;
    const response = await send(admin(), { subject: ` ${SUBJECT} `, message: BODY, recipients: '7' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: 'Message sent to 1 parent(s)',
      recipients_count: 1,
      in_app_count: 1,
      whatsapp_count: 0,
      unreachable_count: 0,
      whatsapp_waiting: 0,
      notice: null,
    });

    const rows = await api.db.query<Record<string, unknown>>('SELECT * FROM messages ORDER BY id');
    expect(rows).toHaveLength(1);
    const [adminUser] = await api.db.query<{ id: number; full_name: string }>(
      "SELECT id, full_name FROM users WHERE username = 'admin'",
    );
    expect(rows[0]).toMatchObject({
      message_type: 'IN_APP',
      subject: SUBJECT,
      message: BODY,
      recipient: sharedPhone,
      recipient_name: 'Kiran Mehta',
      kind: 'notice',
      delivery_status: 'queued',
      sent_by: adminUser?.full_name,
      sent_by_user_id: adminUser?.id,
      delivered_at: null,
      failure_reason: null,
    });
    // Its push is queued with it: one outbox row for the device, and the message's push attempt.
    const outbox = await api.db.query('SELECT message_id FROM push_outbox WHERE message_id = $1', [rows[0]?.id]);
    expect(outbox).toHaveLength(1);
    const attempts = await api.db.query<{ channel: string; status: string }>(
      'SELECT channel, status FROM message_attempts WHERE message_id = $1',
      [rows[0]?.id],
    );
    expect(attempts).toEqual([{ channel: 'push', status: 'queued' }]);
    expect(notified).toBe(notifiedBefore + 1);

    const activity = await activitiesOf('messages.sent_to_parents');
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({
      description: `${adminUser?.full_name} sent "${SUBJECT}" to 1 parent of Class 7`,
      actor: adminUser?.full_name,
      user_id: adminUser?.id,
    });
  });

  it('reads the class however it is written ("Class 8")', async () => {
    const before = await messageCount();
    const response = await send(admin(), { subject: 'Class 8 test', message: BODY, recipients: 'Class 8' });
    expect(response.statusCode).toBe(200);
    expect(response.json().recipients_count).toBe(1);
    const rows = await api.db.query<{ recipient: string }>('SELECT recipient FROM messages WHERE subject = $1', [
      'Class 8 test',
    ]);
    expect(rows.map((row) => row.recipient)).toEqual([class8Phone]);
    expect(await messageCount()).toBe(before + 1);
  });

  it('sends to every distinct parent of all classes, naming parents without a name by their children', async () => {
    const response = await send(admin(), {
      subject: 'Fees',
      message: 'Fees are due.',
      recipients: 'all_parents',
    });
    expect(response.statusCode).toBe(200);
    // One family has the app; the two others have neither the app nor WhatsApp: stored failed, said so.
    expect(response.json()).toEqual({
      message:
        'Message sent to 1 of 3 parent(s): 1 in the app, 0 on WhatsApp, 2 with no channel yet: they go on your send list.',
      recipients_count: 3,
      in_app_count: 1,
      whatsapp_count: 0,
      unreachable_count: 2,
      whatsapp_waiting: 0,
      notice: null,
    });
    const rows = await api.db.query<{ id: number; recipient: string; recipient_name: string }>(
      "SELECT id, recipient, recipient_name FROM messages WHERE subject = 'Fees' ORDER BY recipient",
    );
    expect(rows.map(({ recipient, recipient_name }) => ({ recipient, recipient_name }))).toEqual(
      [
        { recipient: sharedPhone, recipient_name: 'Kiran Mehta' },
        { recipient: class8Phone, recipient_name: 'Meera Shah' },
        { recipient: class9Phone, recipient_name: 'Parent of Lila Rao' },
      ].sort((a, b) => a.recipient.localeCompare(b.recipient)),
    );
    const statuses = await api.db.query<{ recipient: string; delivery_status: string; failure_reason: string | null }>(
      "SELECT recipient, delivery_status, failure_reason FROM messages WHERE subject = 'Fees' ORDER BY recipient",
    );
    expect(statuses).toEqual(
      [
        { recipient: sharedPhone, delivery_status: 'queued', failure_reason: null },
        {
          recipient: class8Phone,
          delivery_status: 'failed',
          failure_reason: 'No channel reaches this family: no parent app notifications and no WhatsApp opt-in.',
        },
        {
          recipient: class9Phone,
          delivery_status: 'failed',
          failure_reason: 'No channel reaches this family: no parent app notifications and no WhatsApp opt-in.',
        },
      ].sort((a, b) => a.recipient.localeCompare(b.recipient)),
    );
    const activity = await activitiesOf('messages.sent_to_parents');
    expect(activity.at(-1)?.description).toMatch(/ sent "Fees" to 3 parents of all classes$/);
  });

  it('names a shared phone without a parent name after every child in scope', async () => {
    const phone = uniquePhone();
    const first = await api.student({
      full_name: 'Zara Khan',
      class_name: '10',
      parent_name: 'X',
      parent_phone: phone,
    });
    const second = await api.student({
      full_name: 'Omar Khan',
      class_name: '10',
      parent_name: 'X',
      parent_phone: phone,
    });
    await api.db.query("UPDATE students SET parent_name = '' WHERE id = ANY($1::int[])", [[first.id, second.id]]);
    const response = await send(admin(), { subject: 'Siblings', message: BODY, recipients: '10' });
    expect(response.json().recipients_count).toBe(1);
    const rows = await api.db.query<{ recipient_name: string }>(
      "SELECT recipient_name FROM messages WHERE subject = 'Siblings'",
    );
    expect(rows).toEqual([{ recipient_name: 'Parent of Omar Khan, Zara Khan' }]);
  });

  it('lets a teacher send to parents', async () => {
    const response = await send(api.as('teacher'), { subject: 'From a teacher', message: BODY, recipients: '9' });
    expect(response.statusCode).toBe(200);
    const [row] = await api.db.query<{ sent_by: string; sent_by_user_id: number; role: string }>(
      `SELECT m.sent_by, m.sent_by_user_id, u.role FROM messages m JOIN users u ON u.id = m.sent_by_user_id
        WHERE m.subject = 'From a teacher'`,
    );
    expect(row?.role).toBe('teacher');
  });

  it('writes nothing when the pushes cannot be queued (all or nothing)', async () => {
    const before = await messageCount();
    const activitiesBefore = (await activitiesOf('messages.sent_to_parents')).length;
    // The outbox refuses rows (as a full disk or a broken constraint would) mid-send.
    await api.db.query(
      `CREATE FUNCTION refuse_push() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'push outbox unavailable'; END $$`,
    );
    await api.db.query(
      'CREATE TRIGGER refuse_push BEFORE INSERT ON push_outbox FOR EACH ROW EXECUTE FUNCTION refuse_push()',
    );
    try {
      const response = await send(admin(), { subject: 'Lost', message: BODY, recipients: 'all_parents' });
      expect(response.statusCode).toBe(500);
      expect(detailOf(response)).toBe('Internal server error');
    } finally {
      await api.db.query('DROP TRIGGER refuse_push ON push_outbox');
      await api.db.query('DROP FUNCTION refuse_push()');
    }
    expect(await messageCount()).toBe(before);
    expect(await api.db.query("SELECT id FROM message_sends WHERE subject = 'Lost'")).toEqual([]);
    expect(await activitiesOf('messages.sent_to_parents')).toHaveLength(activitiesBefore);
  });
});

describe('GET /communications/history', () => {
  it('refuses a call without a token with 401', async () => {
    const response = await history(api.anonymous());
    expect(response.statusCode).toBe(401);
  });

  it('answers every message, newest first, with the fields of a history item', async () => {
    const response = await history(admin());
    expect(response.statusCode).toBe(200);
    const items = response.json() as Record<string, unknown>[];
    expect(items).toHaveLength(await messageCount());
    expect(Object.keys(items[0] ?? {}).sort()).toEqual(
      [
        'id',
        'message_type',
        'subject',
        'message',
        'recipient',
        'recipient_name',
        'sent_at',
        'sent_by',
        'delivery_status',
        'delivered_at',
        'failure_reason',
        'kind',
        'language',
        'reply',
        'attempts',
      ].sort(),
    );
    expect(items[0]?.sent_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    const expected = await api.db.query<{ id: number }>('SELECT id FROM messages ORDER BY sent_at DESC, id DESC');
    expect(items.map((item) => item.id)).toEqual(expected.map((row) => row.id));
    // The latest send is on top.
    expect(items[0]?.subject).toBe('From a teacher');
    for (let i = 1; i < items.length; i += 1) {
      expect(String(items[i - 1]?.sent_at) >= String(items[i]?.sent_at)).toBe(true);
    }
  });

  it('pages with limit and offset', async () => {
    const all = (await history(admin())).json() as { id: number }[];
    const page = await history(admin(), '?limit=2&offset=1');
    expect(page.statusCode).toBe(200);
    expect((page.json() as { id: number }[]).map((item) => item.id)).toEqual(all.slice(1, 3).map((item) => item.id));
    const past = await history(admin(), `?limit=5&offset=${all.length}`);
    expect(past.json()).toEqual([]);
  });

  it('is open to teachers', async () => {
    const response = await history(api.as('teacher'), '?limit=1');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveLength(1);
  });

  it.each([
    ['?limit=0', /^limit: must be at least 1$/],
    ['?limit=5001', /^limit: must be at most 5000$/],
    ['?limit=abc', /^limit: must be a number$/],
    ['?limit=1.5', /^limit: must be a whole number$/],
    ['?offset=-1', /^offset: must not be negative$/],
  ])('refuses %s with 422', async (query, detail) => {
    const response = await history(admin(), query);
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toMatch(detail);
  });
});

describe('sending to many parents', () => {
  it('sends to 5,000 distinct parents in one statement, quickly', async () => {
    // Bulk setup straight in SQL: 5,000 API calls would test the students module, not this one.
    await api.db.query(
      `INSERT INTO students (full_name, class_name, parent_name, parent_phone)
       SELECT 'Bulk Student ' || n, '8', 'Bulk Parent ' || n, '+4477' || lpad(n::text, 8, '0')
         FROM generate_series(1, 5000) AS n`,
    );
    const started = Date.now();
    const response = await send(admin(), { subject: 'Bulk', message: BODY, recipients: '8' });
    const elapsed = Date.now() - started;
    expect(response.statusCode).toBe(200);
    expect(response.json().recipients_count).toBe(5001);
    const rows = await api.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM messages WHERE subject = 'Bulk'",
    );
    expect(rows[0]?.count).toBe(5001);
    expect(elapsed).toBeLessThan(10_000);
  });
});
