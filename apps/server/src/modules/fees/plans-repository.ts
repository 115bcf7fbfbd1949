import type { FeePlan, FeePlanKind } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { jsonTimestamp } from '../../db/database';

/** The plans' SQL (ADR 052). */

export interface PlanValues {
  name: string;
  kind: FeePlanKind;
  amount_paise: number;
  class_names: string[];
  student_ids: number[];
  due_day: number;
  late_fee_paise: number;
  sessions: number | null;
  instalments: { due_on: string; amount_paise: number }[];
}

const PLAN_COLUMNS = `p.id, p.name, p.kind, p.amount_paise, p.class_names, p.student_ids,
  p.due_day, p.late_fee_paise, p.sessions, p.instalments,
  p.archived_at IS NOT NULL AS archived, ${jsonTimestamp('p.archived_at')} AS archived_at,
  (SELECT count(*)::int FROM fee_charges c WHERE c.plan_id = p.id) AS charges`;

type PlanRow = FeePlan;

export async function listPlans(db: Queryable): Promise<FeePlan[]> {
  return db.query<PlanRow>(
    `SELECT ${PLAN_COLUMNS} FROM fee_plans p ORDER BY p.archived_at IS NOT NULL, lower(p.name), p.id`,
  );
}

/** One plan, or undefined; with `lock`, held FOR UPDATE to the end of the transaction. */
export async function findPlan(db: Queryable, id: number, lock = false): Promise<FeePlan | undefined> {
  if (lock) await db.query('SELECT id FROM fee_plans WHERE id = $1 FOR UPDATE', [id]);
  const [row] = await db.query<PlanRow>(`SELECT ${PLAN_COLUMNS} FROM fee_plans p WHERE p.id = $1`, [id]);
  return row;
}

/** Plan writes that check a name wait for each other, so two plans of one name at once are one 201 and one 409. */
export async function holdPlanNames(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [52_052_001]);
}

/** Another plan in use with this name (any case), if any. */
export async function planNamed(db: Queryable, name: string, except?: number): Promise<number | undefined> {
  const [row] = await db.query<{ id: number }>(
    'SELECT id FROM fee_plans WHERE lower(name) = lower($1) AND archived_at IS NULL AND id <> $2',
    [name, except ?? 0],
  );
  return row?.id;
}

/** A plan's values as the statements below take them, $1 to $8 (the kind, fixed at creation, is not among them). */
function planParams(values: PlanValues): unknown[] {
  return [
    values.name,
    values.amount_paise,
    values.class_names,
    values.student_ids,
    values.due_day,
    values.late_fee_paise,
    values.sessions,
    JSON.stringify(values.instalments),
  ];
}

export async function insertPlan(tx: Queryable, values: PlanValues): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO fee_plans (name, amount_paise, class_names, student_ids, due_day, late_fee_paise, sessions, instalments, kind)
     VALUES ($1, $2, $3::text[], $4::int[], $5, $6, $7, $8::jsonb, $9) RETURNING id`,
    [...planParams(values), values.kind],
  );
  return (row as { id: number }).id;
}

export async function updatePlan(tx: Queryable, id: number, values: PlanValues): Promise<void> {
  await tx.query(
    `UPDATE fee_plans
        SET name = $1, amount_paise = $2, class_names = $3::text[], student_ids = $4::int[], due_day = $5,
            late_fee_paise = $6, sessions = $7, instalments = $8::jsonb, updated_at = now()
      WHERE id = $9`,
    [...planParams(values), id],
  );
}

export async function setArchived(tx: Queryable, id: number, archived: boolean): Promise<void> {
  await tx.query(
    `UPDATE fee_plans SET archived_at = CASE WHEN $2 THEN coalesce(archived_at, now()) END, updated_at = now() WHERE id = $1`,
    [id, archived],
  );
}

export async function deletePlan(tx: Queryable, id: number): Promise<void> {
  await tx.query('DELETE FROM fee_plans WHERE id = $1', [id]);
}

/** The ids among `ids` that are no student's, held (FOR SHARE) so none is deleted under the change. */
export async function missingStudents(tx: Queryable, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = await tx.query<{ id: number }>('SELECT id FROM students WHERE id = ANY($1::int[]) FOR SHARE', [ids]);
  const known = new Set(found.map((row) => row.id));
  return ids.filter((id) => !known.has(id));
}

/** The names of the plans (archived too) that name this class: it cannot be deleted while any does. */
export async function plansNamingClass(db: Queryable, value: string): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    'SELECT name FROM fee_plans WHERE $1 = ANY (class_names) ORDER BY lower(name), id',
    [value],
  );
  return rows.map((row) => row.name);
}
