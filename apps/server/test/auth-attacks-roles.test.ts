import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import {
  admin,
  adminId,
  api,
  attackedApp,
  get,
  postLogin,
  ROLE_WALK_WHATSAPP,
  setTeacher,
  signedInTeacher,
  teacher,
} from './helpers/auth-attacks';
import { feePlanExamples } from './helpers/fee-plans-walks';
import { feesLedgerExamples } from './helpers/fees-walks';
import { ACCESS, type Access } from './helpers/roles';
import { ADMIN_PASSWORD, createStudent, createTeacher, detailOf, uniquePhone } from './helpers/test-app';
import { multipartBody, workbook } from './helpers/workbooks';

/**
 * Hostile use of roles: every operation of the document called by each audience, and no way to more
 * rights through a body or a query (ASVS 8.2.1-8.2.3 function- and data-level access).
 */

attackedApp();

interface OpenApi {
  paths: Record<string, Record<string, unknown>>;
}

async function operations(): Promise<{ method: string; path: string; key: string }[]> {
  const document = (await get('/api/openapi.json')).json() as OpenApi;
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({
      method: method.toUpperCase(),
      path,
      key: `${method.toUpperCase()} ${path}`,
    })),
  );
}

/** A digest of every table: equal digests, equal data. */
async function snapshot(): Promise<Record<string, string>> {
  const tables = await api.db.query<{ name: string }>(
    'SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename',
  );
  const digest: Record<string, string> = {};
  for (const { name } of tables) {
    const rows = await api.db.query<{ digest: string | null; count: number }>(
      `SELECT md5(string_agg(x::text, '|' ORDER BY x::text)) AS digest, count(*)::int AS count FROM "${name}" x`,
    );
    digest[name] = `${rows[0]?.count}:${rows[0]?.digest}`;
  }
  return digest;
}

