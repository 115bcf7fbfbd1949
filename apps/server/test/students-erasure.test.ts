/**
 * Erasure erases (ADR 027, issue 26): once the scrub of students who left has run, no table holds the
 * name, a child's name or the phone of a family no longer on record, in any form (E.164, digits, the
 * national number written with spaces), nor the name of a scrubbed child of a family still on record:
 * not the records, not its WhatsApp conversation, not the activity feed, not the audit log. Families
 * still on record keep everything.
 *
 * The tables and columns searched are read from the migrations (CREATE TABLE, ADD COLUMN, RENAME),
 * as the audit screen's test reads the audited columns: every column that holds text or JSON is
 * searched, and each is either one a family's data is written to (and this test plants it there first,
 * through the API wherever one writes it) or named below with why it cannot hold it. A column added
 * later fails this test until it is placed in one of the two lists.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../src/db/migrate';
import { addDays, today } from '../src/lib/time';
import { monthsBefore, scrubStudentsWhoLeft } from '../src/modules/students/leaving';
import type { Caller, TestClient } from './helpers/client';
import { testClient } from './helpers/client';
import { NOT_FAMILY } from './helpers/erasure-columns';
import { APPROVED_TEMPLATES, type FakeCloudApi, startFakeCloudApi } from './helpers/fake-cloud-api';
import { callbackOf, postCallback, textFrom, WHATSAPP_TEST, whatsappConfig } from './helpers/whatsapp';

// ---- The columns, from the migrations ----

const SQL = readdirSync(MIGRATIONS_DIR)
  .filter((file) => file.endsWith('.sql'))
  .sort()
  .map((file) => readFileSync(join(MIGRATIONS_DIR, file), 'utf8').replace(/--[^\n]*/g, ''))
  .join('\n');

const TEXT_TYPE = /^(text|jsonb|json|varchar|character varying|citext)\b|\[\]$/i;

/** Every column of every table the migrations make that holds text or JSON: `table.column`. */
function textColumnsFromMigrations(): Set<string> {
  const columns = new Map<string, Map<string, string>>();
  for (const created of SQL.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_][a-z0-9_]*) \(\n([\s\S]*?)\n\);/g)) {
    const table = new Map<string, string>();
    for (const line of (created[2] ?? '').split('\n')) {
      const column = /^\s+([a-z_][a-z0-9_]*)\s+([a-z]+(?: varying)?(?:\[\])?)/i.exec(line);
      if (!column || ['check', 'unique', 'primary', 'constraint', 'foreign', 'exclude'].includes(column[1] as string))
        continue;
      table.set(column[1] as string, column[2] as string);
    }
    columns.set(created[1] as string, table);
  }
  for (const statement of SQL.matchAll(/ALTER TABLE ([a-z_][a-z0-9_]*)\s+([\s\S]*?);/g)) {
    const table = columns.get(statement[1] as string);
    if (!table) continue;
    const body = statement[2] as string;
    for (const added of body.matchAll(
      /ADD COLUMN (?:IF NOT EXISTS )?([a-z_][a-z0-9_]*)\s+([a-z]+(?: varying)?(?:\[\])?)/gi,
    ))
      table.set(added[1] as string, added[2] as string);
    for (const dropped of body.matchAll(/DROP COLUMN (?:IF EXISTS )?([a-z_][a-z0-9_]*)/gi))
      table.delete(dropped[1] as string);
    const renamed = /RENAME COLUMN ([a-z_][a-z0-9_]*) TO ([a-z_][a-z0-9_]*)/i.exec(body);
    if (renamed && table.has(renamed[1] as string)) {
      table.set(renamed[2] as string, table.get(renamed[1] as string) as string);
      table.delete(renamed[1] as string);
    }
  }
  for (const dropped of SQL.matchAll(/DROP TABLE (?:IF EXISTS )?([a-z_][a-z0-9_]*)/g))
    columns.delete(dropped[1] as string);
  const found = new Set<string>();
  for (const [table, types] of columns)
    for (const [column, type] of types) if (TEXT_TYPE.test(type)) found.add(`${table}.${column}`);
  return found;
}

/**
 * The columns a family's name, a child's name or its phone is written to. This test plants the
 * families' data in each of them before the scrub, and checks it is there.
 */
