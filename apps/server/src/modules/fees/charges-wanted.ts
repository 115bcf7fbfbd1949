import type { Queryable } from '../../db/database';
import { centreTimeZone, today as centreToday } from '../../lib/time';
import { dueOn, monthBounds, monthlyCharge, packagesStarted } from './charges-compute';
import {
  activePlans,
  attendedDays,
  type ChargedSoFar,
  planStudents,
  type RunPlan,
  type RunStudent,
  sessionsUsed,
} from './charges-repository';

/**
 * What each plan should have charged for a month, student by student and period by period (ADR 052):
 * the run compares it with what was charged and posts the difference.
 */

/** A charge wanted now for a period, against what was charged for it so far. */
export interface Wanted {
  plan: RunPlan;
  student: RunStudent;
  period: string;
  /** The whole amount the period should have charged, and the units it counts. */
  amount: number;
  units: number | null;
  rate: number;
  dueOn: string;
  /** Tuition has the family discounts; one-time charges (admission, books) do not. */
  discounted: boolean;
  /** Can later runs correct it (attendance or leaving changed after it was charged)? */
  correctable: boolean;
}

export function currentMonth(now: Date): string {
  return centreToday(now).slice(0, 7);
}

export function keyOf(wanted: Pick<Wanted, 'plan' | 'student' | 'period'>): string {
  return `${wanted.plan.id}:${wanted.student.id}:${wanted.period}`;
}

/** What each plan wants charged for `month`, student by student. */
export async function wantedCharges(tx: Queryable, month: string, now: Date, charged: Map<string, ChargedSoFar>) {
  const zone = centreTimeZone();
  const { first, last } = monthBounds(month);
  const plans = await activePlans(tx, zone);
  const students = await planStudents(
    tx,
    plans.map((plan) => plan.id),
    first,
    last,
    zone,
  );
  const byPlan = new Map<number, RunStudent[]>();
  for (const student of students) byPlan.set(student.plan_id, [...(byPlan.get(student.plan_id) ?? []), student]);
  // A per-day month is charged once it has ended: until then its attendance is still being marked.
  const monthEnded = month < currentMonth(now);
  const perDay = monthEnded
    ? await attendedDays(
        tx,
        students.filter((s) => plans.find((p) => p.id === s.plan_id)?.kind === 'per_day').map((s) => s.id),
        first,
        last,
      )
    : new Map<number, number>();

  const wanted: Wanted[] = [];
  for (const plan of plans) {
    const own = byPlan.get(plan.id) ?? [];
    const monthDue = dueOn(month, plan.due_day);
    if (plan.kind === 'monthly') {
      for (const student of own) {
        const rate = charged.get(keyOf({ plan, student, period: month }))?.rate_paise ?? plan.amount_paise;
        const charge = monthlyCharge(rate, month, student.joined_on, student.left_on);
        wanted.push({
          plan,
          student,
          period: month,
          amount: charge.amount,
          units: charge.days,
          rate,
          dueOn: monthDue,
          discounted: true,
          correctable: true,
        });
      }
    } else if (plan.kind === 'per_day' && monthEnded) {
      for (const student of own) {
        const rate = charged.get(keyOf({ plan, student, period: month }))?.rate_paise ?? plan.amount_paise;
        const days = perDay.get(student.id) ?? 0;
        wanted.push({
          plan,
          student,
          period: month,
          amount: rate * days,
          units: days,
          rate,
          dueOn: monthDue,
          discounted: true,
          correctable: true,
        });
      }
    } else if (plan.kind === 'one_time') {
      for (const student of own) {
        if (student.left_on !== null && student.left_on < first) continue;
        if (plan.instalments.length === 0) {
          wanted.push({
            plan,
            student,
            period: 'once',
            amount: plan.amount_paise,
            units: null,
            rate: plan.amount_paise,
            dueOn: monthDue,
            discounted: false,
            correctable: false,
          });
        }
        plan.instalments.forEach((part, index) => {
          if (part.due_on.slice(0, 7) > month) return;
          wanted.push({
            plan,
            student,
            period: `part-${index + 1}`,
            amount: part.amount_paise,
            units: null,
            rate: part.amount_paise,
            dueOn: part.due_on,
            discounted: false,
            correctable: false,
          });
        });
      }
    } else if (plan.kind === 'package' && plan.sessions !== null) {
      const sessions = plan.sessions;
      const current = own.filter((s) => s.left_on === null || s.left_on >= first);
      // Sessions count from the month of the student's first package of this plan (this month if none yet).
      const since = new Map<number, string>();
      for (const student of current) {
        const firstDue = charged.get(keyOf({ plan, student, period: 'package-1' }))?.first_due_on ?? monthDue;
        since.set(student.id, `${firstDue.slice(0, 7)}-01`);
      }
      const used = await sessionsUsed(tx, since, last);
      for (const student of current) {
        const started = packagesStarted(used.get(student.id) ?? 0, sessions);
        for (let n = 1; n <= started; n += 1) {
          wanted.push({
            plan,
            student,
            period: `package-${n}`,
            amount: plan.amount_paise,
            units: sessions,
            rate: plan.amount_paise,
            dueOn: monthDue,
            discounted: true,
            correctable: false,
          });
        }
      }
    }
  }
  return wanted;
}
