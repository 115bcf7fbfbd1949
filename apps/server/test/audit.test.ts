/**
 * The audit log (ADR 025): every write operation of the OpenAPI document that changes audited data
 * leaves rows naming who, from which address, through which way, and the values before and after;
 * sign-ins and failed ones too; secrets never; the rows cannot be changed or removed except by the
 * retention job; admins only read them, as a page or as CSV.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWithAuditSource } from '../src/db/audit-context';
import { hashPassword } from '../src/lib/passwords';
import { PollingLoop } from '../src/lib/polling-loop';
import { addDays, today } from '../src/lib/time';
import { removeExpiredAuditRows } from '../src/modules/audit/service';
import { waitFor } from './helpers/async';
import { enrol, freshCode } from './helpers/authenticator';
import { type Caller, type CallOptions, freshAddress, type TestClient, testClient } from './helpers/client';
import { ADMIN_PASSWORD, detailOf, login, signInNewTeacher, uniquePhone } from './helpers/test-app';
import { multipartBody, workbook } from './helpers/workbooks';

let api: TestClient;
let admin: Caller;
const ADMIN = { id: 1, name: 'Administrator' };

beforeAll(async () => {
  api = await testClient({
    // send-whatsapp needs WhatsApp on: a stand-in that takes every message.
    prepare: (ctx) => ({ ...ctx, whatsapp: { send: async () => ({ providerMessageId: `wamid.${randomUUID()}` }) } }),
  });
  admin = api.as('admin');
  const [row] = await api.db.query<{ id: number; full_name: string }>(
    "SELECT id, full_name FROM users WHERE username = 'admin'",
  );
  ADMIN.id = row?.id as number;
  ADMIN.name = row?.full_name as string;
});
afterAll(async () => {
  await api?.close();
});

interface AuditRow {
  id: number;
  actor_id: number | null;
  actor_name: string | null;
  address: string | null;
  way: string;
  entity: string;
  action: string;
  record_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

async function lastAuditId(): Promise<number> {
  const [row] = await api.db.query<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM audit_log');
  return row?.id ?? 0;
}

async function auditRowsAfter(id: number): Promise<AuditRow[]> {
  return api.db.query<AuditRow>('SELECT * FROM audit_log WHERE id > $1 ORDER BY id', [id]);
}

const CONSOLE = { 'x-tuitiondesk-client': 'console' };
const PARENT_APP = { 'x-tuitiondesk-client': 'parent-app' };

async function teacherCaller(fields: Record<string, unknown> = {}) {
  const teacher = await signInNewTeacher(api.app, api.db, await api.adminToken(), {
    first_name: 'Audit',
    last_name: `Teacher${randomUUID().slice(0, 6)}`,
    ...fields,
  });
  return { ...teacher, caller: api.withToken(teacher.token) };
}

async function markedRecord(studentId: number, status: string, date = addDays(today(), -1)) {
  const marked = await admin.post('/api/v1/attendance/mark', { date, records: [{ student_id: studentId, status }] });
  expect(marked.statusCode).toBe(200);
  const [row] = await api.db.query<{ id: number }>('SELECT id FROM attendance WHERE student_id = $1 AND date = $2', [
    studentId,
    date,
  ]);
  return row?.id as number;
}

/** An absence alert to a family, as the approval of an absence sends it. */
async function alertFor(studentId: number): Promise<number> {
  const id = await markedRecord(studentId, 'absent', today());
  expect((await admin.post('/api/v1/attendance/approve', { attendance_ids: [id] })).statusCode).toBe(200);
  const [message] = await api.db.query<{ id: number }>(
    "SELECT id FROM messages WHERE student_id = $1 AND kind = 'absence_alert' ORDER BY id DESC LIMIT 1",
    [studentId],
  );
  return message?.id as number;
}

/** A family's waiting leave request, asked for in the parent app. */
async function leaveRequest() {
  const family = await api.family();
  const parent = api.as('parent', family);
  const asked = await parent.post('/api/v1/parent/leave-requests', {
    student_id: family.studentId,
    from_date: addDays(today(), 2),
    reason: 'Family trip',
  });
  expect(asked.statusCode, asked.body).toBe(201);
  return { id: asked.json().id as number, parent, parentActor: { id: null, name: `Parent ${family.phone}` } };
}

function upload(kind: 'students' | 'teachers') {
  return multipartBody([
    {
      field: 'file',
      filename: `${kind}.xlsx`,
      content:
        kind === 'students'
          ? workbook([
              ['first_name', 'last_name', 'class_name', 'parent_phone'],
              ['Imported', 'Pupil', '7', uniquePhone()],
            ])
          : workbook([
              ['first_name', 'last_name', 'email', 'phone_number'],
              ['Imported', 'Tutor', `imported.${randomUUID().slice(0, 8)}@example.test`, uniquePhone()],
            ]),
    },
  ]);
}

/** An audit row the call must leave: who is filled in by the walk (the caller), unless given. */
interface ExpectedRow {
  entity: string;
  action: string;
  record_id?: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  actor?: { id: number | null; name: string | null };
  way?: string;
}

interface Scenario {
  /** Who calls: the walk checks the rows name them. */
  actor: { id: number | null; name: string | null };
  way: 'console' | 'parent app' | 'import';
  send: (options: CallOptions) => Promise<LightMyRequestResponse>;
  rows: ExpectedRow[];
  /** Puts back what the call changed that later walks depend on. */
  cleanUp?: () => Promise<void>;
}

const asAdmin = { id: 0, name: '' };
function adminActor() {
  asAdmin.id = ADMIN.id;
  asAdmin.name = ADMIN.name;
  return { id: ADMIN.id, name: ADMIN.name };
}

/**
 * A real, successful call for every write operation that changes audited data, with the rows it must
 * leave. Built when the walk reaches it, so each sets up its own records.
 */
