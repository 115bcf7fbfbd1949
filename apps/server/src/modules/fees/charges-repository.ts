import type { Queryable } from '../../db/database';
import type { PlanValues } from './plans-repository';

/** The charge run's SQL (ADR 052). */

/** Runs wait for each other: one at a time, so a second finds the first's charges and adds nothing. */
const CHARGE_RUN_LOCK = 52_052_052;

export async function holdChargeRun(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [CHARGE_RUN_LOCK]);
}

/** A plan as the run reads it: its values as the plans store them, with its id and the day it was made. */
export interface RunPlan extends PlanValues {
  id: number;
  created_on: string;
}

/** The plans in use, held (FOR SHARE) so that none is deleted or changed under the run. */
export async function activePlans(tx: Queryable, zone: string): Promise<RunPlan[]> {
  return tx.query<RunPlan>(
    `SELECT id, name, kind, amount_paise, class_names, student_ids, due_day, late_fee_paise, sessions, instalments,
            to_char((created_at AT TIME ZONE $1)::date, 'YYYY-MM-DD') AS created_on
       FROM fee_plans WHERE archived_at IS NULL ORDER BY id FOR SHARE`,
    [zone],
  );
}

export interface RunStudent {
  id: number;
  plan_id: number;
  parent_phone: string;
  joined_on: string;
  left_on: string | null;
  /** 1 for the family's first child with the centre that month (by when they joined), 2 for the second… */
  family_rank: number;
  is_staff_child: boolean;
}

/**
 * The students each plan charges for the month from `first` to `last`: those of its classes and those
 * it names who had joined by its end and still have a family (a scrubbed student has no phone and
 * nothing more to pay), with their place among their family's children there that month. Those who
 * left before it are listed too: a month charged before they left is corrected to nothing.
 */
export async function planStudents(
  tx: Queryable,
  planIds: readonly number[],
  first: string,
  last: string,
  zone: string,
): Promise<RunStudent[]> {
  return tx.query<RunStudent>(
    `WITH everyone AS (
       SELECT s.id, s.class_name, s.parent_phone, s.left_on, s.created_at,
              to_char((s.created_at AT TIME ZONE $4)::date, 'YYYY-MM-DD') AS joined_on,
              (s.left_on IS NULL OR s.left_on >= $2::date) AS present
         FROM students s
        WHERE s.scrubbed_at IS NULL AND s.parent_phone <> '' AND (s.created_at AT TIME ZONE $4)::date <= $3::date
     ), ranked AS (
       SELECT e.*,
              (count(*) FILTER (WHERE e.present)
                 OVER (PARTITION BY e.parent_phone ORDER BY e.created_at, e.id ROWS UNBOUNDED PRECEDING))::int AS family_rank
         FROM everyone e
     )
     SELECT st.id, p.id AS plan_id, st.parent_phone, st.joined_on,
            to_char(st.left_on, 'YYYY-MM-DD') AS left_on, st.family_rank,
            EXISTS (SELECT 1 FROM fee_staff_children c WHERE c.student_id = st.id) AS is_staff_child
       FROM fee_plans p JOIN ranked st ON st.class_name = ANY(p.class_names) OR st.id = ANY(p.student_ids)
      WHERE p.id = ANY($1::int[])
      ORDER BY p.id, st.id`,
    [planIds, first, last, zone],
  );
}

/**
 * Days attended, student by student, from `from` to `to`: approved marks of present or late, never a
 * day inside the student's approved leave (whatever the mark says).
 */
export async function attendedDays(
  tx: Queryable,
  studentIds: readonly number[],
  from: string,
  to: string,
): Promise<Map<number, number>> {
  if (studentIds.length === 0) return new Map();
  const rows = await tx.query<{ student_id: number; days: number }>(
    `SELECT a.student_id, count(*)::int AS days
       FROM attendance a
      WHERE a.student_id = ANY($1::int[]) AND a.date BETWEEN $2::date AND $3::date
        AND a.approved_at IS NOT NULL AND a.status IN ('present', 'late')
        AND NOT EXISTS (SELECT 1 FROM leave_requests l
                         WHERE l.student_id = a.student_id AND l.status = 'approved'
                           AND a.date BETWEEN l.from_date AND l.to_date)
      GROUP BY a.student_id`,
    [studentIds, from, to],
  );
  return new Map(rows.map((row) => [row.student_id, row.days]));
}

/** What was charged so far for one plan, student and period: its revisions added up. */
export interface ChargedSoFar {
  plan_id: number;
  student_id: number;
  period: string;
  revisions: number;
  rate_paise: number;
  amount_paise: number;
  discount_paise: number;
  first_due_on: string;
}

export async function chargedSoFar(tx: Queryable, planIds: readonly number[]): Promise<ChargedSoFar[]> {
  return tx.query<ChargedSoFar>(
    `SELECT plan_id, student_id, period, count(*)::int AS revisions,
            (array_agg(rate_paise ORDER BY revision))[1] AS rate_paise,
            sum(amount_paise)::bigint AS amount_paise, sum(discount_paise)::bigint AS discount_paise,
            to_char(min(due_on), 'YYYY-MM-DD') AS first_due_on
       FROM fee_charges WHERE plan_id = ANY($1::int[])
      GROUP BY plan_id, student_id, period`,
    [planIds],
  );
}

