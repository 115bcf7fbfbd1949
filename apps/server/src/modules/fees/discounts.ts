import type {
  FeeChargeSchedule,
  FeeChargeScheduleSettings,
  FeeDiscountMode,
  FeeDiscounts,
  UpdateFeeChargeScheduleRequest,
  UpdateFeeDiscountsRequest,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { defineSetting, settingGroup } from '../../db/settings';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { NotFoundError, ValidationError } from '../../lib/errors';
import { latestRun } from './charges-repository';
import { missingStudents } from './plans-repository';

/**
 * The discounts that come from the family link (ADR 052): a sibling discount for a family's second,
 * third… attending child and a staff-child discount for the students on the fees module's list,
 * both on tuition (monthly, per-day and package charges), the larger of the two when both apply.
 * And the automatic charge run's day and hour. All are settings rows (audited by the settings trigger).
 */

const MODES: readonly FeeDiscountMode[] = ['none', 'percent', 'flat'];
const mode = (key: string) =>
  defineSetting({ key, fallback: 'none', accept: (text) => MODES.find((m) => m === text.trim()) });
const amount = (key: string) => defineSetting({ key, fallback: 0, bounds: { min: 0, max: 1_000_000_000 } });

const DISCOUNT_SETTINGS = settingGroup<{
  sibling_mode: string;
  sibling_value: number;
  staff_mode: string;
  staff_value: number;
}>({
  sibling_mode: mode('fees_sibling_discount_mode'),
  sibling_value: amount('fees_sibling_discount_value'),
  staff_mode: mode('fees_staff_child_discount_mode'),
  staff_value: amount('fees_staff_child_discount_value'),
});

const SCHEDULE_SETTINGS = settingGroup<FeeChargeScheduleSettings>({
  automatic: defineSetting({ key: 'fees_charge_run_automatic', fallback: true }),
  day: defineSetting({ key: 'fees_charge_run_day', fallback: 1, bounds: { min: 1, max: 28 } }),
  hour: defineSetting({ key: 'fees_charge_run_hour', fallback: 6, bounds: { min: 0, max: 23 } }),
});

export async function readDiscounts(db: Queryable, lock?: 'update'): Promise<FeeDiscounts> {
  const values = await DISCOUNT_SETTINGS.read(db, lock);
  const staff = await db.query<{ student_id: number }>('SELECT student_id FROM fee_staff_children ORDER BY student_id');
  return {
    sibling: { mode: values.sibling_mode as FeeDiscountMode, value: values.sibling_value },
    staff_child: { mode: values.staff_mode as FeeDiscountMode, value: values.staff_value },
    staff_child_ids: staff.map((row) => row.student_id),
  };
}

export function getDiscounts(ctx: AppContext): Promise<FeeDiscounts> {
  return readDiscounts(ctx.db);
}

/** A rule's value fits its mode: 0 for none, 1–100 for a percent, at least 1 paisa for a flat sum. */
function checkRule(field: string, rule: FeeDiscounts['sibling']): FeeDiscounts['sibling'] {
  if (rule.mode === 'none') return { mode: 'none', value: 0 };
  if (rule.mode === 'percent' && (rule.value < 1 || rule.value > 100)) {
    throw new ValidationError(`${field}.value`, 'validation.too_big', { message: 'a percent must be from 1 to 100' });
  }
  if (rule.mode === 'flat' && rule.value < 1) {
    throw new ValidationError(`${field}.value`, 'validation.too_small', {
      message: 'a flat discount must be at least 1 paisa',
    });
  }
  return rule;
}

export async function updateDiscounts(
  ctx: AppContext,
  actor: Actor,
  update: UpdateFeeDiscountsRequest,
): Promise<FeeDiscounts> {
  return ctx.db.transaction(async (tx) => {
    const current = await readDiscounts(tx, 'update');
    const sibling = checkRule('sibling', update.sibling ?? current.sibling);
    const staff = checkRule('staff_child', update.staff_child ?? current.staff_child);
    await DISCOUNT_SETTINGS.write(tx, {
      sibling_mode: sibling.mode,
      sibling_value: sibling.value,
      staff_mode: staff.mode,
      staff_value: staff.value,
    });
    if (update.staff_child_ids) {
      const ids = [...new Set(update.staff_child_ids)];
      const [missing] = await missingStudents(tx, ids);
      if (missing !== undefined) throw new NotFoundError('student.not_found_by_id', { id: missing });
      await tx.query('DELETE FROM fee_staff_children WHERE NOT (student_id = ANY($1::int[]))', [ids]);
      await tx.query(
        `INSERT INTO fee_staff_children (student_id) SELECT unnest($1::int[]) ORDER BY 1 ON CONFLICT DO NOTHING`,
        [ids],
      );
    }
    await recordActivity(tx, actor, 'fees.discounts_updated', 'fees.discounts_updated', {});
    return readDiscounts(tx);
  });
}

export function readSchedule(db: Queryable, lock?: 'update'): Promise<FeeChargeScheduleSettings> {
  return SCHEDULE_SETTINGS.read(db, lock);
}

/** The schedule with the latest run, so an owner sees the automatic run happened (or did not). */
async function scheduleAnswer(db: Queryable): Promise<FeeChargeSchedule> {
  const [settings, last] = await Promise.all([readSchedule(db), latestRun(db)]);
  return { ...settings, last_run: last ?? null };
}

export function getSchedule(ctx: AppContext): Promise<FeeChargeSchedule> {
  return scheduleAnswer(ctx.db);
}

export async function updateSchedule(
  ctx: AppContext,
  actor: Actor,
  update: UpdateFeeChargeScheduleRequest,
): Promise<FeeChargeSchedule> {
  return ctx.db.transaction(async (tx) => {
    const current = await readSchedule(tx, 'update');
    const next = {
      automatic: update.automatic ?? current.automatic,
      day: update.day ?? current.day,
      hour: update.hour ?? current.hour,
    };
    await SCHEDULE_SETTINGS.write(tx, next);
    if (next.automatic) {
      await recordActivity(tx, actor, 'fees.schedule', 'fees.schedule_on', {
        day: next.day,
        hour: String(next.hour).padStart(2, '0'),
      });
    } else await recordActivity(tx, actor, 'fees.schedule', 'fees.schedule_off', {});
    return scheduleAnswer(tx);
  });
}