const SCENARIOS: Record<string, () => Promise<Scenario>> = {
  'POST /api/v1/auth/login': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) =>
      api
        .anonymous()
        .post('/api/v1/auth/login', undefined, { ...options, form: { username: 'admin', password: ADMIN_PASSWORD } }),
    rows: [
      {
        entity: 'sign_in',
        action: 'sign_in',
        record_id: String(ADMIN.id),
        after: { kind: 'staff', username: 'admin' },
      },
    ],
  }),
  'POST /api/v1/auth/change-password': async () => {
    const teacher = await teacherCaller();
    return {
      actor: { id: teacher.id, name: teacher.full_name },
      way: 'console',
      send: (options) =>
        teacher.caller.post(
          '/api/v1/auth/change-password',
          { current_password: teacher.password, new_password: 'Lantern-Quartz-77' },
          options,
        ),
      rows: [
        { entity: 'users', action: 'update', record_id: String(teacher.id), after: { password_hash: '[redacted]' } },
      ],
    };
  },
  'PUT /api/v1/auth/me/language': async () => {
    const teacher = await teacherCaller();
    return {
      actor: { id: teacher.id, name: teacher.full_name },
      way: 'console',
      send: (options) => teacher.caller.put('/api/v1/auth/me/language', { language: 'hi' }, options),
      rows: [
        {
          entity: 'users',
          action: 'update',
          record_id: String(teacher.id),
          before: { language: null },
          after: { language: 'hi' },
        },
      ],
    };
  },
  'POST /api/v1/auth/two-factor/setup': async () => {
    const teacher = await teacherCaller();
    return {
      actor: { id: teacher.id, name: teacher.full_name },
      way: 'console',
      send: (options) => teacher.caller.post('/api/v1/auth/two-factor/setup', undefined, options),
      rows: [
        {
          entity: 'user_two_factor',
          action: 'create',
          record_id: String(teacher.id),
          after: { secret_encrypted: '[redacted]', confirmed_at: null },
        },
      ],
    };
  },
  'POST /api/v1/auth/two-factor/confirm': async () => {
    const teacher = await teacherCaller();
    const setup = await teacher.caller.post('/api/v1/auth/two-factor/setup');
    expect(setup.statusCode).toBe(200);
    const { base32Decode, totp } = await import('../src/modules/two-factor/totp');
    const secret = base32Decode(setup.json().secret) as Buffer;
    return {
      actor: { id: teacher.id, name: teacher.full_name },
      way: 'console',
      send: (options) =>
        teacher.caller.post('/api/v1/auth/two-factor/confirm', { otp: totp(secret, Date.now()) }, options),
      rows: [
        {
          entity: 'user_two_factor',
          action: 'update',
          record_id: String(teacher.id),
          before: { confirmed_at: null },
          after: { confirmed_at: expect.any(String) },
        },
      ],
    };
  },
  'POST /api/v1/auth/two-factor/disable': async () => {
    const teacher = await teacherCaller();
    const enrolled = await enrol(api.app, teacher.token);
    const otp = await freshCode(api.db, teacher.id, enrolled.secret);
    return {
      actor: { id: teacher.id, name: teacher.full_name },
      way: 'console',
      send: (options) =>
        api
          .withToken(enrolled.token)
          .post('/api/v1/auth/two-factor/disable', { current_password: teacher.password, otp }, options),
      rows: [{ entity: 'user_two_factor', action: 'delete', record_id: String(teacher.id) }],
    };
  },
  'DELETE /api/v1/auth/two-factor/users/{id}': async () => {
    const teacher = await teacherCaller();
    await enrol(api.app, teacher.token);
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.delete(`/api/v1/auth/two-factor/users/${teacher.id}`, options),
      rows: [{ entity: 'user_two_factor', action: 'delete', record_id: String(teacher.id) }],
    };
  },

  'POST /api/v1/students/': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) =>
      admin.post(
        '/api/v1/students/',
        { full_name: 'Audit New', class_name: '9', parent_name: 'Parent', parent_phone: uniquePhone() },
        options,
      ),
    rows: [{ entity: 'students', action: 'create', after: { full_name: 'Audit New', class_name: '9' } }],
  }),
  'PUT /api/v1/students/{id}': async () => {
    const student = await api.student({ full_name: 'Before Name', class_name: '7' });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) =>
        admin.put(`/api/v1/students/${student.id}`, { full_name: 'After Name', class_name: '8' }, options),
      rows: [
        {
          entity: 'students',
          action: 'update',
          record_id: String(student.id),
          before: { full_name: 'Before Name', class_name: '7' },
          after: { full_name: 'After Name', class_name: '8' },
        },
      ],
    };
  },
  'DELETE /api/v1/students/{id}': async () => {
    const student = await api.student({ full_name: 'Deleted One' });
    await markedRecord(student.id, 'absent');
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.delete(`/api/v1/students/${student.id}`, options),
      rows: [
        { entity: 'students', action: 'delete', record_id: String(student.id), before: { full_name: 'Deleted One' } },
        // The cascade is a change too, under the same account.
        { entity: 'attendance', action: 'delete', before: { student_id: student.id, status: 'absent' } },
      ],
    };
  },
  'POST /api/v1/students/delete-multiple': async () => {
    const student = await api.student({ full_name: 'Deleted Among Many' });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post('/api/v1/students/delete-multiple', [student.id], options),
      rows: [
        {
          entity: 'students',
          action: 'delete',
          record_id: String(student.id),
          before: { full_name: 'Deleted Among Many' },
        },
      ],
    };
  },
  'DELETE /api/v1/students/clear-all': async () => {
    const student = await api.student({ full_name: 'Cleared Away' });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.delete('/api/v1/students/clear-all', options),
      rows: [
        { entity: 'backup', action: 'backup_created' },
        { entity: 'students', action: 'delete', record_id: String(student.id), before: { full_name: 'Cleared Away' } },
      ],
    };
  },
  'POST /api/v1/students/{id}/leave': async () => {
    const student = await api.student({ full_name: 'Leaving Soon' });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post(`/api/v1/students/${student.id}/leave`, {}, options),
      rows: [
        {
          entity: 'students',
          action: 'update',
          record_id: String(student.id),
          before: { left_on: null },
          after: { left_on: today() },
        },
      ],
    };
  },
  'POST /api/v1/students/{id}/restore': async () => {
    const student = await api.student({ full_name: 'Coming Back' });
    expect((await admin.post(`/api/v1/students/${student.id}/leave`, {})).statusCode).toBe(200);
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post(`/api/v1/students/${student.id}/restore`, undefined, options),
      rows: [
        {
          entity: 'students',
          action: 'update',
          record_id: String(student.id),
          before: { left_on: today() },
          after: { left_on: null },
        },
      ],
    };
  },
  'PUT /api/v1/settings/students': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) => admin.put('/api/v1/settings/students', { scrub_left_after_months: 30 }, options),
    rows: [{ entity: 'settings', action: 'update', record_id: 'scrub_left_after_months', after: { value: '30' } }],
  }),

  'POST /api/v1/teachers/': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) =>
      admin.post(
        '/api/v1/teachers/',
        { first_name: 'Newly', last_name: 'Hired', phone_number: uniquePhone() },
        options,
      ),
    rows: [
      { entity: 'teachers', action: 'create', after: { full_name: 'Newly Hired' } },
      { entity: 'users', action: 'create', after: { full_name: 'Newly Hired', password_hash: '[redacted]' } },
    ],
  }),
  'PUT /api/v1/teachers/{id}': async () => {
    const teacher = await api.teacher({ first_name: 'Edited', last_name: 'Tutor', qualification: 'BSc' });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.put(`/api/v1/teachers/${teacher.id}`, { qualification: 'PhD' }, options),
      rows: [
        {
          entity: 'teachers',
          action: 'update',
          record_id: String(teacher.id),
          before: { qualification: 'BSc' },
          after: { qualification: 'PhD' },
        },
      ],
    };
  },
  'DELETE /api/v1/teachers/{id}': async () => {
    const teacher = await api.teacher({ first_name: 'Gone', last_name: 'Tutor' });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.delete(`/api/v1/teachers/${teacher.id}`, options),
      rows: [
        { entity: 'teachers', action: 'delete', record_id: String(teacher.id), before: { full_name: 'Gone Tutor' } },
      ],
    };
  },
  'POST /api/v1/teachers/delete-multiple': async () => {
    const teacher = await api.teacher({ first_name: 'Many', last_name: 'Gone' });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post('/api/v1/teachers/delete-multiple', [teacher.id], options),
      rows: [{ entity: 'teachers', action: 'delete', record_id: String(teacher.id) }],
    };
  },
  'DELETE /api/v1/teachers/clear-all': async () => {
    const teacher = await api.teacher({ first_name: 'All', last_name: 'Cleared' });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.delete('/api/v1/teachers/clear-all', options),
      rows: [{ entity: 'teachers', action: 'delete', record_id: String(teacher.id) }],
    };
  },

  'POST /api/v1/attendance/mark': async () => {
    const student = await api.student({ class_name: '7' });
    const id = await markedRecord(student.id, 'absent');
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) =>
        admin.post(
          '/api/v1/attendance/mark',
          { date: addDays(today(), -1), records: [{ student_id: student.id, status: 'late', remarks: 'Bus' }] },
          options,
        ),
      rows: [
        {
          entity: 'attendance',
          action: 'update',
          record_id: String(id),
          before: { status: 'absent', remarks: null },
          after: { status: 'late', remarks: 'Bus' },
        },
      ],
    };
  },
  'POST /api/v1/attendance/submissions': async () => {
    const student = await api.student({ class_name: '7' });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) =>
        admin.post(
          '/api/v1/attendance/submissions',
          { submission_id: randomUUID(), date: today(), records: [{ student_id: student.id, status: 'present' }] },
          options,
        ),
      rows: [{ entity: 'attendance', action: 'create', after: { student_id: student.id, status: 'present' } }],
    };
  },
  'POST /api/v1/attendance/approve': async () => {
    const student = await api.student({ class_name: '8' });
    const id = await markedRecord(student.id, 'present');
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post('/api/v1/attendance/approve', { attendance_ids: [id] }, options),
      rows: [
        {
          entity: 'attendance',
          action: 'update',
          record_id: String(id),
          before: { approved_at: null, approved_by: null },
          after: { approved_by: ADMIN.name, approved_at: expect.any(String) },
        },
      ],
    };
  },

  'POST /api/v1/teacher-attendance/mark': async () => {
    const teacher = await api.teacher({ first_name: 'Marked', last_name: 'Tutor' });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) =>
        admin.post(
          '/api/v1/teacher-attendance/mark',
          { date: addDays(today(), -3), teacher_records: [{ teacher_id: teacher.id, status: 'half_day' }] },
          options,
        ),
      rows: [{ entity: 'teacher_attendance', action: 'create', after: { teacher_id: teacher.id, status: 'half_day' } }],
    };
  },
  'POST /api/v1/teacher-attendance/update-remarks': async () => {
    const teacher = await api.teacher({ first_name: 'Remarked', last_name: 'Tutor' });
    const date = addDays(today(), -3);
    await admin.post('/api/v1/teacher-attendance/mark', {
      date,
      teacher_records: [{ teacher_id: teacher.id, status: 'present' }],
    });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) =>
        admin.post(
          '/api/v1/teacher-attendance/update-remarks',
          { teacher_id: teacher.id, date, remarks: 'Left early' },
          options,
        ),
      rows: [
        { entity: 'teacher_attendance', action: 'update', before: { remarks: null }, after: { remarks: 'Left early' } },
      ],
    };
  },
  'POST /api/v1/teacher-attendance/lock/{date}': async () => {
    const date = addDays(today(), -4);
    const teacher = await api.teacher({ first_name: 'Locked', last_name: 'Tutor' });
    await admin.post('/api/v1/teacher-attendance/mark', {
      date,
      teacher_records: [{ teacher_id: teacher.id, status: 'present' }],
    });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post(`/api/v1/teacher-attendance/lock/${date}`, undefined, options),
      rows: [
        { entity: 'teacher_attendance_locks', action: 'create', record_id: date, after: { locked_by: ADMIN.name } },
      ],
    };
  },

  'POST /api/v1/messages/send-to-parents': async () => {
    await api.student({ class_name: '10', full_name: 'Notice Reader' });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) =>
        admin.post(
          '/api/v1/messages/send-to-parents',
          { subject: 'Audit notice', message: 'Closed on Friday.', recipients: '10' },
          options,
        ),
      rows: [{ entity: 'messages', action: 'create', after: { subject: 'Audit notice', kind: 'notice' } }],
    };
  },
  'POST /api/v1/communications/send-whatsapp': async () => {
    const student = await api.student({ class_name: '9' });
    await api.db.query('UPDATE students SET parent_whatsapp_opt_in = true WHERE id = $1', [student.id]);
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) =>
        admin.post(
          '/api/v1/communications/send-whatsapp',
          { student_id: student.id, message: 'Hello from audit' },
          options,
        ),
      rows: [{ entity: 'messages', action: 'create', after: { kind: 'whatsapp', recipient: student.parent_phone } }],
    };
  },
  'PUT /api/v1/communications/call-list/{message_id}': async () => {
    const student = await api.student({ class_name: '9' });
    const [message] = await api.db.query<{ id: number }>(
      `INSERT INTO messages (subject, message, recipient, kind, student_id, call_requested_at, delivery_status)
       VALUES ('Absence alert', 'Away today', $1, 'absence_alert', $2, now(), 'delivered') RETURNING id`,
      [student.parent_phone, student.id],
    );
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.put(`/api/v1/communications/call-list/${message?.id}`, { called: true }, options),
      rows: [
        {
          entity: 'messages',
          action: 'update',
          record_id: String(message?.id),
          before: { called_at: null, called_by: null },
          after: { called_by: ADMIN.name },
        },
      ],
    };
  },
  'POST /api/v1/message-templates': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) =>
      admin.post(
        '/api/v1/message-templates',
        {
          name: 'Audit template',
          purpose: 'notice',
          subject: 'Holiday',
          texts: [{ language: 'en', body: 'Closed on {date}.', whatsapp_template: null }],
        },
        options,
      ),
    rows: [
      { entity: 'message_templates', action: 'create', after: { name: 'Audit template' } },
      // Its texts too (migration 0026), one row per language.
      { entity: 'message_template_texts', action: 'create', after: { language: 'en', body: 'Closed on {date}.' } },
    ],
  }),
  'PUT /api/v1/message-templates/{id}': async () => {
    const body = {
      name: 'Audit edited',
      purpose: 'notice',
      subject: 'Before',
      texts: [{ language: 'en', body: 'Closed.', whatsapp_template: null }],
    };
    const created = await admin.post('/api/v1/message-templates', body);
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) =>
        admin.put(
          `/api/v1/message-templates/${created.json().id}`,
          { ...body, subject: 'After', texts: [{ language: 'en', body: 'Open.', whatsapp_template: 'audit_open' }] },
          options,
        ),
      rows: [
        { entity: 'message_templates', action: 'update', before: { subject: 'Before' }, after: { subject: 'After' } },
        {
          entity: 'message_template_texts',
          action: 'update',
          record_id: `${created.json().id}:en`,
          before: { body: 'Closed.', whatsapp_template: null },
          after: { body: 'Open.', whatsapp_template: 'audit_open' },
        },
      ],
    };
  },
  'DELETE /api/v1/message-templates/{id}': async () => {
    const created = await admin.post('/api/v1/message-templates', {
      name: 'Audit deleted',
      purpose: 'notice',
      subject: 'Gone',
      texts: [{ language: 'en', body: 'Closed.', whatsapp_template: null }],
    });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.delete(`/api/v1/message-templates/${created.json().id}`, options),
      rows: [
        { entity: 'message_templates', action: 'delete', record_id: String(created.json().id) },
        { entity: 'message_template_texts', action: 'delete', record_id: `${created.json().id}:en` },
      ],
    };
  },

  'POST /api/v1/import/students/import': async () => {
    const body = upload('students');
    return {
      actor: adminActor(),
      way: 'import',
      send: (options) =>
        admin.request('POST', '/api/v1/import/students/import', undefined, {
          ...options,
          headers: { ...options.headers, ...body.headers },
          raw: body.payload,
        }),
      rows: [{ entity: 'students', action: 'create', after: { full_name: 'Imported Pupil' } }],
    };
  },
  'POST /api/v1/import/teachers/import': async () => {
    const body = upload('teachers');
    return {
      actor: adminActor(),
      way: 'import',
      send: (options) =>
        admin.request('POST', '/api/v1/import/teachers/import', undefined, {
          ...options,
          headers: { ...options.headers, ...body.headers },
          raw: body.payload,
        }),
      rows: [
        { entity: 'teachers', action: 'create', after: { full_name: 'Imported Tutor' } },
        { entity: 'users', action: 'create', after: { password_hash: '[redacted]' } },
      ],
    };
  },

  'POST /api/v1/students/{id}/parent-access': async () => {
    const student = await api.student({});
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post(`/api/v1/students/${student.id}/parent-access`, undefined, options),
      rows: [
        {
          entity: 'parent_access',
          action: 'create',
          record_id: student.parent_phone,
          after: { code_hash: '[redacted]' },
        },
      ],
    };
  },
  'POST /api/v1/parent/login': async () => {
    const family = await api.family();
    return {
      actor: { id: null, name: `Parent ${family.phone}` },
      way: 'parent app',
      send: (options) =>
        api.anonymous().post('/api/v1/parent/login', { phone: family.phone, code: family.code }, options),
      rows: [
        {
          entity: 'sign_in',
          action: 'sign_in',
          record_id: family.phone,
          after: { kind: 'parent', phone: family.phone },
        },
      ],
    };
  },
  'POST /api/v1/parent/messages/{id}/reply': async () => {
    const family = await api.family();
    const messageId = await alertFor(family.studentId);
    const parent = api.as('parent', family);
    await parent.get('/api/v1/parent/me');
    return {
      actor: { id: null, name: `Parent ${family.phone}` },
      way: 'parent app',
      send: (options) => parent.post(`/api/v1/parent/messages/${messageId}/reply`, { reply: 'sick' }, options),
      rows: [
        {
          entity: 'messages',
          action: 'update',
          record_id: String(messageId),
          before: { reply: null },
          after: { reply: 'sick' },
        },
      ],
    };
  },
  'PUT /api/v1/parent/whatsapp': async () => {
    const family = await api.family();
    const parent = api.as('parent', family);
    await parent.get('/api/v1/parent/me');
    return {
      actor: { id: null, name: `Parent ${family.phone}` },
      way: 'parent app',
      send: (options) => parent.put('/api/v1/parent/whatsapp', { opted_in: true }, options),
      rows: [
        {
          entity: 'students',
          action: 'update',
          record_id: String(family.studentId),
          before: { parent_whatsapp_opt_in: false },
          after: { parent_whatsapp_opt_in: true },
        },
      ],
    };
  },

  'PUT /api/v1/parent/language': async () => {
    const family = await api.family();
    const parent = api.as('parent', family);
    await parent.get('/api/v1/parent/me');
    return {
      actor: { id: null, name: `Parent ${family.phone}` },
      way: 'parent app',
      send: (options) => parent.put('/api/v1/parent/language', { language: 'ta' }, options),
      rows: [
        {
          entity: 'students',
          action: 'update',
          record_id: String(family.studentId),
          before: { parent_language: 'en' },
          after: { parent_language: 'ta' },
        },
      ],
    };
  },

  'POST /api/v1/parent/leave-requests': async () => {
    const family = await api.family();
    const parent = api.as('parent', family);
    const from = addDays(today(), 3);
    return {
      actor: { id: null, name: `Parent ${family.phone}` },
      way: 'parent app',
      send: (options) =>
        parent.post(
          '/api/v1/parent/leave-requests',
          { student_id: family.studentId, from_date: from, reason: 'Wedding' },
          options,
        ),
      rows: [
        {
          entity: 'leave_requests',
          action: 'create',
          after: { student_id: family.studentId, from_date: from, reason: 'Wedding', status: 'pending' },
        },
      ],
    };
  },
  'POST /api/v1/parent/leave-requests/{id}/withdraw': async () => {
    const leave = await leaveRequest();
    return {
      actor: leave.parentActor,
      way: 'parent app',
      send: (options) => leave.parent.post(`/api/v1/parent/leave-requests/${leave.id}/withdraw`, undefined, options),
      rows: [
        {
          entity: 'leave_requests',
          action: 'update',
          record_id: String(leave.id),
          before: { status: 'pending' },
          after: { status: 'withdrawn' },
        },
      ],
    };
  },
  'POST /api/v1/leave-requests/{id}/approve': async () => {
    const leave = await leaveRequest();
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post(`/api/v1/leave-requests/${leave.id}/approve`, undefined, options),
      rows: [
        {
          entity: 'leave_requests',
          action: 'update',
          record_id: String(leave.id),
          before: { status: 'pending', decided_by: null },
          after: { status: 'approved', decided_by: ADMIN.name },
        },
      ],
    };
  },
  'POST /api/v1/leave-requests/{id}/decline': async () => {
    const leave = await leaveRequest();
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post(`/api/v1/leave-requests/${leave.id}/decline`, undefined, options),
      rows: [
        {
          entity: 'leave_requests',
          action: 'update',
          record_id: String(leave.id),
          before: { status: 'pending' },
          after: { status: 'declined' },
        },
      ],
    };
  },

  'PUT /api/v1/settings': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) => admin.put('/api/v1/settings', { absence_alerts: false }, options),
    rows: [
      {
        entity: 'settings',
        action: 'update',
        record_id: 'absence_alerts',
        before: { value: 'true' },
        after: { value: 'false' },
      },
    ],
  }),
  'PUT /api/v1/settings/two-factor': async () => {
    // Turning it on needs an enrolled admin: a second one, so the first keeps signing in without a code.
    const password = 'Second-Admin-Pass-42';
    const [second] = await api.db.query<{ id: number }>(
      `INSERT INTO users (username, full_name, role, password_hash) VALUES ('second.admin', 'Second Admin', 'admin', $1) RETURNING id`,
      [await hashPassword(password)],
    );
    const enrolled = await enrol(api.app, await login(api.app, 'second.admin', password));
    return {
      actor: { id: second?.id as number, name: 'Second Admin' },
      way: 'console',
      send: (options) =>
        api.withToken(enrolled.token).put('/api/v1/settings/two-factor', { require_admin_two_factor: true }, options),
      rows: [
        {
          entity: 'settings',
          action: 'update',
          record_id: 'require_admin_two_factor',
          before: { value: 'false' },
          after: { value: 'true' },
        },
      ],
      cleanUp: async () => {
        await api.db.query("UPDATE settings SET value = 'false' WHERE key = 'require_admin_two_factor'");
      },
    };
  },
  'PUT /api/v1/settings/marking': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) =>
      admin.put('/api/v1/settings/marking', { teacher_mark_days_back: 5, teachers_mark_any_class: true }, options),
    rows: [
      {
        entity: 'settings',
        action: 'update',
        record_id: 'teacher_mark_days_back',
        before: { value: '2' },
        after: { value: '5' },
      },
    ],
  }),
  'PUT /api/v1/settings/messaging': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) =>
      admin.put(
        '/api/v1/settings/messaging',
        {
          centre_name: 'Audited Tuition',
          whatsapp_fallback_minutes: 10,
          not_reached_minutes: 30,
          whatsapp_notice_template: 'tuitiondesk_notice',
        },
        options,
      ),
    rows: [{ entity: 'settings', action: 'update', record_id: 'centre_name', after: { value: 'Audited Tuition' } }],
  }),
  'PUT /api/v1/settings/audit': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) => admin.put('/api/v1/settings/audit', { audit_retention_months: 24 }, options),
    rows: [
      {
        entity: 'settings',
        action: 'update',
        record_id: 'audit_retention_months',
        before: { value: '36' },
        after: { value: '24' },
      },
    ],
  }),
  'PUT /api/v1/settings/phones': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) => admin.put('/api/v1/settings/phones', { default_country_code: '+971' }, options),
    rows: [
      {
        entity: 'settings',
        action: 'update',
        record_id: 'default_country_code',
        before: { value: '+91' },
        after: { value: '+971' },
      },
    ],
  }),
  'PUT /api/v1/settings/reminders': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) => admin.put('/api/v1/settings/reminders', { reminder_time: '16:45' }, options),
    rows: [
      {
        entity: 'settings',
        action: 'update',
        record_id: 'marking_reminder_time',
        before: { value: '10:00' },
        after: { value: '16:45' },
      },
    ],
  }),
  'POST /api/v1/backups': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) => admin.post('/api/v1/backups', undefined, options),
    rows: [{ entity: 'backup', action: 'backup_created', after: { kind: 'console' } }],
  }),
};