interface Example {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

/**
 * A valid request for every admin-only operation, with ids of rows that exist: a teacher's 403 must
 * come from the role check, not from a bad body. The walk fails for an admin-only operation without one.
 */
async function adminExamples(): Promise<Record<string, Example>> {
  const student = await createStudent(api.app, admin, { class_name: '8' });
  const other = await createStudent(api.app, admin, { class_name: '9' });
  const someTeacher = await createTeacher(api.app, admin, { first_name: 'Role', last_name: 'Target' });
  const date = addDays(today(), -1);
  const marked = await api
    .withToken(admin)
    .post('/api/v1/attendance/mark', { date, records: [{ student_id: student.id, status: 'absent' }] });
  expect(marked.statusCode).toBe(200);
  const pending = await api.db.query<{ id: number }>('SELECT id FROM attendance WHERE student_id = $1', [student.id]);
  // A parent's waiting leave request, as the parent app leaves it.
  const [leave] = await api.db.query<{ id: number }>(
    `INSERT INTO leave_requests (student_id, parent_phone, from_date, to_date, reason)
     VALUES ($1, $2, $3::date, $3::date, 'Role walk') RETURNING id`,
    [student.id, student.parent_phone, addDays(today(), 1)],
  );
  const notice = {
    name: 'Role walk notice',
    purpose: 'notice',
    subject: 'Notice',
    texts: [{ language: 'en', body: 'Closed on {date}.', whatsapp_template: null }],
  };
  const template = (await api.withToken(admin).post('/api/v1/message-templates', notice)).json() as { id: number };
  const walkClass = (await api.withToken(admin).post('/api/v1/classes', { value: 'Role walk batch' })).json() as {
    id: number;
  };
  const walkSubject = (await api.withToken(admin).post('/api/v1/subjects', { value: 'Role walk subject' })).json() as {
    id: number;
  };
  const classIds = ((await api.withToken(admin).get('/api/v1/classes')).json() as { id: number }[]).map((c) => c.id);
  const subjectIds = ((await api.withToken(admin).get('/api/v1/subjects')).json() as { id: number }[]).map((c) => c.id);
  const teacherDay = addDays(today(), -2);
  const teacherMarked = await api.withToken(admin).post('/api/v1/teacher-attendance/mark', {
    date: teacherDay,
    teacher_records: [{ teacher_id: someTeacher.id, status: 'present' }],
  });
  expect(teacherMarked.statusCode).toBe(200);
  const users = await api.db.query<{ id: number }>('SELECT user_id AS id FROM teachers WHERE id = $1', [
    someTeacher.id,
  ]);
  const upload = (kind: 'students' | 'teachers') =>
    multipartBody([
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
                ['Imported', 'Tutor', `imported.${randomBytes(3).toString('hex')}@example.test`, uniquePhone()],
              ]),
      },
    ]);
  // Another admin account for the admin accounts' calls (issue 28, item 7).
  const [spareAdmin] = await api.db.query<{ id: number }>(
    `INSERT INTO users (username, full_name, role, password_hash) VALUES ($1, 'Role Walk Admin', 'admin', 'x') RETURNING id`,
    [`walk-${randomBytes(3).toString('hex')}`],
  );
  const studentsUpload = upload('students');
  const teachersUpload = upload('teachers');
  const feesLedger = await feesLedgerExamples(api.db, student);
  const feePlans = await feePlanExamples(api.db);
  return {
    ...feesLedger,
    ...feePlans,
    'DELETE /api/v1/auth/two-factor/users/{id}': { url: `/api/v1/auth/two-factor/users/${users[0]?.id}` },
    'POST /api/v1/staff/{user_id}/reset-password': { url: `/api/v1/staff/${users[0]?.id}/reset-password` },
    'GET /api/v1/admins': { url: '/api/v1/admins' },
    'POST /api/v1/admins': {
      url: '/api/v1/admins',
      payload: { username: `new-${randomBytes(3).toString('hex')}`, full_name: 'New Admin' },
    },
    'POST /api/v1/admins/{id}/disable': { url: `/api/v1/admins/${spareAdmin?.id}/disable` },
    'POST /api/v1/admins/{id}/enable': { url: `/api/v1/admins/${spareAdmin?.id}/enable` },
    'DELETE /api/v1/admins/{id}': { url: `/api/v1/admins/${spareAdmin?.id}` },
    'POST /api/v1/parent-access/bulk': { url: '/api/v1/parent-access/bulk', payload: { class_name: '8' } },
    'DELETE /api/v1/students/{id}': { url: `/api/v1/students/${other.id}` },
    'POST /api/v1/students/delete-multiple': { url: '/api/v1/students/delete-multiple', payload: [other.id] },
    'DELETE /api/v1/students/clear-all': { url: '/api/v1/students/clear-all' },
    'POST /api/v1/students/{id}/leave': { url: `/api/v1/students/${student.id}/leave`, payload: {} },
    'POST /api/v1/students/{id}/restore': { url: `/api/v1/students/${student.id}/restore`, payload: {} },
    'PUT /api/v1/settings/students': { url: '/api/v1/settings/students', payload: { scrub_left_after_months: 24 } },
    'GET /api/v1/teachers/': { url: '/api/v1/teachers/' },
    'POST /api/v1/teachers/': {
      url: '/api/v1/teachers/',
      payload: { first_name: 'New', last_name: 'Hire', phone_number: uniquePhone() },
    },
    'GET /api/v1/teachers/{id}': { url: `/api/v1/teachers/${someTeacher.id}` },
    'PUT /api/v1/teachers/{id}': { url: `/api/v1/teachers/${someTeacher.id}`, payload: { qualification: 'PhD' } },
    'DELETE /api/v1/teachers/{id}': { url: `/api/v1/teachers/${someTeacher.id}` },
    'POST /api/v1/teachers/delete-multiple': { url: '/api/v1/teachers/delete-multiple', payload: [someTeacher.id] },
    'DELETE /api/v1/teachers/clear-all': { url: '/api/v1/teachers/clear-all' },
    'POST /api/v1/attendance/approve': {
      url: '/api/v1/attendance/approve',
      payload: { attendance_ids: pending.map((row) => row.id) },
    },
    'GET /api/v1/attendance/pending-days': { url: '/api/v1/attendance/pending-days' },
    'GET /api/v1/attendance/history': { url: `/api/v1/attendance/history?start_date=${date}&end_date=${date}` },
    'GET /api/v1/attendance/history/page': {
      url: `/api/v1/attendance/history/page?start_date=${date}&end_date=${date}`,
    },
    'POST /api/v1/leave-requests/{id}/approve': { url: `/api/v1/leave-requests/${leave?.id}/approve` },
    'POST /api/v1/leave-requests/{id}/decline': { url: `/api/v1/leave-requests/${leave?.id}/decline` },
    'GET /api/v1/teacher-attendance/date/{date}': { url: `/api/v1/teacher-attendance/date/${teacherDay}` },
    'POST /api/v1/teacher-attendance/mark': {
      url: '/api/v1/teacher-attendance/mark',
      payload: { date: teacherDay, teacher_records: [{ teacher_id: someTeacher.id, status: 'absent' }] },
    },
    'POST /api/v1/teacher-attendance/update-remarks': {
      url: '/api/v1/teacher-attendance/update-remarks',
      payload: { teacher_id: someTeacher.id, date: teacherDay, remarks: 'Left early' },
    },
    'POST /api/v1/teacher-attendance/lock/{date}': { url: `/api/v1/teacher-attendance/lock/${teacherDay}` },
    'POST /api/v1/communications/send-whatsapp': {
      url: '/api/v1/communications/send-whatsapp',
      payload: { student_id: student.id, message: 'Hello' },
    },
    'GET /api/v1/import/students/template': { url: '/api/v1/import/students/template' },
    'GET /api/v1/import/teachers/template': { url: '/api/v1/import/teachers/template' },
    'POST /api/v1/import/students/import': {
      url: '/api/v1/import/students/import',
      payload: studentsUpload.payload,
      headers: studentsUpload.headers,
    },
    'POST /api/v1/import/teachers/import': {
      url: '/api/v1/import/teachers/import',
      payload: teachersUpload.payload,
      headers: teachersUpload.headers,
    },
    'PUT /api/v1/settings': { url: '/api/v1/settings', payload: { absence_alerts: false } },
    'PUT /api/v1/settings/messaging': {
      url: '/api/v1/settings/messaging',
      payload: {
        centre_name: 'Role Walk Tuition',
        whatsapp_fallback_minutes: 5,
        not_reached_minutes: 20,
        whatsapp_notice_template: 'tuitiondesk_notice',
      },
    },
    'POST /api/v1/message-templates': {
      url: '/api/v1/message-templates',
      payload: { ...notice, name: 'Role walk new' },
    },
    'PUT /api/v1/message-templates/{id}': { url: `/api/v1/message-templates/${template.id}`, payload: notice },
    'DELETE /api/v1/message-templates/{id}': { url: `/api/v1/message-templates/${template.id}` },
    'PUT /api/v1/settings/marking': {
      url: '/api/v1/settings/marking',
      payload: { teacher_mark_days_back: 5, teachers_mark_any_class: true },
    },
    'PUT /api/v1/settings/reminders': {
      url: '/api/v1/settings/reminders',
      payload: { marking_reminders: true, reminder_time: '09:15' },
    },
    'PUT /api/v1/settings/phones': { url: '/api/v1/settings/phones', payload: { default_country_code: '+91' } },
    'PUT /api/v1/settings/centre': { url: '/api/v1/settings/centre', payload: { name: 'Role Walk Centre' } },
    'GET /api/v1/fees/gst': { url: '/api/v1/fees/gst' },
    'PUT /api/v1/fees/gst': { url: '/api/v1/fees/gst', payload: { registered: false, gstin: null } },
    // No fee family 999999: the admin's call passes the checks and finds nothing (404).
    'PUT /api/v1/fees/families/{family_id}/state': {
      url: '/api/v1/fees/families/999999/state',
      payload: { state_code: '29' },
    },
    'PUT /api/v1/fees/families/{family_id}/gst-details': {
      url: '/api/v1/fees/families/999999/gst-details',
      payload: { state_code: '29', billing_name: 'Role Walk LLP' },
    },
    'GET /api/v1/fees/reminders/settings': { url: '/api/v1/fees/reminders/settings' },
    'PUT /api/v1/fees/reminders/settings': { url: '/api/v1/fees/reminders/settings', payload: { hour: 10 } },
    'POST /api/v1/fees/reminders/run': { url: '/api/v1/fees/reminders/run' },
    // No such task: the admin's call passes the checks and finds nothing (404).
    'GET /api/v1/fees/match-tasks': { url: '/api/v1/fees/match-tasks?status=done' },
    'POST /api/v1/fees/match-tasks/{id}/match': {
      url: '/api/v1/fees/match-tasks/999999/match',
      payload: { payment_id: 1 },
    },
    'POST /api/v1/fees/match-tasks/{id}/dismiss': {
      url: '/api/v1/fees/match-tasks/999999/dismiss',
      payload: { note: 'Role walk' },
    },
    'GET /api/v1/fees/promises': { url: '/api/v1/fees/promises' },
    ...classesExamples('classes', walkClass.id, classIds),
    ...classesExamples('subjects', walkSubject.id, subjectIds),
    'GET /api/v1/settings/whatsapp': { url: '/api/v1/settings/whatsapp' },
    // Checked against the fake Cloud API the attacked app's Graph reads go to (helpers/auth-attacks.ts).
    'PUT /api/v1/settings/whatsapp': { url: '/api/v1/settings/whatsapp', payload: ROLE_WALK_WHATSAPP },
    'POST /api/v1/settings/whatsapp/test': { url: '/api/v1/settings/whatsapp/test', payload: { to: uniquePhone() } },
    'DELETE /api/v1/settings/whatsapp': { url: '/api/v1/settings/whatsapp' },
    // Online payment is off in this app: the admin's request is answered 409 (ADR 053), a teacher's 403 first.
    'POST /api/v1/fees/families/{family_id}/payment-link': {
      url: '/api/v1/fees/families/1/payment-link',
      payload: { amount_paise: 5000 },
    },
    'PUT /api/v1/settings/centre/logo': {
      url: '/api/v1/settings/centre/logo',
      payload: {
        image_base64:
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      },
    },
    'DELETE /api/v1/settings/centre/logo': { url: '/api/v1/settings/centre/logo' },
    'PUT /api/v1/settings/two-factor': {
      url: '/api/v1/settings/two-factor',
      payload: { require_admin_two_factor: false },
    },
    'POST /api/v1/backups': { url: '/api/v1/backups' },
    'GET /api/v1/backups': { url: '/api/v1/backups' },
    'GET /api/v1/audit': { url: '/api/v1/audit?entity=students' },
    'GET /api/v1/audit/export': { url: '/api/v1/audit/export?entity=students' },
    'GET /api/v1/settings/audit': { url: '/api/v1/settings/audit' },
    'PUT /api/v1/settings/audit': { url: '/api/v1/settings/audit', payload: { audit_retention_months: 48 } },
  };
}

