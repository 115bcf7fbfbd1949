import type { CreateFeePlanRequest, FeePlan, UpdateFeePlanRequest } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { requireClasses } from '../classes';
import {
  deletePlan,
  findPlan,
  holdPlanNames,
  insertPlan,
  listPlans,
  missingStudents,
  type PlanValues,
  planNamed,
  setArchived,
  updatePlan,
} from './plans-repository';

/**
 * Fee plans (ADR 052): what is charged, of which kind, to the students of which classes and to which
 * students by name. A plan that charged something is archived, never deleted, so every charge keeps
 * the plan it came from.
 */

export function getPlans(ctx: AppContext): Promise<FeePlan[]> {
  return listPlans(ctx.db);
}

async function requirePlan(db: Queryable, id: number, lock = false): Promise<FeePlan> {
  const plan = await findPlan(db, id, lock);
  if (!plan) throw new NotFoundError('fees.plan_not_found', { id });
  return plan;
}

/**
 * The plan's values checked against the kind and the centre's records: its classes among the
 * centre's (held for the transaction), its students existing (404 naming the first unknown), a
 * package with its sessions, instalments only on a one-time plan and summing to its amount.
 */
async function checkedValues(tx: Queryable, values: PlanValues, own?: number): Promise<PlanValues> {
  await holdPlanNames(tx);
  if (await planNamed(tx, values.name, own)) throw new ConflictError('fees.plan_name_taken', { name: values.name });
  const classNames = await requireClasses(tx, 'class_names', values.class_names);
  const studentIds = [...new Set(values.student_ids)];
  const [missing] = await missingStudents(tx, studentIds);
  if (missing !== undefined) throw new NotFoundError('student.not_found_by_id', { id: missing });
  if (values.kind === 'package' && values.sessions === null) {
    throw new ValidationError('sessions', 'validation.fee_sessions_needed');
  }
  if (values.kind !== 'package' && values.sessions !== null) {
    throw new ValidationError('sessions', 'validation.fee_only_for_kind', { kind: 'package' });
  }
  if (values.kind !== 'one_time' && values.instalments.length > 0) {
    throw new ValidationError('instalments', 'validation.fee_only_for_kind', { kind: 'one_time' });
  }
  if (values.instalments.length > 0) {
    const sum = values.instalments.reduce((total, part) => total + part.amount_paise, 0);
    if (sum !== values.amount_paise) {
      throw new ValidationError('instalments', 'validation.fee_instalments_sum', { sum, amount: values.amount_paise });
    }
  }
  const instalments = [...values.instalments].sort((a, b) => a.due_on.localeCompare(b.due_on));
  return { ...values, class_names: classNames, student_ids: studentIds.sort((a, b) => a - b), instalments };
}

export async function createPlan(ctx: AppContext, actor: Actor, request: CreateFeePlanRequest): Promise<FeePlan> {
  return ctx.db.transaction(async (tx) => {
    const values = await checkedValues(tx, {
      name: request.name.trim(),
      kind: request.kind,
      amount_paise: request.amount_paise,
      class_names: request.class_names ?? [],
      student_ids: request.student_ids ?? [],
      due_day: request.due_day ?? 10,
      late_fee_paise: request.late_fee_paise ?? 0,
      sessions: request.sessions ?? null,
      instalments: request.instalments ?? [],
    });
    const id = await insertPlan(tx, values);
    await recordActivity(tx, actor, 'fees.plan_created', 'fees.plan_created', { name: values.name });
    return requirePlan(tx, id);
  });
}

export async function editPlan(
  ctx: AppContext,
  actor: Actor,
  id: number,
  request: UpdateFeePlanRequest,
): Promise<FeePlan> {
  return ctx.db.transaction(async (tx) => {
    const plan = await requirePlan(tx, id, true);
    const values = await checkedValues(
      tx,
      {
        name: request.name?.trim() ?? plan.name,
        kind: plan.kind,
        amount_paise: request.amount_paise ?? plan.amount_paise,
        class_names: request.class_names ?? plan.class_names,
        student_ids: request.student_ids ?? plan.student_ids,
        due_day: request.due_day ?? plan.due_day,
        late_fee_paise: request.late_fee_paise ?? plan.late_fee_paise,
        sessions: request.sessions === undefined ? plan.sessions : request.sessions,
        instalments: request.instalments ?? plan.instalments,
      },
      id,
    );
    await updatePlan(tx, id, values);
    await recordActivity(tx, actor, 'fees.plan_updated', 'fees.plan_updated', { name: values.name });
    return requirePlan(tx, id);
  });
}

export async function archivePlan(ctx: AppContext, actor: Actor, id: number, archived: boolean): Promise<FeePlan> {
  return ctx.db.transaction(async (tx) => {
    const plan = await requirePlan(tx, id, true);
    if (plan.archived === archived) return plan;
    // Two plans in use may not share a name: one unarchived must not take a name used since.
    if (!archived) await holdPlanNames(tx);
    if (!archived && (await planNamed(tx, plan.name, id))) {
      throw new ConflictError('fees.plan_name_taken', { name: plan.name });
    }
    await setArchived(tx, id, archived);
    const action = archived ? 'fees.plan_archived' : 'fees.plan_unarchived';
    await recordActivity(tx, actor, action, action, { name: plan.name });
    return requirePlan(tx, id);
  });
}

/** Deletes a plan that never charged anything; one that did is refused (409): archive it instead. */
export async function removePlan(ctx: AppContext, actor: Actor, id: number): Promise<{ message: string }> {
  return ctx.db.transaction(async (tx) => {
    const plan = await requirePlan(tx, id, true);
    if (plan.charges > 0) {
      throw new ConflictError('fees.plan_has_charges', { name: plan.name, count: plan.charges });
    }
    await deletePlan(tx, id);
    await recordActivity(tx, actor, 'fees.plan_deleted', 'fees.plan_deleted', { name: plan.name });
    return { message: `Fee plan ${plan.name} deleted` };
  });
}
