import type { FeeChargeRunResult, FeeDiscounts } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type ActivityActor, recordActivity } from '../../lib/activity-log';
import { ValidationError } from '../../lib/errors';
import { today as centreToday } from '../../lib/time';
import { shiftMonth, tuitionDiscount } from './charges-compute';
import {
  type ChargedSoFar,
  chargedSoFar,
  holdChargeRun,
  insertCharges,
  insertLateFees,
  insertRun,
  lateCandidates,
  recordRunCount,
} from './charges-repository';
import { currentMonth, keyOf, type Wanted, wantedCharges } from './charges-wanted';
import { readDiscounts, readSchedule } from './discounts';
import { familiesForPhones, type NewTransaction, openCharges, postTransactions } from './ledger';

/**
 * The charge run (ADR 052): for a month, every plan in use charges its students what is due, and
 * only what was not charged yet. Each (plan, student, period) is charged once; a period whose amount
 * depends on what changes later (a per-day month's approved attendance, a monthly plan's days after a
 * student leaves) gets one correction per run that finds it different, holding exactly the
 * difference, so any number of runs, one after another or at once, leave the right total.
 */

const SCHEDULER: ActivityActor = { id: null, full_name: 'System' };

/** A month is one that may be charged: yyyy-MM (the schema's), at most the month after this one. */
export function checkRunMonth(month: string, now: Date): void {
  const last = shiftMonth(currentMonth(now), 1);
  if (month > last) throw new ValidationError('month', 'validation.fee_month_too_far', { last });
}

interface RunContext {
  tx: Queryable;
  today: string;
  runId: number | null;
  createdBy: number | null;
  discounts: FeeDiscounts;
}

/** A period's next revision: the difference of its amount and of its discount, when there is one. */
interface Difference {
  wanted: Wanted;
  revision: number;
  delta: number;
  discountDelta: number;
}

function differenceOf(run: RunContext, wanted: Wanted, before: ChargedSoFar | undefined): Difference | undefined {
  if (before && !wanted.correctable) return undefined;
  const delta = wanted.amount - (before?.amount_paise ?? 0);
  if (delta === 0) return undefined;
  const discountTotal = wanted.discounted
    ? tuitionDiscount(wanted.amount, {
        isStaffChild: wanted.student.is_staff_child,
        isLaterSibling: wanted.student.family_rank > 1,
        sibling: run.discounts.sibling,
        staffChild: run.discounts.staff_child,
      })
    : 0;
  return {
    wanted,
    revision: before?.revisions ?? 0,
    delta,
    discountDelta: discountTotal - (before?.discount_paise ?? 0),
  };
}

/** The ledger transactions of a difference: its charge (or correction), and its discount if any. */
function transactionsOf(run: RunContext, difference: Difference, familyId: number): NewTransaction[] {
  const { wanted, revision, delta, discountDelta } = difference;
  const { plan, student, period } = wanted;
  const key = `${plan.id}:${student.id}:${period}:${revision}`;
  const what = `${plan.name}, ${period.replace(/^part-/, 'part ').replace(/^package-/, 'package ')}`;
  const common = { familyId, occurredOn: run.today, dueOn: wanted.dueOn, createdBy: run.createdBy };
  const transactions: NewTransaction[] = [
    {
      ...common,
      idempotencyKey: `charge:${key}`,
      kind: revision === 0 ? 'charge' : 'correction',
      description: revision === 0 ? what : `${what}: correction`,
      postings: [
        { account: 'receivable', amountPaise: delta, studentId: student.id },
        { account: 'tuition_income', amountPaise: -delta },
      ],
    },
  ];
  if (discountDelta !== 0) {
    const staff = student.is_staff_child && run.discounts.staff_child.mode !== 'none';
    transactions.push({
      ...common,
      idempotencyKey: `discount:${key}`,
      kind: 'discount',
      description: `${what}: ${staff ? 'staff child' : 'sibling'} discount`,
      postings: [
        { account: 'discounts', amountPaise: discountDelta },
        { account: 'receivable', amountPaise: -discountDelta, studentId: student.id },
      ],
    });
  }
  return transactions;
}

/** Posts every difference, its discount and its row in fee_charges; answers how many transactions were posted now. */
async function postDifferences(run: RunContext, differences: Difference[]): Promise<number> {
  if (differences.length === 0) return 0;
  const families = await familiesForPhones(
    run.tx,
    differences.map((d) => d.wanted.student.parent_phone),
  );
  const familyOf = (d: Difference) => families.get(d.wanted.student.parent_phone) as number;
  const posted = await postTransactions(
    run.tx,
    differences.flatMap((d) => transactionsOf(run, d, familyOf(d))),
  );
  await insertCharges(
    run.tx,
    differences.map((d) => {
      const key = `${d.wanted.plan.id}:${d.wanted.student.id}:${d.wanted.period}:${d.revision}`;
      return {
        plan_id: d.wanted.plan.id,
        student_id: d.wanted.student.id,
        family_id: familyOf(d),
        period: d.wanted.period,
        revision: d.revision,
        units: d.wanted.units,
        rate_paise: d.wanted.rate,
        amount_paise: d.delta,
        discount_paise: d.discountDelta,
        due_on: d.wanted.dueOn,
        transaction_id: posted.get(`charge:${key}`)?.id ?? null,
        discount_transaction_id: posted.get(`discount:${key}`)?.id ?? null,
        run_id: run.runId,
      };
    }),
  );
  return [...posted.values()].filter((p) => p.created).length;
}