/** Destructive ones last, when the admin replays the examples. */
/** A new order lists every class (subject) once: first, before the walk adds or deletes one. */
const RUN_FIRST = ['PUT /api/v1/classes/order', 'PUT /api/v1/subjects/order'];

const RUN_LAST = [
  'DELETE /api/v1/settings/whatsapp',
  'DELETE /api/v1/students/clear-all',
  'DELETE /api/v1/teachers/clear-all',
];

/** The classes' (or subjects') admin calls on a row of the walk's own (ADR 043). */
function classesExamples(kind: 'classes' | 'subjects', id: number, ids: number[]): Record<string, Example> {
  return {
    [`POST /api/v1/${kind}`]: { url: `/api/v1/${kind}`, payload: { value: `Role walk new ${kind}` } },
    [`PUT /api/v1/${kind}/{id}`]: { url: `/api/v1/${kind}/${id}`, payload: { label: 'Role walk label' } },
    [`POST /api/v1/${kind}/{id}/archive`]: { url: `/api/v1/${kind}/${id}/archive` },
    [`POST /api/v1/${kind}/{id}/unarchive`]: { url: `/api/v1/${kind}/${id}/unarchive` },
    [`PUT /api/v1/${kind}/order`]: { url: `/api/v1/${kind}/order`, payload: { ids } },
    [`DELETE /api/v1/${kind}/{id}`]: { url: `/api/v1/${kind}/${id}` },
  };
}

