import { hashPassword } from '../../src/lib/passwords';
import { addDays, today } from '../../src/lib/time';
import { ADMIN, admin, adminActor, alertFor, api, leaveRequest, type Scenario, upload } from './audit';
import { enrol } from './authenticator';
import { login } from './test-app';

/** A real 1×1 PNG, as the centre's logo. */
const LOGO_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export const CENTRE_SCENARIOS: Record<string, () => Promise<Scenario>> = {
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
  'PUT /api/v1/communications/call-list/{message_id}/sent-by-hand': async () => {
    const student = await api.student({ class_name: '9' });
    const [message] = await api.db.query<{ id: number }>(
      `INSERT INTO messages (subject, message, recipient, kind, student_id, delivery_status)
       VALUES ('Holiday', 'Closed on Friday', $1, 'notice', $2, 'failed') RETURNING id`,
      [student.parent_phone, student.id],
    );
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.put(`/api/v1/communications/call-list/${message?.id}/sent-by-hand`, {}, options),
      rows: [
        {
          entity: 'messages',
          action: 'update',
          record_id: String(message?.id),
          before: { sent_by_hand_by: null },
          after: { sent_by_hand_by: ADMIN.name },
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
  'PUT /api/v1/settings/centre': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) => admin.put('/api/v1/settings/centre', { time_zone: 'Asia/Kolkata' }, options),
    rows: [{ entity: 'settings', action: 'create', record_id: 'centre_time_zone', after: { value: 'Asia/Kolkata' } }],
  }),
  'PUT /api/v1/settings/centre/logo': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) => admin.put('/api/v1/settings/centre/logo', { image_base64: LOGO_PNG }, options),
    rows: [{ entity: 'centre_logo', action: 'create', record_id: '1', after: { content_type: 'image/png' } }],
  }),
  'DELETE /api/v1/settings/centre/logo': async () => {
    await admin.put('/api/v1/settings/centre/logo', { image_base64: LOGO_PNG });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.delete('/api/v1/settings/centre/logo', options),
      rows: [{ entity: 'centre_logo', action: 'delete', record_id: '1', before: { content_type: 'image/png' } }],
    };
  },
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