const FAMILY_COLUMNS = [
  'students.full_name',
  'students.parent_name',
  'students.parent_phone',
  'attendance.remarks',
  'attendance_submissions.answer',
  'leave_requests.parent_phone',
  'leave_requests.reason',
  'messages.message',
  'messages.recipient',
  'messages.recipient_name',
  'message_attempts.whatsapp_parameters',
  'message_attempts.whatsapp_text',
  // WhatsApp's id of a sent message names the phone it went to ("wamid.HBgM" and the number, encoded).
  'message_attempts.provider_message_id',
  'whatsapp_inbound.phone',
  'whatsapp_inbound.body',
  'whatsapp_consent_log.phone',
  'parent_access.phone',
  'push_subscriptions.phone',
  'sign_in_addresses.account',
  'login_throttle.key',
  'activities.actor',
  'activities.description',
  'activities.params',
  'audit_log.actor_name',
  'audit_log.record_id',
  'audit_log.before',
  'audit_log.after',
  // A family's fee account, by its phone (ADR 051): cleared when no record holds the phone.
  'fee_families.phone',
  // Razorpay's webhook events as they came: the payer's phone, name and e-mail (ADR 053).
  'payment_gateway_events.raw_body',
  // A family's billing name and address for its tax invoices, and each invoice's copy (ADR 065).
  'fee_family_gst_details.billing_name',
  'fee_family_gst_details.billing_address',
  'fee_receipt_taxes.recipient_name',
  'fee_receipt_taxes.recipient_address',
];

/** Every other text column, and why no family's name or phone is written to it: helpers/erasure-columns.ts. */

// ---- The families ----

const tag = () =>
  randomBytes(3)
    .toString('hex')
    .replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)] as string);
/** A phone of its own: +91 then ten digits, the national number starting with 7. */
const phoneOf = () => `+917${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
const national = (phone: string) => phone.slice(-10);
/** The phone in any form: +919876543210, 919876543210, 98765 43210, 98765-43210. */
const phonePattern = (phone: string) => national(phone).split('').join('[ -]?');
const escapeText = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Family {
  phone: string;
  parent: string;
  children: string[];
  /** What identifies the family in any text: its words and its phones. */
  pattern: string;
}

function family(parent: string, children: string[], phones: string[]): Family {
  const words = [...new Set([parent, ...children].flatMap((name) => name.split(' ')).filter(Boolean))];
  return {
    phone: phones[0] as string,
    parent,
    children,
    pattern: [...words.map(escapeText), ...phones.map(phonePattern)].join('|'),
  };
}

let api: TestClient;
let admin: Caller;
let fake: FakeCloudApi;

beforeAll(async () => {
  fake = await startFakeCloudApi({
    accessToken: WHATSAPP_TEST.accessToken,
    phoneNumberId: WHATSAPP_TEST.phoneNumberId,
    appSecret: WHATSAPP_TEST.appSecret,
    templates: APPROVED_TEMPLATES,
    autoStatuses: false,
  });
  api = await testClient({ config: { whatsapp: whatsappConfig(fake.baseUrl) } });
  admin = api.as('admin');
});
afterAll(async () => {
  await api?.close();
  await fake?.close();
});

async function ok<T = Record<string, unknown>>(
  response: Promise<{ statusCode: number; body: string; json: () => unknown }>,
): Promise<T> {
  const answer = await response;
  expect(answer.statusCode, answer.body.slice(0, 300)).toBeLessThan(300);
  return (answer.body === '' ? {} : answer.json()) as T;
}

async function student(fields: Record<string, unknown>) {
  return ok<{ id: number; unique_id: string }>(admin.post('/api/v1/students/', { class_name: '8', ...fields }));
}

/** A parent writes to the centre's WhatsApp number: a text that names the family, or STOP/START. */
async function whatsappFrom(phone: string, text: string, name: string) {
  const body = callbackOf({
    contacts: [{ profile: { name }, wa_id: phone.replace(/\D/g, '') }],
    messages: [textFrom(phone, text)],
  });
  await ok(postCallback(api.anonymous(), body));
}

/** An absence approved: the alert to the family (and its WhatsApp attempt), with a remark naming the child. */
async function absenceAlert(studentId: number, date: string, remarks: string): Promise<number> {
  await ok(
    admin.post('/api/v1/attendance/mark', { date, records: [{ student_id: studentId, status: 'absent', remarks }] }),
  );
  const [record] = await api.db.query<{ id: number }>('SELECT id FROM attendance WHERE student_id = $1 AND date = $2', [
    studentId,
    date,
  ]);
  await ok(admin.post('/api/v1/attendance/approve', { attendance_ids: [record?.id] }));
  const [message] = await api.db.query<{ id: number }>(
    "SELECT id FROM messages WHERE student_id = $1 AND kind = 'absence_alert' ORDER BY id DESC LIMIT 1",
    [studentId],
  );
  expect(message, 'the absence alert').toBeDefined();
  return message?.id as number;
}

/** The parent app's access: the code issued, a sign-in, a mistyped code; a device that allowed notifications. */
async function parentApp(studentId: number, phone: string): Promise<Caller> {
  const { code } = await ok<{ code: string }>(admin.post(`/api/v1/students/${studentId}/parent-access`, {}));
  await ok(api.anonymous().post('/api/v1/parent/login', { phone, code }, { remoteAddress: '198.51.100.26' }));
  const refused = await api
    .anonymous()
    .post('/api/v1/parent/login', { phone, code: 'WRONG-CODE-1' }, { remoteAddress: '198.51.100.27' });
  expect(refused.statusCode).toBe(401);
  await api.db.query(
    `INSERT INTO push_subscriptions (phone, endpoint, p256dh, auth, user_agent) VALUES ($1, $2, 'key', 'auth', 'Phone')`,
    [phone, `https://push.invalid/${randomUUID()}`],
  );
  return api.as('parent', { phone, code });
}

