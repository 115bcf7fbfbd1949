/**
 * What the audit test files share (ADR 025): one app whose WhatsApp stand-in takes every message, the
 * admin as the rows name them, reading the rows a call left, and the records a scenario sets up.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { addDays, today } from '../../src/lib/time';
import { type Caller, type CallOptions, type TestClient, testClient } from './client';
import { signInNewTeacher, uniquePhone } from './test-app';
import { multipartBody, workbook } from './workbooks';

export let api: TestClient;
export let admin: Caller;
export const ADMIN = { id: 1, name: 'Administrator' };

/** Opens the app before the file's tests and closes it after them. */
export function auditApp(): void {
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
}

export interface AuditRow {
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

export async function lastAuditId(): Promise<number> {
  const [row] = await api.db.query<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM audit_log');
  return row?.id ?? 0;
}

export async function auditRowsAfter(id: number): Promise<AuditRow[]> {
  return api.db.query<AuditRow>('SELECT * FROM audit_log WHERE id > $1 ORDER BY id', [id]);
}

export const CONSOLE = { 'x-tuitiondesk-client': 'console' };
export const PARENT_APP = { 'x-tuitiondesk-client': 'parent-app' };

export async function teacherCaller(fields: Record<string, unknown> = {}) {
  const teacher = await signInNewTeacher(api.app, api.db, await api.adminToken(), {
    first_name: 'Audit',
    last_name: `Teacher${randomUUID().slice(0, 6)}`,
    ...fields,
  });
  return { ...teacher, caller: api.withToken(teacher.token) };
}

export async function markedRecord(studentId: number, status: string, date = addDays(today(), -1)) {
  const marked = await admin.post('/api/v1/attendance/mark', { date, records: [{ student_id: studentId, status }] });
  expect(marked.statusCode).toBe(200);
  const [row] = await api.db.query<{ id: number }>('SELECT id FROM attendance WHERE student_id = $1 AND date = $2', [
    studentId,
    date,
  ]);
  return row?.id as number;
}

/** An absence alert to a family, as the approval of an absence sends it. */
export async function alertFor(studentId: number): Promise<number> {
  const id = await markedRecord(studentId, 'absent', today());
  expect((await admin.post('/api/v1/attendance/approve', { attendance_ids: [id] })).statusCode).toBe(200);
  const [message] = await api.db.query<{ id: number }>(
    "SELECT id FROM messages WHERE student_id = $1 AND kind = 'absence_alert' ORDER BY id DESC LIMIT 1",
    [studentId],
  );
  return message?.id as number;
}

/** A family's waiting leave request, asked for in the parent app. */
export async function leaveRequest() {
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

export function upload(kind: 'students' | 'teachers') {
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
export interface ExpectedRow {
  entity: string;
  action: string;
  record_id?: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  actor?: { id: number | null; name: string | null };
  way?: string;
}

export interface Scenario {
  /** Who calls: the walk checks the rows name them. */
  actor: { id: number | null; name: string | null };
  way: 'console' | 'parent app' | 'import';
  send: (options: CallOptions) => Promise<LightMyRequestResponse>;
  rows: ExpectedRow[];
  /** Puts back what the call changed that later walks depend on. */
  cleanUp?: () => Promise<void>;
}

const asAdmin = { id: 0, name: '' };
export function adminActor() {
  asAdmin.id = ADMIN.id;
  asAdmin.name = ADMIN.name;
  return { id: ADMIN.id, name: ADMIN.name };
}