/**
 * Writes that change nothing the audit log covers, each with why. A new write operation must be
 * walked above or listed here with its reason, or the walk fails.
 */
const EXEMPT: Record<string, string> = {
  // Delivery: a parent's device says it showed or opened a message (read_at, delivery status): churn
  // the log leaves out on purpose, one row per message and not per delivery step.
  'POST /api/v1/parent/messages/{id}/read': 'delivery churn',
  'POST /api/v1/parent/receipts': 'delivery churn',
  // A device's push subscription holds its keys and is not centre data.
  'POST /api/v1/parent/push/subscriptions': 'device push keys',
  'DELETE /api/v1/parent/push/subscriptions': 'device push keys',
  'POST /api/v1/staff/push/subscriptions': 'device push keys',
  'DELETE /api/v1/staff/push/subscriptions': 'device push keys',
  // Moves the caller's own "seen up to" mark in the activity feed (users.activities_viewed_at, left out).
  'POST /api/v1/activities/mark-viewed': 'read marker',
  // Meta's delivery statuses (churn) and parents' WhatsApp replies: signed with the app secret, which
  // needs WhatsApp configured against a fake Cloud API (whatsapp-webhook.test.ts). A STOP reply's
  // consent change is a students update, under the same triggers, with way 'api' and no account.
  'POST /api/v1/whatsapp/webhook': 'signed callback; covered by the students and messages triggers',
};

