/**
 * The admin's side of "Paid already" (ADR 061): each claim is a task to match to the payment it was
 * (the family's payments of the last 60 days are offered, the one with the reference the family gave
 * first in mind), or to dismiss with a note. A task is resolved once: of two admins at once, one wins.
 * The promises that pause reminders are listed beside them.
 */
import type { FeeMatchTask, FeeMatchTasks, FeePromises } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { today } from '../../lib/time';
import { familiesDetails } from './fee-families';
import { familyBalance } from './ledger';
import {
  type CandidateRow,
  countOpenTasks,
  findPayment,
  findTask,
  listCandidates,
  listPromises,
  listTasks,
  lockTask,
  resolveTask,
  type TaskRow,
} from './match-tasks-repository';

/** A reference as the family and the counter may write it differently: case and spaces aside. */
function sameReference(a: string | null, b: string | null): boolean {
  const plain = (text: string) => text.replace(/\s+/g, '').toLowerCase();
  return a !== null && b !== null && plain(a) !== '' && plain(a) === plain(b);
}

async function balances(db: Queryable, familyIds: readonly number[]): Promise<Map<number, number>> {
  const distinct = [...new Set(familyIds)];
  const values = await Promise.all(distinct.map((id) => familyBalance(db, id)));
  return new Map(distinct.map((id, index) => [id, values[index] ?? 0]));
}

/** The tasks as the console shows them: who, what they gave, the balance now and the payments to choose from. */
async function withDetails(db: Queryable, rows: readonly TaskRow[]): Promise<FeeMatchTask[]> {
  const familyIds = rows.map((row) => row.family_id);
  const details = await familiesDetails(db, familyIds);
  const balance = await balances(db, familyIds);
  const candidates = await listCandidates(db, [...new Set(familyIds)], today());
  const byFamily = new Map<number, CandidateRow[]>();
  for (const candidate of candidates) {
    byFamily.set(candidate.family_id, [...(byFamily.get(candidate.family_id) ?? []), candidate]);
  }
  return rows.map((row) => {
    const family = details.get(row.family_id);
    return {
      ...row,
      parent_name: family?.parent_name ?? '',
      parent_phone: family?.parent_phone ?? '',
      students: family?.students ?? [],
      balance_paise: balance.get(row.family_id) ?? 0,
      candidates: (byFamily.get(row.family_id) ?? []).map(({ family_id: _family, ...candidate }) => ({
        ...candidate,
        same_reference: sameReference(candidate.reference, row.reference),
      })),
    };
  });
}

/** GET /fees/match-tasks?status=open|done. */
export async function getMatchTasks(db: Queryable, status: 'open' | 'done'): Promise<FeeMatchTasks> {
  const rows = await listTasks(db, status);
  return { tasks: await withDetails(db, rows), open_count: await countOpenTasks(db) };
}

async function taskAnswer(db: Queryable, id: number): Promise<FeeMatchTask> {
  const row = await findTask(db, id);
  if (!row) throw new NotFoundError('fees.match_task_not_found', { id });
  return (await withDetails(db, [row]))[0] as FeeMatchTask;
}

/** The task locked and still open: 404 for no such task, 409 when it was resolved already. */
async function openTask(tx: Queryable, id: number): Promise<{ family_id: number }> {
  const task = await lockTask(tx, id);
  if (!task) throw new NotFoundError('fees.match_task_not_found', { id });
  if (task.status !== 'open') throw new ConflictError('fees.match_task_closed', { status: task.status });
  return task;
}

async function familyWords(tx: Queryable, familyId: number): Promise<string> {
  const family = (await familiesDetails(tx, [familyId])).get(familyId);
  return family?.parent_name || family?.parent_phone || `#${familyId}`;
}

/** POST /fees/match-tasks/{id}/match: the claim was this payment of the family's (not a reversed one). */
export async function matchTask(ctx: AppContext, actor: Actor, id: number, paymentId: number): Promise<FeeMatchTask> {
  await ctx.db.transaction(async (tx) => {
    const task = await openTask(tx, id);
    const payment = await findPayment(tx, paymentId);
    if (!payment || payment.family_id !== task.family_id) {
      throw new ValidationError('payment_id', 'validation.payment_not_of_family', { id: paymentId });
    }
    if (payment.reversed) {
      throw new ValidationError('payment_id', 'validation.payment_reversed', { receipt: payment.receipt_number });
    }
    await resolveTask(tx, id, { status: 'matched', paymentId, note: null }, actor);
    await recordActivity(tx, actor, 'fees.match_task_matched', 'fees.match_task_matched', {
      family: await familyWords(tx, task.family_id),
      receipt: payment.receipt_number,
    });
  });
  return taskAnswer(ctx.db, id);
}

/** POST /fees/match-tasks/{id}/dismiss: no such payment was found; the note says why. */
export async function dismissTask(ctx: AppContext, actor: Actor, id: number, note: string): Promise<FeeMatchTask> {
  await ctx.db.transaction(async (tx) => {
    const task = await openTask(tx, id);
    await resolveTask(tx, id, { status: 'dismissed', paymentId: null, note }, actor);
    await recordActivity(tx, actor, 'fees.match_task_dismissed', 'fees.match_task_dismissed', {
      family: await familyWords(tx, task.family_id),
      note,
    });
  });
  return taskAnswer(ctx.db, id);
}

/** GET /fees/promises: the families whose promise pauses their reminders today, soonest first. */
export async function getPromises(db: Queryable): Promise<FeePromises> {
  const rows = await listPromises(db, today());
  const familyIds = rows.map((row) => row.family_id);
  const details = await familiesDetails(db, familyIds);
  const balance = await balances(db, familyIds);
  return {
    promises: rows.map((row) => ({
      ...row,
      parent_name: details.get(row.family_id)?.parent_name ?? '',
      parent_phone: details.get(row.family_id)?.parent_phone ?? '',
      balance_paise: balance.get(row.family_id) ?? 0,
    })),
  };
}
