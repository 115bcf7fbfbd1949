/**
 * The audit walk's scenarios for staff and their records (audit-walk.test.ts): sign-in and two-factor,
 * students, teachers, attendance and teacher attendance. Each is a real, successful call for a write
 * operation that changes audited data, with the rows it must leave, built when the walk reaches it, so
 * each sets up its own records.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { addDays, today } from '../../src/lib/time';
import { ADMIN, admin, adminActor, api, markedRecord, type Scenario, teacherCaller } from './audit';
import { enrol, freshCode } from './authenticator';
import { ADMIN_PASSWORD, uniquePhone } from './test-app';

export const STAFF_SCENARIOS: Record<string, () => Promise<Scenario>> = {
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
    const { base32Decode, totp } = await import('../../src/modules/auth/two-factor/totp');
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
};