/** Destructive ones last: they take the other walks' records with them. */
const RUN_LAST = ['DELETE /api/v1/students/clear-all', 'DELETE /api/v1/teachers/clear-all'];

async function writeOperations(): Promise<string[]> {
  const document = (await api.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe('every write operation of the OpenAPI document leaves audit rows', () => {
  it('each write operation is walked below or exempt with its reason, and nothing listed is gone', async () => {
    const writes = await writeOperations();
    expect(writes.length).toBeGreaterThan(40);
    expect(writes.filter((key) => !(key in SCENARIOS) && !(key in EXEMPT))).toEqual([]);
    expect([...Object.keys(SCENARIOS), ...Object.keys(EXEMPT)].filter((key) => !writes.includes(key))).toEqual([]);
  });

  const ordered = [
    ...Object.keys(SCENARIOS).filter((key) => !RUN_LAST.includes(key)),
    ...RUN_LAST.filter((key) => key in SCENARIOS),
  ];
  it.each(ordered)('%s', async (key) => {
    const scenario = await (SCENARIOS[key] as () => Promise<Scenario>)();
    const address = freshAddress();
    const from = await lastAuditId();
    const response = await scenario.send({
      headers: scenario.way === 'parent app' ? PARENT_APP : CONSOLE,
      remoteAddress: address,
    });
    await scenario.cleanUp?.();
    expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(300);
    const rows = await auditRowsAfter(from);
    for (const expected of scenario.rows) {
      const actor = expected.actor ?? scenario.actor;
      const match = {
        entity: expected.entity,
        action: expected.action,
        actor_id: actor.id,
        actor_name: actor.name,
        address,
        way: expected.way ?? scenario.way,
        ...(expected.record_id === undefined ? {} : { record_id: expected.record_id }),
        ...(expected.before === undefined ? {} : { before: expect.objectContaining(expected.before) }),
        ...(expected.after === undefined ? {} : { after: expect.objectContaining(expected.after) }),
      };
      expect(rows, `${expected.entity} ${expected.action}`).toContainEqual(expect.objectContaining(match));
    }
  });
});

describe('what the rows hold', () => {
  it('an update records only the columns that changed; saving the same values records nothing', async () => {
    const student = await api.student({ full_name: 'Same Values', class_name: '7' });
    const from = await lastAuditId();
    const same = await admin.put(`/api/v1/students/${student.id}`, { full_name: 'Same Values', class_name: '7' });
    expect(same.statusCode).toBe(200);
    expect((await auditRowsAfter(from)).filter((row) => row.entity === 'students')).toEqual([]);
    await admin.put(`/api/v1/students/${student.id}`, { class_name: '8' });
    const rows = (await auditRowsAfter(from)).filter((row) => row.entity === 'students');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.before).toEqual({ class_name: '7' });
    expect(rows[0]?.after).toEqual({ class_name: '8' });
  });

  it('marking a class records one row per student, and a message sent leaves one row however its delivery goes', async () => {
    const date = addDays(today(), -2);
    const pupils = await Promise.all(Array.from({ length: 5 }, () => api.student({ class_name: '10' })));
    const from = await lastAuditId();
    const marked = await admin.post('/api/v1/attendance/mark', {
      date,
      records: pupils.map((pupil, index) => ({ student_id: pupil.id, status: index === 0 ? 'absent' : 'present' })),
    });
    expect(marked.statusCode).toBe(200);
    const rows = (await auditRowsAfter(from)).filter((row) => row.entity === 'attendance');
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((row) => row.after?.student_id))).toEqual(new Set(pupils.map((pupil) => pupil.id)));

    const sent = await admin.post('/api/v1/messages/send-to-parents', {
      subject: 'One row each',
      message: 'x',
      recipients: '10',
    });
    expect(sent.statusCode).toBe(200);
    const [message] = await api.db.query<{ id: number }>(
      "SELECT id FROM messages WHERE subject = 'One row each' ORDER BY id LIMIT 1",
    );
    const beforeChurn = await lastAuditId();
    await api.db.query(
      "UPDATE messages SET delivery_status = 'delivered', delivered_at = now(), pushed_at = now(), read_at = now() WHERE id = $1",
      [message?.id],
    );
    expect(await auditRowsAfter(beforeChurn)).toEqual([]);
  });

  it('a failed sign-in names the account tried and the address, never the password; a throttled one leaves no row', async () => {
    const address = freshAddress();
    const from = await lastAuditId();
    const wrong = await api.anonymous().post('/api/v1/auth/login', undefined, {
      form: { username: 'admin', password: 'not-the-password-123' },
      remoteAddress: address,
      headers: CONSOLE,
    });
    expect(wrong.statusCode).toBe(401);
    const rows = await auditRowsAfter(from);
    expect(rows).toEqual([
      expect.objectContaining({
        entity: 'sign_in',
        action: 'sign_in_failed',
        actor_id: null,
        address,
        way: 'console',
        after: { kind: 'staff', tried: 'admin', reason: 'Incorrect username or password' },
      }),
    ]);
    expect(JSON.stringify(rows)).not.toContain('not-the-password-123');

    const family = await api.family();
    const parentFrom = await lastAuditId();
    const refused = await api
      .anonymous()
      .post(
        '/api/v1/parent/login',
        { phone: family.phone, code: 'AAAA-BBBB' },
        { remoteAddress: freshAddress(), headers: PARENT_APP },
      );
    expect([401, 422]).toContain(refused.statusCode);
    if (refused.statusCode === 401) {
      expect(await auditRowsAfter(parentFrom)).toEqual([
        expect.objectContaining({
          action: 'sign_in_failed',
          way: 'parent app',
          after: expect.objectContaining({ kind: 'parent', tried: family.phone }),
        }),
      ]);
    }
  });

  it('no secret lands in the log: password hashes, two-factor secrets, access code hashes and server keys', async () => {
    const teacher = await teacherCaller();
    await enrol(api.app, teacher.token);
    await api.family();
    const secrets = await api.db.query<{ secret: string }>(
      `SELECT password_hash AS secret FROM users
       UNION ALL SELECT secret_encrypted FROM user_two_factor
       UNION ALL SELECT code_hash FROM two_factor_recovery_codes
       UNION ALL SELECT code_hash FROM parent_access
       UNION ALL SELECT p256dh FROM push_subscriptions
       UNION ALL SELECT auth FROM push_subscriptions`,
    );
    expect(secrets.length).toBeGreaterThan(3);
    const log = JSON.stringify(await api.db.query('SELECT * FROM audit_log'));
    expect(secrets.filter(({ secret }) => log.includes(secret))).toEqual([]);
    expect(log).toContain('[redacted]');
    // A secret kept as a setting (before ADR 017) is redacted too, whoever writes it.
    const from = await lastAuditId();
    await api.db.query("INSERT INTO settings (key, value) VALUES ('jwt_secret', 'legacy-signing-secret-xyz')");
    await api.db.query("DELETE FROM settings WHERE key = 'jwt_secret'");
    const rows = await auditRowsAfter(from);
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain('legacy-signing-secret-xyz');
  });
});

