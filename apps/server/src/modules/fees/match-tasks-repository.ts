import type { FeeMatchTaskStatus } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

/** The days of payments a task offers as candidates. */
export const CANDIDATE_DAYS = 60;
/** Most done tasks listed. */
export const DONE_LIMIT = 100;

export interface TaskRow {
  id: number;
  family_id: number;
  reference: string | null;
  via: 'parent_app' | 'whatsapp';
  claimed_at: string;
  status: FeeMatchTaskStatus;
  payment_id: number | null;
  receipt_number: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
  note: string | null;
}

const TASK_COLUMNS = `t.id, t.family_id, t.reference, t.via, t.claimed_at, t.status, t.payment_id, p.receipt_number,
  t.resolved_by_name AS resolved_by, t.resolved_at, t.note`;

function taskOf(row: TaskRow): TaskRow {
  return {
    ...row,
    family_id: Number(row.family_id),
    payment_id: row.payment_id === null ? null : Number(row.payment_id),
  };
}

/** Open tasks oldest first; done ones (matched or dismissed) newest first, at most DONE_LIMIT. */
export async function listTasks(db: Queryable, status: 'open' | 'done'): Promise<TaskRow[]> {
  const rows = await db.query<TaskRow>(
    status === 'open'
      ? `SELECT ${TASK_COLUMNS} FROM fee_match_tasks t LEFT JOIN fee_payments p ON p.transaction_id = t.payment_id
          WHERE t.status = 'open' ORDER BY t.claimed_at, t.id`
      : `SELECT ${TASK_COLUMNS} FROM fee_match_tasks t LEFT JOIN fee_payments p ON p.transaction_id = t.payment_id
          WHERE t.status <> 'open' ORDER BY t.resolved_at DESC, t.id DESC LIMIT ${DONE_LIMIT}`,
  );
  return rows.map(taskOf);
}

export async function countOpenTasks(db: Queryable): Promise<number> {
  const rows = await db.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM fee_match_tasks WHERE status = 'open'",
  );
  return rows[0]?.count ?? 0;
}

export async function findTask(db: Queryable, id: number): Promise<TaskRow | undefined> {
  const rows = await db.query<TaskRow>(
    `SELECT ${TASK_COLUMNS} FROM fee_match_tasks t LEFT JOIN fee_payments p ON p.transaction_id = t.payment_id
      WHERE t.id = $1`,
    [id],
  );
  return rows[0] ? taskOf(rows[0]) : undefined;
}

/** The task, locked: of two admins resolving it at once, the second waits and finds it resolved. */
export async function lockTask(
  tx: Queryable,
  id: number,
): Promise<{ family_id: number; status: FeeMatchTaskStatus } | undefined> {
  const rows = await tx.query<{ family_id: number; status: FeeMatchTaskStatus }>(
    'SELECT family_id, status FROM fee_match_tasks WHERE id = $1 FOR UPDATE',
    [id],
  );
  return rows[0] ? { family_id: Number(rows[0].family_id), status: rows[0].status } : undefined;
}

export interface CandidateRow {
  family_id: number;
  payment_id: number;
  receipt_number: string;
  amount_paise: number;
  mode: string;
  reference: string | null;
  received_on: string;
}

/** The families' payments received in the last CANDIDATE_DAYS days up to `today`, not reversed, newest first. */
export async function listCandidates(
  db: Queryable,
  familyIds: readonly number[],
  today: string,
): Promise<CandidateRow[]> {
  if (familyIds.length === 0) return [];
  const rows = await db.query<CandidateRow>(
    `SELECT p.family_id, p.transaction_id AS payment_id, p.receipt_number, p.amount_paise, p.mode, p.reference,
            to_char(p.received_on, 'YYYY-MM-DD') AS received_on
       FROM fee_payments p
      WHERE p.family_id = ANY($1::integer[]) AND p.received_on > $2::date - ${CANDIDATE_DAYS}
        AND NOT EXISTS (SELECT 1 FROM ledger_transactions r WHERE r.reverses = p.transaction_id)
      ORDER BY p.received_on DESC, p.transaction_id DESC`,
    [familyIds, today],
  );
  return rows.map((row) => ({
    ...row,
    family_id: Number(row.family_id),
    payment_id: Number(row.payment_id),
    amount_paise: Number(row.amount_paise),
  }));
}

/** A payment with its family and whether it was reversed; undefined when there is none. */
export async function findPayment(
  tx: Queryable,
  paymentId: number,
): Promise<{ family_id: number; receipt_number: string; reversed: boolean } | undefined> {
  const rows = await tx.query<{ family_id: number; receipt_number: string; reversed: boolean }>(
    `SELECT p.family_id, p.receipt_number,
            EXISTS (SELECT 1 FROM ledger_transactions r WHERE r.reverses = p.transaction_id) AS reversed
       FROM fee_payments p WHERE p.transaction_id = $1`,
    [paymentId],
  );
  return rows[0] ? { ...rows[0], family_id: Number(rows[0].family_id) } : undefined;
}

/** Closes an open task: matched to a payment, or dismissed with a note. */
export async function resolveTask(
  tx: Queryable,
  id: number,
  resolution: { status: 'matched' | 'dismissed'; paymentId: number | null; note: string | null },
  by: { id: number; full_name: string },
): Promise<void> {
  await tx.query(
    `UPDATE fee_match_tasks SET status = $2, payment_id = $3, note = $4, resolved_by = $5, resolved_by_name = $6,
            resolved_at = now()
      WHERE id = $1 AND status = 'open'`,
    [id, resolution.status, resolution.paymentId, resolution.note, by.id, by.full_name],
  );
}

export interface PromiseRow {
  family_id: number;
  promised_on: string;
  made_at: string;
  via: 'parent_app' | 'whatsapp';
}

/** Each family's furthest promise still running on `today` (it pauses the reminders), soonest first. */
export async function listPromises(db: Queryable, today: string): Promise<PromiseRow[]> {
  const rows = await db.query<PromiseRow>(
    `SELECT family_id, promised_on, made_at, via FROM (
       SELECT DISTINCT ON (family_id) family_id, to_char(promised_on, 'YYYY-MM-DD') AS promised_on,
              answered_at AS made_at, via
         FROM fee_reminder_answers
        WHERE promised_on >= $1::date
        ORDER BY family_id, promised_on DESC, answered_at DESC) latest
      ORDER BY promised_on, family_id`,
    [today],
  );
  return rows.map((row) => ({ ...row, family_id: Number(row.family_id) }));
}