describe('roles on every operation (ASVS 8.2.1-8.2.3)', () => {
  it('every operation of the document says who may call it (helpers/roles.ts), and nothing listed is gone', async () => {
    const keys = (await operations()).map((operation) => operation.key);
    expect(keys.filter((key) => !(key in ACCESS))).toEqual([]);
    expect(Object.keys(ACCESS).filter((key) => !keys.includes(key))).toEqual([]);
  });

  it('no token: 401 on every operation that is not public; a parent token on staff calls and a staff token on parent calls: 403', async () => {
    const phone = uniquePhone();
    await createStudent(api.app, admin, { parent_phone: phone });
    await api.db.query("INSERT INTO parent_access (phone, code_hash, issued_by) VALUES ($1, 'x', 'Admin')", [phone]);
    const parentToken = await api.ctx.tokens.signParent({ phone, tokenVersion: 0 });
    const wrong: string[] = [];
    for (const { method, path, key } of await operations()) {
      const access = ACCESS[key] as Access;
      if (access === 'public') continue;
      const url = path.replace(/\{[a-z_]*id\}/g, '1').replace('{date}', '2026-01-05');
      const send = (token?: string) =>
        (token ? api.withToken(token) : api.anonymous()).request(
          method as 'GET',
          url,
          method === 'GET' ? undefined : {},
        );
      const none = await send();
      if (none.statusCode !== 401 || typeof none.json().detail !== 'string')
        wrong.push(`${key} without a token: ${none.statusCode}`);
      if (access === 'parent') {
        for (const [who, token] of [
          ['admin', admin],
          ['teacher', teacher.token],
        ] as const) {
          const response = await send(token);
          if (response.statusCode !== 403) wrong.push(`${key} as ${who}: ${response.statusCode}`);
        }
      } else {
        const response = await send(parentToken);
        if (response.statusCode !== 403) wrong.push(`${key} as a parent: ${response.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a teacher gets 403 on every admin-only operation, with a valid request, and the database does not change; the admin gets past the check', async () => {
    const examples = await adminExamples();
    const adminOnly = (await operations()).filter(({ key }) => ACCESS[key] === 'admin');
    expect(adminOnly.length).toBeGreaterThan(20);
    expect(adminOnly.filter(({ key }) => !examples[key]).map(({ key }) => key)).toEqual([]);

    const before = await snapshot();
    const leaks: string[] = [];
    for (const { method, key } of adminOnly) {
      const example = examples[key] as Example;
      const response = await api
        .withToken(teacher.token)
        .request(method as 'GET', example.url, example.payload, { headers: example.headers });
      if (response.statusCode !== 403 || detailOf(response) !== 'You do not have permission to do this') {
        leaks.push(`${key}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(await snapshot()).toEqual(before);

    // The same requests from the admin pass the role check and validation: the examples are real.
    const ordered = [
      ...adminOnly.filter(({ key }) => RUN_FIRST.includes(key)),
      ...adminOnly.filter(({ key }) => !RUN_LAST.includes(key) && !RUN_FIRST.includes(key)),
      ...adminOnly.filter(({ key }) => RUN_LAST.includes(key)),
    ];
    const refused: string[] = [];
    for (const { method, key } of ordered) {
      const example = examples[key] as Example;
      const response = await api
        .as('admin')
        .request(method as 'GET', example.url, example.payload, { headers: example.headers });
      // 404/409 are fine here (an earlier example deleted the row, the day is locked, two-factor is off).
      if (![200, 201, 404, 409].includes(response.statusCode))
        refused.push(`${key}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    }
    expect(refused).toEqual([]);
    // The admin's clear-all took the signed-in teacher with it: the tests below need one.
    setTeacher(await signedInTeacher());
  });
});

describe('no way to more rights (mass assignment, other accounts)', () => {
  it('a teacher cannot edit their own teacher record, so cannot raise their own role', async () => {
    const before = await snapshot();
    for (const payload of [{ role: 'admin' }, { is_admin: true, user_id: adminId }, { first_name: 'Still' }]) {
      const response = await api.withToken(teacher.token).put(`/api/v1/teachers/${teacher.id}`, payload);
      expect(response.statusCode).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('extra role, id and account fields in student bodies are ignored, never written', async () => {
    const extras = {
      role: 'admin',
      is_admin: true,
      user_id: adminId,
      id: 999_999,
      unique_id: 'STU9999',
      created_at: '2000-01-01T00:00:00Z',
      username: 'admin',
      token_version: 42,
    };
    const usersBefore = await api.db.query(
      'SELECT id, username, role, token_version, password_hash FROM users ORDER BY id',
    );
    const created = await api.withToken(teacher.token).post('/api/v1/students/', {
      full_name: 'Mass Assign',
      class_name: '7',
      parent_name: 'P',
      parent_phone: uniquePhone(),
      ...extras,
    });
    expect(created.statusCode).toBe(201);
    const student = created.json();
    expect(student.id).not.toBe(999_999);
    expect(student.unique_id).not.toBe('STU9999');
    expect(student.created_at.startsWith('2000')).toBe(false);
    const edited = await api
      .withToken(teacher.token)
      .put(`/api/v1/students/${student.id}`, { full_name: 'Mass Assigned', ...extras });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: student.id, unique_id: student.unique_id, full_name: 'Mass Assigned' });
    expect(
      await api.db.query('SELECT id, username, role, token_version, password_hash FROM users ORDER BY id'),
    ).toEqual(usersBefore);
    expect((await get('/api/v1/auth/me', teacher.token)).json().role).toBe('teacher');
  });

  it("an admin's teacher bodies cannot make an admin account, or tie a teacher to the admin's account", async () => {
    const created = await api.withToken(admin).post('/api/v1/teachers/', {
      first_name: 'Sneaky',
      last_name: 'Hire',
      phone_number: uniquePhone(),
      role: 'admin',
      is_admin: true,
      user_id: adminId,
      username: 'admin',
      password: 'chosen-password',
      must_change_password: false,
    });
    expect(created.statusCode).toBe(201);
    const newTeacher = created.json();
    const [account] = await api.db.query<{ id: number; username: string; role: string; must_change_password: boolean }>(
      'SELECT u.id, u.username, u.role, u.must_change_password FROM teachers t JOIN users u ON u.id = t.user_id WHERE t.id = $1',
      [newTeacher.id],
    );
    expect(account).toMatchObject({ role: 'teacher', must_change_password: true });
    expect(account?.id).not.toBe(adminId);
    expect(account?.username.toLowerCase()).toBe(newTeacher.unique_id.toLowerCase());
    expect((await postLogin(newTeacher.username, 'chosen-password')).statusCode).toBe(401);

    const edited = await api.withToken(admin).put(`/api/v1/teachers/${newTeacher.id}`, {
      user_id: adminId,
      role: 'admin',
      username: 'admin',
      qualification: 'MSc',
    });
    expect(edited.statusCode).toBe(200);
    const [after] = await api.db.query<{ user_id: number }>('SELECT user_id FROM teachers WHERE id = $1', [
      newTeacher.id,
    ]);
    expect(after?.user_id).toBe(account?.id);
    // Deleting that teacher deletes their own account only: the admin stays.
    expect((await api.withToken(admin).delete(`/api/v1/teachers/${newTeacher.id}`)).statusCode).toBe(200);
    expect((await get('/api/v1/auth/me', admin)).statusCode).toBe(200);
  });

  it("a teacher cannot change another user's password", async () => {
    const adminBefore = await api.db.query('SELECT password_hash, token_version FROM users WHERE id = $1', [adminId]);
    // The admin's current password, from a teacher's session: checked against the teacher's own.
    const withAdminPassword = await api.withToken(teacher.token).post('/api/v1/auth/change-password', {
      current_password: ADMIN_PASSWORD,
      new_password: 'taken-over-1',
      user_id: adminId,
      username: 'admin',
    });
    expect(withAdminPassword.statusCode).toBe(400);
    expect(detailOf(withAdminPassword)).toBe('Current password is incorrect');
    // Their own password, aimed at the admin by extra fields: only their own changes.
    const aimed = await api.withToken(teacher.token).post('/api/v1/auth/change-password', {
      current_password: teacher.password,
      new_password: 'staff-new-pw-1',
      user_id: adminId,
      username: 'admin',
      id: adminId,
    });
    expect(aimed.statusCode).toBe(200);
    expect(aimed.json().user.id).toBe(teacher.userId);
    setTeacher({ ...teacher, password: 'staff-new-pw-1', token: aimed.json().access_token });
    expect(await api.db.query('SELECT password_hash, token_version FROM users WHERE id = $1', [adminId])).toEqual(
      adminBefore,
    );
    expect((await get('/api/v1/auth/me', admin)).statusCode).toBe(200);
    expect((await postLogin('admin', 'staff-new-pw-1')).statusCode).toBe(401);
  });

  it('a query string cannot change who the caller is', async () => {
    const me = await get(`/api/v1/auth/me?role=admin&user_id=${adminId}&id=${adminId}`, teacher.token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: teacher.userId, role: 'teacher' });
  });
});