/** A late fee on each first charge past its due day that is still (partly) unpaid, once. */
async function postLateFees(run: RunContext): Promise<number> {
  const candidates = await lateCandidates(run.tx, run.today);
  if (candidates.length === 0) return 0;
  const open = new Set(
    (await openCharges(run.tx, [...new Set(candidates.map((c) => c.family_id))])).map((c) => c.transactionId),
  );
  const due = candidates.filter((candidate) => open.has(Number(candidate.transaction_id)));
  const posted = await postTransactions(
    run.tx,
    due.map((candidate) => ({
      idempotencyKey: `late_fee:${candidate.charge_id}`,
      kind: 'late_fee',
      familyId: candidate.family_id,
      occurredOn: run.today,
      dueOn: run.today,
      description: `${candidate.plan_name}, ${candidate.period}: late fee`,
      createdBy: run.createdBy,
      postings: [
        { account: 'receivable', amountPaise: candidate.late_fee_paise, studentId: candidate.student_id },
        { account: 'late_fee_income', amountPaise: -candidate.late_fee_paise },
      ],
    })),
  );
  await insertLateFees(
    run.tx,
    due.map((candidate) => ({
      chargeId: candidate.charge_id,
      amount: candidate.late_fee_paise,
      transactionId: posted.get(`late_fee:${candidate.charge_id}`)?.id as number,
    })),
  );
  return [...posted.values()].filter((p) => p.created).length;
}

/**
 * Raises `month`'s charges in `tx` (which the caller commits): each plan's, their discounts, the
 * corrections of periods charged before, and the late fees due today. Answers how many ledger
 * transactions it posted.
 */
export async function raiseCharges(
  tx: Queryable,
  month: string,
  now: Date,
  runId: number | null,
  createdBy: number | null,
): Promise<number> {
  await holdChargeRun(tx);
  const plansCharged = await chargedSoFar(
    tx,
    (await tx.query<{ id: number }>('SELECT id FROM fee_plans WHERE archived_at IS NULL')).map((row) => row.id),
  );
  const charged = new Map(plansCharged.map((row) => [`${row.plan_id}:${row.student_id}:${row.period}`, row]));
  const run: RunContext = { tx, today: centreToday(now), runId, createdBy, discounts: await readDiscounts(tx) };
  const differences = (await wantedCharges(tx, month, now, charged)).flatMap(
    (wanted) => differenceOf(run, wanted, charged.get(keyOf(wanted))) ?? [],
  );
  let created = await postDifferences(run, differences);
  created += await postLateFees(run);
  if (runId !== null) await recordRunCount(tx, runId, created);
  return created;
}

/** POST /fees/charges/run: an admin runs a month by hand. */
export async function runChargesByHand(
  ctx: AppContext,
  actor: { id: number; full_name: string },
  month: string,
  now: Date = new Date(),
): Promise<FeeChargeRunResult> {
  checkRunMonth(month, now);
  return ctx.db.transaction(async (tx) => {
    const runId = await insertRun(tx, { month, automatic: false, runOn: centreToday(now), ranBy: actor.id });
    const created = await raiseCharges(tx, month, now, runId ?? null, actor.id);
    await recordActivity(tx, actor, 'fees.charges_run', 'fees.charges_run', { month, count: created });
    return { created };
  });
}

/**
 * The automatic run of `now`'s day, claimed by one instance once a day: the month before (a per-day
 * month is charged once it ended; corrections) and, from the set day on, this month. Answers what it
 * posted, or undefined when the day was claimed already.
 */
export async function runChargesAutomatically(ctx: { db: AppContext['db'] }, now: Date): Promise<number | undefined> {
  const month = currentMonth(now);
  const today = centreToday(now);
  return ctx.db.transaction(async (tx) => {
    const runId = await insertRun(tx, { month, automatic: true, runOn: today, ranBy: null });
    if (runId === undefined) return undefined;
    let created = await raiseCharges(tx, shiftMonth(month, -1), now, runId, null);
    const schedule = await readSchedule(tx);
    if (Number(today.slice(8, 10)) >= schedule.day) created += await raiseCharges(tx, month, now, runId, null);
    if (created > 0) {
      await recordActivity(tx, SCHEDULER, 'fees.charges_run', 'fees.charges_run_automatic', { month, count: created });
    }
    return created;
  });
}