export interface NewChargeRow {
  plan_id: number;
  student_id: number;
  family_id: number;
  period: string;
  revision: number;
  units: number | null;
  rate_paise: number;
  amount_paise: number;
  discount_paise: number;
  due_on: string;
  transaction_id: number | null;
  discount_transaction_id: number | null;
  run_id: number | null;
}

/** The charges a run raised, in one statement (a row that is there already stays as it was). */
export async function insertCharges(tx: Queryable, rows: readonly NewChargeRow[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <K extends keyof NewChargeRow>(key: K) => rows.map((row) => row[key]);
  await tx.query(
    `INSERT INTO fee_charges (plan_id, student_id, family_id, period, revision, units, rate_paise, amount_paise,
                              discount_paise, due_on, transaction_id, discount_transaction_id, run_id)
     SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::int[], $6::int[], $7::bigint[], $8::bigint[],
                          $9::bigint[], $10::date[], $11::bigint[], $12::bigint[], $13::int[])
     ON CONFLICT (plan_id, student_id, period, revision) DO NOTHING`,
    [
      column('plan_id'),
      column('student_id'),
      column('family_id'),
      column('period'),
      column('revision'),
      column('units'),
      column('rate_paise'),
      column('amount_paise'),
      column('discount_paise'),
      column('due_on'),
      column('transaction_id'),
      column('discount_transaction_id'),
      column('run_id'),
    ],
  );
}

export interface LateCandidate {
  charge_id: number;
  plan_id: number;
  plan_name: string;
  student_id: number;
  family_id: number;
  period: string;
  transaction_id: number;
  late_fee_paise: number;
}

/** First charges past their due day, of plans with a late fee, that have no late fee yet. */
export async function lateCandidates(tx: Queryable, today: string): Promise<LateCandidate[]> {
  return tx.query<LateCandidate>(
    `SELECT c.id AS charge_id, c.plan_id, p.name AS plan_name, c.student_id, c.family_id, c.period,
            c.transaction_id, p.late_fee_paise
       FROM fee_charges c JOIN fee_plans p ON p.id = c.plan_id
      WHERE p.late_fee_paise > 0 AND c.revision = 0 AND c.amount_paise > 0 AND c.transaction_id IS NOT NULL
        AND c.due_on < $1::date
        AND NOT EXISTS (SELECT 1 FROM fee_late_fees f WHERE f.charge_id = c.id)
      ORDER BY c.id`,
    [today],
  );
}

/** The late fees a run posted: the charge each is for, its amount and its ledger transaction. */
export async function insertLateFees(
  tx: Queryable,
  rows: readonly { chargeId: number; amount: number; transactionId: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO fee_late_fees (charge_id, amount_paise, transaction_id)
     SELECT * FROM unnest($1::int[], $2::bigint[], $3::bigint[]) ON CONFLICT (charge_id) DO NOTHING`,
    [rows.map((row) => row.chargeId), rows.map((row) => row.amount), rows.map((row) => row.transactionId)],
  );
}

export async function insertRun(
  tx: Queryable,
  run: { month: string; automatic: boolean; runOn: string; ranBy: number | null },
): Promise<number | undefined> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO fee_charge_runs (month, automatic, run_on, ran_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (run_on) WHERE automatic DO NOTHING RETURNING id`,
    [run.month, run.automatic, run.runOn, run.ranBy],
  );
  return row?.id;
}

export async function recordRunCount(tx: Queryable, runId: number, created: number): Promise<void> {
  await tx.query('UPDATE fee_charge_runs SET created = created + $2 WHERE id = $1', [runId, created]);
}

/** The latest charge run, by hand or automatic (a run claimed by another instance still running included). */
export async function latestRun(
  db: Queryable,
): Promise<{ month: string; automatic: boolean; at: string; created: number } | undefined> {
  const [row] = await db.query<{ month: string; automatic: boolean; at: Date | string; created: number }>(
    'SELECT month, automatic, created_at AS at, created FROM fee_charge_runs ORDER BY created_at DESC, id DESC LIMIT 1',
  );
  if (!row) return undefined;
  return {
    month: row.month,
    automatic: row.automatic,
    at: new Date(row.at).toISOString(),
    created: Number(row.created),
  };
}

/** Has the automatic run of `day` been claimed already (by this instance or another)? */
export async function automaticRunClaimed(db: Queryable, day: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM fee_charge_runs WHERE automatic AND run_on = $1::date', [day]);
  return rows.length > 0;
}

/** Sessions used, per student, of package plans: from `since` (per student) to `to`. */
export async function sessionsUsed(
  tx: Queryable,
  since: ReadonlyMap<number, string>,
  to: string,
): Promise<Map<number, number>> {
  if (since.size === 0) return new Map();
  const rows = await tx.query<{ student_id: number; days: number }>(
    `SELECT a.student_id, count(*)::int AS days
       FROM unnest($1::int[], $2::date[]) AS f (student_id, since)
       JOIN attendance a ON a.student_id = f.student_id AND a.date BETWEEN f.since AND $3::date
      WHERE a.approved_at IS NOT NULL AND a.status IN ('present', 'late')
        AND NOT EXISTS (SELECT 1 FROM leave_requests l
                         WHERE l.student_id = a.student_id AND l.status = 'approved'
                           AND a.date BETWEEN l.from_date AND l.to_date)
      GROUP BY a.student_id`,
    [[...since.keys()], [...since.values()], to],
  );
  return new Map(rows.map((row) => [row.student_id, row.days]));
}
