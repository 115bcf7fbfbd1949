import { expect } from 'vitest';
import { centreTimeZone, today } from '../../src/lib/time';
import { shiftMonth } from '../../src/modules/fees/charges-compute';
import type { TestClient } from './client';

/** What the charge-run tests share (ADR 052): months relative to today, students placed in time, the ledger read back. */

export const thisMonth = () => today().slice(0, 7);
export const lastMonth = () => shiftMonth(thisMonth(), -1);

let classes = 0;
/** A class of the test's own, so that a plan on it charges only the test's students. */
export async function ownClass(api: TestClient): Promise<string> {
  classes += 1;
  const value = `Fees ${process.pid % 1000}-${classes}`;
  const response = await api.as('admin').post('/api/v1/classes', { value });
  expect(response.statusCode, response.body).toBe(201);
  return value;
}

/** A student who joined on `joinedOn` (noon in the centre's zone). */
export async function studentJoined(
  api: TestClient,
  joinedOn: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: number; parent_phone: string }> {
  const student = await api.student(fields);
  await api.db.query(`UPDATE students SET created_at = ($2::date + time '12:00') AT TIME ZONE $3 WHERE id = $1`, [
    student.id,
    joinedOn,
    centreTimeZone(),
  ]);
  return student;
}

export async function addPlan(api: TestClient, body: Record<string, unknown>): Promise<{ id: number }> {
  const response = await api.as('admin').post('/api/v1/fees/plans', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

export async function run(api: TestClient, month: string): Promise<number> {
  const response = await api.as('admin').post('/api/v1/fees/charges/run', { month });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().created as number;
}

/** A mark for a day, approved unless said otherwise; answers its id. */
export async function mark(
  api: TestClient,
  student: { id: number },
  date: string,
  status: 'present' | 'absent' | 'late' | 'leave',
  approved = true,
): Promise<number> {
  const [row] = await api.db.query<{ id: number }>(
    `INSERT INTO attendance (student_id, date, class_name, status, marked_by, approved_by, approved_at)
     SELECT id, $2::date, class_name, $3, 'Administrator', CASE WHEN $4 THEN 'Administrator' END, CASE WHEN $4 THEN now() END
       FROM students WHERE id = $1 RETURNING id`,
    [student.id, date, status, approved],
  );
  return (row as { id: number }).id;
}

/** The receivable entries about a student, in posting order: what their family was charged and credited for them. */
export async function studentEntries(api: TestClient, studentId: number) {
  return api.db.query<{ kind: string; amount_paise: number; due_on: string | null; description: string }>(
    `SELECT t.kind, e.amount_paise, to_char(t.due_on, 'YYYY-MM-DD') AS due_on, t.description
       FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE e.account = 'receivable' AND e.student_id = $1
      ORDER BY t.id, e.id`,
    [studentId],
  );
}

export async function owedFor(api: TestClient, studentId: number): Promise<number> {
  return (await studentEntries(api, studentId)).reduce((sum, entry) => sum + entry.amount_paise, 0);
}

/** Every ledger transaction sums to zero (the database checks it too, at commit). */
export async function expectLedgerBalanced(api: TestClient): Promise<void> {
  expect(
    await api.db.query(
      'SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING sum(amount_paise) <> 0 OR count(*) < 2',
    ),
  ).toEqual([]);
}

/** Archives every plan in use, so the next test's runs charge only its own. */
export async function archiveAllPlans(api: TestClient): Promise<void> {
  const plans = await api.db.query<{ id: number }>('SELECT id FROM fee_plans WHERE archived_at IS NULL');
  for (const plan of plans) await api.as('admin').post(`/api/v1/fees/plans/${plan.id}/archive`);
}