/** A leave request from the parent app, naming the child and the parent in its reason; approved. */
async function leaveAsked(parent: Caller, studentId: number, reason: string) {
  const asked = await ok<{ id: number }>(
    parent.post('/api/v1/parent/leave-requests', { student_id: studentId, from_date: addDays(today(), 3), reason }),
  );
  await ok(admin.post(`/api/v1/leave-requests/${asked.id}/approve`, {}));
}

/** Rows of `table` whose `column`, as text, matches `pattern` (any case). */
async function matching(column: string, pattern: string): Promise<number> {
  const [table, name] = column.split('.') as [string, string];
  const [row] = await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${name}::text ~* $1`, [
    pattern,
  ]);
  return row?.n ?? 0;
}

/** For each column, how many rows mention the family. */
async function mentions(columns: readonly string[], pattern: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const column of columns) {
    const n = await matching(column, pattern);
    if (n > 0) found[column] = n;
  }
  return found;
}

describe('the columns that can hold a name or a phone', () => {
  it('are read from the migrations, match the database, and each is searched or said why not', async () => {
    const fromMigrations = textColumnsFromMigrations();
    expect(fromMigrations.size).toBeGreaterThan(80);
    const inDatabase = await api.db.query<{ name: string }>(
      `SELECT table_name || '.' || column_name AS name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'
          AND data_type IN ('text', 'jsonb', 'json', 'character varying', 'ARRAY')
        ORDER BY 1`,
    );
    expect([...fromMigrations].sort()).toEqual(inDatabase.map((row) => row.name));
    const placed = new Set([...FAMILY_COLUMNS, ...Object.keys(NOT_FAMILY)]);
    expect([...fromMigrations].filter((column) => !placed.has(column))).toEqual([]);
    expect([...placed].filter((column) => !fromMigrations.has(column))).toEqual([]);
    expect(FAMILY_COLUMNS.filter((column) => column in NOT_FAMILY)).toEqual([]);
  });
});

describe('the scrub of students who left', () => {
  it("leaves nothing of a family no longer on record, nor a scrubbed child's name, in any table; families on record keep theirs", async () => {
    const columns = [...textColumnsFromMigrations()].sort();
    const t = tag();
    const longAgo = monthsBefore(today(), 7);
    await ok(admin.put('/api/v1/settings/students', { scrub_left_after_months: 6 }));
    await scrubStudentsWhoLeft(api.db);

    // Forgotten: both children leave long ago. The first child came with another phone first.
    const oldPhone = phoneOf();
    const gone = family(`Sunaina Fowler${t}`, [`Aarav Fowler${t}`, `Meher Fowler${t}`], [phoneOf(), oldPhone]);
    // Forgotten too, with no parent name on record ("Parent of Gauri Ghost…").
    const ghost = family('', [`Gauri Ghost${t}`], [phoneOf()]);
    // On record: another family whose child attends.
    const kept = family(`Kamala Keptson${t}`, [`Kiran Keptson${t}`], [phoneOf()]);
    // On record through the child who attends, while the other child is scrubbed.
    const halfPhone = phoneOf();
    const scrubbedChild = `Harit Halfway${t}`;
    const attendingChild = `Hema Halfway${t}`;

    const [aarav, meher] = [
      await student({ full_name: gone.children[0], parent_name: gone.parent, parent_phone: oldPhone }),
      await student({ full_name: gone.children[1], parent_name: gone.parent, parent_phone: gone.phone }),
    ];
    await ok(admin.put(`/api/v1/students/${aarav.id}`, { parent_phone: gone.phone }));
    const gauri = await student({ full_name: ghost.children[0], parent_name: 'Someone', parent_phone: ghost.phone });
    // A record with no parent name (as older imports left some): the family is "Parent of Gauri …".
    await api.db.query("UPDATE students SET parent_name = '' WHERE id = $1", [gauri.id]);
    const kiran = await student({ full_name: kept.children[0], parent_name: kept.parent, parent_phone: kept.phone });
    const harit = await student({
      full_name: scrubbedChild,
      parent_name: `Hemant Halfway${t}`,
      parent_phone: halfPhone,
    });
    const hema = await student({
      full_name: attendingChild,
      parent_name: `Hemant Halfway${t}`,
      parent_phone: halfPhone,
    });

    // Staff give WhatsApp consent (activity and consent log name the child and the phone).
    for (const id of [aarav.id, gauri.id, kiran.id, harit.id])
      await ok(admin.put(`/api/v1/students/${id}`, { parent_whatsapp_opt_in: true }));

    // The parent app: access, sign-ins, devices.
    const goneParent = await parentApp(aarav.id, gone.phone);
    const keptParent = await parentApp(kiran.id, kept.phone);
    const halfParent = await parentApp(hema.id, halfPhone);

    // Absences approved: alerts naming the child (app and WhatsApp), remarks naming the family.
    const yesterday = addDays(today(), -1);
    const goneAlert = await absenceAlert(aarav.id, yesterday, `Aarav Fowler${t} had fever, Sunaina called`);
    const ghostAlert = await absenceAlert(gauri.id, yesterday, `Gauri Ghost${t} was away`);
    const keptAlert = await absenceAlert(kiran.id, yesterday, `Kiran Keptson${t} had fever`);
    const halfAlert = await absenceAlert(harit.id, yesterday, `Harit Halfway${t} missed the bus`);

    // The parents answer in the app (a reply to the alert), ask to be called; staff tick the call.
    for (const [parent, alert] of [
      [goneParent, goneAlert],
      [keptParent, keptAlert],
      [halfParent, halfAlert],
    ] as const)
      await ok(parent.post(`/api/v1/parent/messages/${alert}/reply`, { reply: 'call' }));
    // Gauri's family has no app: its alert was not reached within the half hour, so it is on the list too.
    await api.db.query("UPDATE messages SET sent_at = sent_at - interval '2 hours' WHERE id = $1", [ghostAlert]);
    for (const alert of [goneAlert, ghostAlert, keptAlert])
      await ok(admin.put(`/api/v1/communications/call-list/${alert}`, { called: true }));

    // Leave asked in the app, naming the child and the parent; approved (a leave notice to the family).
    await leaveAsked(goneParent, meher.id, `Meher Fowler${t} goes to Sunaina's sister's wedding`);
    await leaveAsked(keptParent, kiran.id, `Kiran Keptson${t} goes to a wedding`);
    await leaveAsked(halfParent, harit.id, `Harit Halfway${t} has a wedding`);

    // The parents write to the centre on WhatsApp (a conversation, its 24-hour window open), and staff
    // answer in free text naming the family.
    await whatsappFrom(gone.phone, `This is Sunaina Fowler${t}, call me on ${national(gone.phone)}`, gone.parent);
    await whatsappFrom(ghost.phone, `Gauri Ghost${t} is unwell`, 'G');
    await whatsappFrom(kept.phone, `This is Kamala Keptson${t}`, kept.parent);
    await ok(
      admin.post('/api/v1/communications/send-whatsapp', {
        student_id: aarav.id,
        message: `Dear Sunaina, Aarav Fowler${t}'s fees are due`,
      }),
    );
    await ok(admin.post('/api/v1/communications/send-whatsapp', { student_id: kiran.id, message: 'Fees are due' }));
    await whatsappFrom(gone.phone, 'STOP', gone.parent);
    await whatsappFrom(gone.phone, 'START', gone.parent);
    // ...and in the parent app.
    await ok(goneParent.put('/api/v1/parent/whatsapp', { opted_in: false }));
    await ok(goneParent.put('/api/v1/parent/whatsapp', { opted_in: true }));

    // Rows written before activity texts had codes (migration 0025) hold only their English.
    await api.db.query(
      `INSERT INTO activities (user_id, actor, action, description) VALUES
         (NULL, $1, 'messages.parent_replied', $2), (NULL, 'Administrator', 'parents.access_issued', $3)`,
      [
        gone.parent,
        `${gone.parent} replied "Sick" to the absence alert for Aarav Fowler${t} on 3 Nov 2025 (WhatsApp)`,
        `Administrator issued parent access code for ${gone.parent} (${gone.phone})`,
      ],
    );

    // Razorpay told of a payment by the family (its event names the payer), kept as it came (ADR 053).
    await api.db.query(
      `INSERT INTO payment_gateway_events (event_id, event, raw_body) VALUES ($1, 'payment.captured', $2)`,
      [
        `evt_erasure_${t}`,
        JSON.stringify({ payload: { payment: { entity: { contact: gone.phone, notes: { name: gone.parent } } } } }),
      ],
    );

    // The family pays at the counter: its fee account holds the phone, the feed names the parent (ADR 051);
    // the centre is GST-registered, so the tax invoice keeps the billing name and address the family's
    // GST details give (ADR 065). A family on record keeps its own.
    await ok(
      admin.put('/api/v1/fees/gst', { registered: true, gstin: '27AAPFU0939F1ZV', address: '14 MG Road, Pune' }),
    );
    const goneFees = await ok<{ family_id: number }>(admin.get(`/api/v1/fees/students/${aarav.id}/family`));
    const keptFees = await ok<{ family_id: number }>(admin.get(`/api/v1/fees/students/${kiran.id}/family`));
    for (const [fees, who] of [
      [goneFees, gone],
      [keptFees, kept],
    ] as const) {
      await ok(
        admin.put(`/api/v1/fees/families/${fees.family_id}/gst-details`, {
          state_code: null,
          billing_name: who.parent,
          billing_address: `${who.children[0]}'s house, 4 Hill Road, Pune`,
          billing_gstin: null,
        }),
      );
      await ok(
        admin.post('/api/v1/fees/payments', {
          family_id: fees.family_id,
          amount_paise: 50_000,
          mode: 'cash',
          received_on: today(),
          client_id: randomUUID(),
        }),
      );
    }
    await ok(admin.put('/api/v1/fees/gst', { registered: false, gstin: null }));

    // They leave, long ago; a device's queued marks for a day after leaving are refused, naming the child.
    for (const id of [aarav.id, meher.id, gauri.id, harit.id])
      await ok(admin.post(`/api/v1/students/${id}/leave`, { left_on: longAgo }));
    const queued = await ok<{ refused: { student_name: string }[] }>(
      admin.post('/api/v1/attendance/submissions', {
        submission_id: randomUUID(),
        date: addDays(longAgo, 1),
        records: [{ student_id: aarav.id, status: 'present' }],
      }),
    );
    expect(queued.refused.map((refusal) => refusal.student_name)).toEqual([gone.children[0]]);

    // Planted: every column a family's data is written to holds a forgotten family's (Gauri's, with no
    // device, got her alert on WhatsApp at once: its template parameters name her).
    const goneBefore = await mentions(columns, gone.pattern);
    const ghostBefore = await mentions(columns, ghost.pattern);
    const forgottenBefore = await mentions(columns, `${gone.pattern}|${ghost.pattern}`);
    expect(FAMILY_COLUMNS.filter((column) => !(column in forgottenBefore))).toEqual([]);
    expect(Object.keys(goneBefore).filter((column) => !FAMILY_COLUMNS.includes(column))).toEqual([]);
    expect(Object.keys(ghostBefore).length).toBeGreaterThan(12);
    const keptBefore = await mentions(columns, kept.pattern);
    expect(await mentions(columns, `Harit Halfway${t}`)).toMatchObject({
      'students.full_name': 1,
      'messages.message': 2, // the alert and the leave notice
      'attendance.remarks': 1,
      'leave_requests.reason': 1,
      'activities.description': expect.any(Number),
      'audit_log.after': expect.any(Number),
    });

    // All or nothing: a scrub that fails on one of its last tables (the feed) leaves every table as it was.
    await api.db.exec(`
      CREATE FUNCTION refuse_for_test() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused for the test'; END; $$;
      CREATE TRIGGER refuse_for_test BEFORE INSERT OR UPDATE ON activities
        FOR EACH ROW EXECUTE FUNCTION refuse_for_test();
    `);
    await expect(scrubStudentsWhoLeft(api.db)).rejects.toThrow('refused for the test');
    await api.db.exec('DROP TRIGGER refuse_for_test ON activities; DROP FUNCTION refuse_for_test();');
    expect(await mentions(columns, gone.pattern)).toEqual(goneBefore);
    expect(await mentions(columns, ghost.pattern)).toEqual(ghostBefore);

    expect(await scrubStudentsWhoLeft(api.db)).toBe(4);

    // Nothing of the forgotten families, nor the scrubbed child's name, in any table.
    expect(await mentions(columns, gone.pattern)).toEqual({});
    expect(await mentions(columns, ghost.pattern)).toEqual({});
    expect(await mentions(columns, escapeText(scrubbedChild))).toEqual({});
    expect(await mentions(columns, `Harit`)).toEqual({});
    // The families on record keep every row that named them.
    expect(await mentions(columns, kept.pattern)).toEqual(keptBefore);
    // The family of the scrubbed child who has another child attending keeps its phone, names and app.
    expect(await mentions(columns, `Hemant|${phonePattern(halfPhone)}|${escapeText(attendingChild)}`)).toMatchObject({
      'students.full_name': 1,
      'students.parent_name': 1,
      'students.parent_phone': 1,
      'parent_access.phone': 1,
      'push_subscriptions.phone': 1,
      'sign_in_addresses.account': expect.any(Number),
      'messages.recipient': expect.any(Number),
      'messages.recipient_name': expect.any(Number),
      'whatsapp_consent_log.phone': 1,
    });

    // The records stay, without what they said: the messages (counted), their kinds and states.
    const messages = await api.db.query<{ kind: string; recipient: string; subject: string; message: string }>(
      `SELECT kind, recipient, subject, message FROM messages WHERE id = ANY($1::int[]) ORDER BY id`,
      [[goneAlert, ghostAlert]],
    );
    expect(messages).toEqual([
      { kind: 'absence_alert', recipient: '', subject: '[removed]', message: '[removed]' },
      { kind: 'absence_alert', recipient: '', subject: '[removed]', message: '[removed]' },
    ]);
    const [halfMessage] = await api.db.query<{ recipient: string; message: string }>(
      'SELECT recipient, message FROM messages WHERE id = $1',
      [halfAlert],
    );
    expect(halfMessage?.recipient).toBe(halfPhone);
    expect(halfMessage?.message).toMatch(/^\[removed\] was marked absent/);
    expect(
      await api.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM attendance WHERE student_id = ANY($1::int[]) AND status = 'absent'`,
        [[aarav.id, gauri.id, harit.id]],
      ),
    ).toEqual([{ n: 3 }]);

    // Every teacher sees it: no conversation, no open window, nothing in the feed.
    const teacher = api.as('teacher');
    const conversations = await ok<{ phone: string; window_open_until: string | null }[]>(
      teacher.get('/api/v1/communications/conversations'),
    );
    expect(conversations.map((c) => c.phone)).not.toContain(gone.phone);
    expect(conversations.map((c) => c.phone)).not.toContain(ghost.phone);
    expect(conversations.find((c) => c.phone === kept.phone)?.window_open_until).toEqual(expect.any(String));
    expect(
      (await teacher.get(`/api/v1/communications/conversations/${encodeURIComponent(gone.phone)}`)).statusCode,
    ).toBe(404);
    const feed = (await teacher.get('/api/v1/activities/recent?limit=100')).body;
    expect(feed).not.toMatch(new RegExp(gone.pattern, 'i'));
    expect(feed).not.toMatch(new RegExp(`Harit|${ghost.pattern}`, 'i'));
    expect(feed).toMatch(new RegExp(escapeText(kept.children[0] as string)));
    const english = await api.db.query<{ description: string }>(
      "SELECT description FROM activities WHERE action = 'leave.requested' AND description LIKE '[removed]%' ORDER BY id",
    );
    expect(english.map((row) => row.description)).toEqual([
      expect.stringMatching(/^\[removed\] \(parent\) asked for leave for \[removed\] \(Class 8\) on .+: \[removed\]$/),
      expect.stringMatching(/^\[removed\] \(parent\) asked for leave for \[removed\] \(Class 8\) on .+: \[removed\]$/),
    ]);

    // Run again: nothing left to do.
    expect(await scrubStudentsWhoLeft(api.db)).toBe(0);
  });
});