describe('work that is not a request', () => {
  it("a worker woken during a request records its writes as the server's, not as that request's", async () => {
    const from = await lastAuditId();
    const loop = new PollingLoop(async () => {
      await api.db.query("INSERT INTO settings (key, value) VALUES ('worker_probe', 'x')");
    }, 60_000);
    await runWithAuditSource(
      () => ({ actor_id: ADMIN.id, actor_name: ADMIN.name, address: '10.1.1.1', way: 'console' }),
      async () => {
        // The request's own write carries its source.
        await api.db.query("INSERT INTO settings (key, value) VALUES ('request_probe', 'y')");
        loop.start();
      },
    );
    await waitFor('the worker round', async () => (await auditRowsAfter(from)).length === 2);
    await loop.stop(1000);
    const rows = await auditRowsAfter(from);
    expect(rows.find((row) => row.record_id === 'request_probe')).toMatchObject({
      actor_id: ADMIN.id,
      way: 'console',
      address: '10.1.1.1',
    });
    expect(rows.find((row) => row.record_id === 'worker_probe')).toMatchObject({
      actor_id: null,
      actor_name: null,
      way: 'system',
      address: null,
    });
  });
});

describe('append-only', () => {
  it('the database refuses to change or remove audit rows, whoever asks, and a clear-all of the feed keeps them', async () => {
    const [row] = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM audit_log');
    await expect(api.db.query("UPDATE audit_log SET actor_name = 'someone else'")).rejects.toThrow(/append-only/);
    await expect(api.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    await expect(api.db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    await expect(
      api.db.transaction(async (tx) => {
        await tx.query('DELETE FROM audit_log WHERE id = (SELECT min(id) FROM audit_log)');
      }),
    ).rejects.toThrow(/append-only/);
    const [after] = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM audit_log');
    expect(after?.count).toBe(row?.count);
  });

  it('the erasure of scrubbed personal data may only replace values with "[removed]", and only when asked for', async () => {
    const [row] = await api.db.query<{ id: number }>(
      `INSERT INTO audit_log (way, entity, action, record_id, actor_name, after)
       VALUES ('parent app', 'leave_requests', 'create', 'erase-1', 'Parent +919800000001',
               '{"parent_phone": "+919800000001", "reason": "Wedding"}')
       RETURNING id::int AS id`,
    );
    const id = row?.id;
    const inErasure = (sql: string) =>
      api.db.transaction(async (tx) => {
        await tx.query("SELECT set_config('tuitiondesk.audit_erasure', 'on', true)");
        await tx.query(sql, [id]);
      });
    // Without the flag: refused, as ever.
    await expect(
      api.db.query(`UPDATE audit_log SET after = after || '{"parent_phone": "[removed]"}' WHERE id = $1`, [id]),
    ).rejects.toThrow(/append-only/);
    // With it: a value rewritten into another, a key added or dropped, the action, time or actor's id
    // changed, or a row removed, are all still refused.
    for (const sql of [
      `UPDATE audit_log SET after = after || '{"reason": "Holiday"}' WHERE id = $1`,
      `UPDATE audit_log SET after = after || '{"extra": "[removed]"}' WHERE id = $1`,
      `UPDATE audit_log SET after = after - 'reason' WHERE id = $1`,
      `UPDATE audit_log SET action = 'delete' WHERE id = $1`,
      `UPDATE audit_log SET at = at - interval '1 day' WHERE id = $1`,
      `UPDATE audit_log SET actor_id = 1 WHERE id = $1`,
      `UPDATE audit_log SET actor_name = 'Someone else' WHERE id = $1`,
      `UPDATE audit_log SET record_id = 'erase-2' WHERE id = $1`,
      `DELETE FROM audit_log WHERE id = $1`,
    ]) {
      await expect(inErasure(sql), sql).rejects.toThrow(/append-only/);
    }
    await inErasure(
      `UPDATE audit_log SET after = after || '{"parent_phone": "[removed]"}', actor_name = 'Parent [removed]',
              record_id = '[removed]' WHERE id = $1`,
    );
    expect(await api.db.query('SELECT record_id, actor_name, after FROM audit_log WHERE id = $1', [id])).toEqual([
      {
        record_id: '[removed]',
        actor_name: 'Parent [removed]',
        after: { parent_phone: '[removed]', reason: 'Wedding' },
      },
    ]);
    // The flag does not outlive its transaction.
    await expect(
      api.db.query(`UPDATE audit_log SET after = after || '{"reason": "[removed]"}' WHERE id = $1`, [id]),
    ).rejects.toThrow(/append-only/);
  });

  it('the retention job removes only rows older than the setting, and records that it did', async () => {
    const [oldest] = await api.db.query<{ id: number }>(
      `INSERT INTO audit_log (at, way, entity, action, record_id)
       VALUES (now() - interval '25 months', 'system', 'students', 'create', 'old-1'),
              (now() - interval '23 months', 'system', 'students', 'create', 'kept-1')
       RETURNING id`,
    );
    expect(oldest).toBeDefined();
    expect((await admin.put('/api/v1/settings/audit', { audit_retention_months: 24 })).statusCode).toBe(200);
    const [countBefore] = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM audit_log');
    const removed = await removeExpiredAuditRows(api.db);
    expect(removed).toBe(1);
    const left = await api.db.query<{ record_id: string }>(
      "SELECT record_id FROM audit_log WHERE record_id IN ('old-1', 'kept-1')",
    );
    expect(left).toEqual([{ record_id: 'kept-1' }]);
    const [countAfter] = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM audit_log');
    expect(countAfter?.count).toBe((countBefore?.count ?? 0) - 1 + 1);
    const [record] = await api.db.query<AuditRow>(
      "SELECT * FROM audit_log WHERE entity = 'audit_log' ORDER BY id DESC LIMIT 1",
    );
    expect(record).toMatchObject({
      action: 'removed',
      way: 'system',
      actor_id: null,
      after: { removed: 1, retention_months: 24 },
    });
    // Nothing more to remove: no row about it.
    expect(await removeExpiredAuditRows(api.db)).toBe(0);
    // And the flag it used does not outlive its transaction.
    await expect(api.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
  });
});

describe('GET /audit, the export and the retention setting', () => {
  it('teachers get 403 on every audit call', async () => {
    const teacher = api.as('teacher');
    for (const url of ['/api/v1/audit', '/api/v1/audit/export', '/api/v1/settings/audit']) {
      const response = await teacher.get(url);
      expect(response.statusCode, url).toBe(403);
    }
    expect((await teacher.put('/api/v1/settings/audit', { audit_retention_months: 12 })).statusCode).toBe(403);
  });

  it("a record's full history, newest first, filtered by entity and record; paginated", async () => {
    const student = await api.student({ full_name: 'History One', class_name: '7' });
    await admin.put(`/api/v1/students/${student.id}`, { class_name: '8' });
    await admin.put(`/api/v1/students/${student.id}`, { class_name: '9' });
    const history = await admin.get(`/api/v1/audit?entity=students&record_id=${student.id}`);
    expect(history.statusCode).toBe(200);
    const body = history.json();
    expect(body.total).toBe(3);
    expect(body.entries.map((entry: AuditRow) => entry.action)).toEqual(['update', 'update', 'create']);
    expect(body.entries[0].after).toEqual({ class_name: '9' });
    const page = (await admin.get(`/api/v1/audit?entity=students&record_id=${student.id}&limit=1&offset=1`)).json();
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.entries[0].after).toEqual({ class_name: '8' });
    const byActor = (
      await admin.get(`/api/v1/audit?actor_id=${ADMIN.id}&action=update&from=${today()}&to=${today()}`)
    ).json();
    expect(byActor.entries.every((entry: AuditRow) => entry.actor_id === ADMIN.id && entry.action === 'update')).toBe(
      true,
    );
    // Who: part of the name, any case; % and _ are letters there, not patterns.
    const byName = (
      await admin.get(
        `/api/v1/audit?actor=${encodeURIComponent(ADMIN.name.slice(1, 5).toUpperCase())}&entity=students&record_id=${student.id}`,
      )
    ).json();
    expect(byName.total).toBe(3);
    expect((await admin.get(`/api/v1/audit?actor=%25&entity=students&record_id=${student.id}`)).json().total).toBe(0);
    const yesterday = (
      await admin.get(`/api/v1/audit?to=${addDays(today(), -1)}&entity=students&record_id=${student.id}`)
    ).json();
    expect(yesterday.total).toBe(0);
  });

  it('bad filters are 422 naming what to fix', async () => {
    for (const [query, words] of [
      ['from=2026-02-30', 'from: is not a real calendar date'],
      ['from=2026-03-02&to=2026-03-01', 'from: must not be after to'],
      ['way=fax', 'way: must be one of'],
      ['limit=500', 'limit: must be at most 200'],
      ['actor_id=abc', 'actor_id: must be a number'],
    ] as const) {
      const response = await admin.get(`/api/v1/audit?${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(detailOf(response)).toContain(words);
    }
  });

  it('CSV export: the same filters, a header, one line per row, formula-looking text neutralised', async () => {
    const student = await api.student({ full_name: '=HYPERLINK("http://x")', class_name: '7' });
    const response = await admin.get(`/api/v1/audit/export?entity=students&record_id=${student.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines[0]).toBe('"When","Who","Account id","Way","Address","What","Action","Record","Before","After"');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"students","create","${student.id}"`);
    // The JSON cell starts with {, never with =: no cell of the file starts a formula.
    for (const cell of lines[1]?.split('","') ?? []) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@]/);
    // Actor names are free text: one that looks like a formula gets a leading quote.
    await api.db.query(
      `INSERT INTO audit_log (actor_name, way, entity, action, record_id) VALUES ('=cmd|calc', 'api', 'csv-test', 'update', '1')`,
    );
    const injected = await admin.get('/api/v1/audit/export?entity=csv-test');
    expect(injected.body).toContain(`"'=cmd|calc"`);
  });

  it('the export streams a long log whole, in order', async () => {
    await api.db.query(
      `INSERT INTO audit_log (at, way, entity, action, record_id)
       SELECT now() - make_interval(secs => n), 'system', 'bulk-test', 'create', n::text FROM generate_series(1, 2500) n`,
    );
    const response = await admin.get('/api/v1/audit/export?entity=bulk-test');
    const lines = response.body.split('\r\n').filter(Boolean).slice(1);
    expect(lines).toHaveLength(2500);
    expect(lines[0]).toContain('"bulk-test","create","1"');
    expect(lines.at(-1)).toContain('"bulk-test","create","2500"');
  });

  it('the retention setting: read, changed, 422 on bad values, and a change is itself audited', async () => {
    expect((await admin.get('/api/v1/settings/audit')).json()).toEqual({ audit_retention_months: expect.any(Number) });
    for (const bad of [0, 121, 1.5, '12', null]) {
      const response = await admin.put('/api/v1/settings/audit', { audit_retention_months: bad });
      expect(response.statusCode, String(bad)).toBe(422);
      expect(detailOf(response)).toMatch(/^audit_retention_months: /);
    }
    const changed = await admin.put('/api/v1/settings/audit', { audit_retention_months: 60 });
    expect(changed.json()).toEqual({ audit_retention_months: 60 });
    expect((await admin.get('/api/v1/settings/audit')).json()).toEqual({ audit_retention_months: 60 });
  });
});
