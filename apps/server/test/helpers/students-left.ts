/**
 * What the test files of students who leave share: the app and its admin, leaving and restoring, and
 * reading the lists, rows, activity and rosters they change.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { addDays, today } from '../../src/lib/time';
import { type Caller, type TestClient, testClient } from './client';

export let api: TestClient;
export let admin: Caller;

/** Opens the app before the file's tests and closes it after them. */
export function leaversApp(): void {
  beforeAll(async () => {
    api = await testClient();
    admin = api.as('admin');
  });
  afterAll(async () => {
    await api?.close();
  });
}

export interface StudentAnswer {
  id: number;
  unique_id: string;
  full_name: string;
  class_name: string;
  parent_name: string;
  parent_phone: string;
  left_on: string | null;
  scrubbed_at: string | null;
}

export const day = (offset: number) => addDays(today(), offset);

export function leave(id: number, body: Record<string, unknown> = {}, caller = admin) {
  return caller.post(`/api/v1/students/${id}/leave`, body);
}

export function restore(id: number, caller = admin) {
  return caller.post(`/api/v1/students/${id}/restore`, {});
}

export async function left(id: number, leftOn: string): Promise<StudentAnswer> {
  const response = await leave(id, { left_on: leftOn });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as StudentAnswer;
}

export async function listIds(query = ''): Promise<number[]> {
  const response = await admin.get(`/api/v1/students/${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as StudentAnswer[]).map((student) => student.id);
}

export async function studentRow(id: number) {
  const [row] = await api.db.query<{
    full_name: string;
    parent_name: string;
    parent_phone: string;
    left_on: string | null;
    scrubbed: boolean;
  }>(
    `SELECT full_name, parent_name, parent_phone, to_char(left_on, 'YYYY-MM-DD') AS left_on,
            scrubbed_at IS NOT NULL AS scrubbed
       FROM students WHERE id = $1`,
    [id],
  );
  return row;
}

export async function activities(action: string) {
  return api.db.query<{ actor: string; description: string; user_id: number | null }>(
    'SELECT actor, description, user_id FROM activities WHERE action = $1 ORDER BY id',
    [action],
  );
}

export async function mark(date: string, records: { student_id: number; status: string }[]) {
  const response = await admin.post('/api/v1/attendance/mark', { date, records });
  expect(response.statusCode, response.body).toBe(200);
}

export async function rosterIds(className: string, date: string): Promise<number[]> {
  const response = await admin.get(`/api/v1/attendance/roster?class_name=${className}&date=${date}`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { students: { student_id: number }[] }).students.map((entry) => entry.student_id);
}
