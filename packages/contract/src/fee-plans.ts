import { z } from 'zod';
import { isoDateSchema, requiredText, rowIdSchema } from './common';

/**
 * Fee plans, discounts and the monthly charge run (issue 29, ADR 052). Money is integer paise: a
 * positive safe integer, at most ₹1 crore (10^9 paise) for any one amount.
 */

export const FEE_PLAN_KINDS = ['monthly', 'per_day', 'package', 'one_time'] as const;
export type FeePlanKind = (typeof FEE_PLAN_KINDS)[number];

/** The most any one amount may be: ₹1 crore. */
export const FEE_PLAN_MAX_PAISE = 1_000_000_000;

function paiseSchema(what: string) {
  return z
    .number({ error: `must be ${what} in paise, a whole number (₹12.50 is 1250)` })
    .int('must be a whole number of paise (₹12.50 is 1250)')
    .positive('must be more than 0')
    .max(FEE_PLAN_MAX_PAISE, 'must be at most 1000000000 paise (₹1 crore)');
}

const instalmentSchema = z.object({
  due_on: isoDateSchema.describe(
    'when this part falls due (yyyy-MM-dd); the first run on or after its month charges it',
  ),
  amount_paise: paiseSchema('the amount of this part'),
});

const planFields = {
  name: requiredText(80),
  kind: z.enum(FEE_PLAN_KINDS, { error: 'must be monthly, per_day, package or one_time' }),
  amount_paise: paiseSchema('the amount').describe(
    'monthly: a month; per_day: an approved attended day; package: the package of `sessions`; one_time: the whole',
  ),
  class_names: z
    .array(z.string({ error: 'must be a class' }), { error: 'must be a list of classes' })
    .max(200, 'must list at most 200 classes')
    .describe("the centre's classes whose students the plan charges"),
  student_ids: z
    .array(rowIdSchema('must be a student id'), { error: 'must be a list of student ids' })
    .max(5000, 'must list at most 5000 students')
    .describe('students the plan charges, beside those of its classes'),
  due_day: z
    .number({ error: 'must be a day of the month from 1 to 28' })
    .int('must be a day of the month from 1 to 28')
    .min(1, 'must be a day of the month from 1 to 28')
    .max(28, 'must be a day of the month from 1 to 28')
    .describe('the day of the charged month its charges fall due (10 when left out)'),
  late_fee_paise: z
    .number({ error: 'must be a whole number of paise, 0 for none' })
    .int('must be a whole number of paise, 0 for none')
    .min(0, 'must be 0 or more')
    .max(FEE_PLAN_MAX_PAISE, 'must be at most 1000000000 paise (₹1 crore)')
    .describe('charged once on a charge still unpaid after its due day (0: none)'),
  sessions: z
    .number({ error: 'must be a whole number of sessions' })
    .int('must be a whole number of sessions')
    .min(1, 'must be at least 1')
    .max(1000, 'must be at most 1000')
    .nullable()
    .describe('package only: how many attended sessions one package covers'),
  instalments: z
    .array(instalmentSchema, { error: 'must be a list of parts' })
    .max(24, 'must have at most 24 parts')
    .describe('one_time only: the parts it is paid in, summing to amount_paise (none: one charge)'),
};

/** POST /fees/plans. */
export const createFeePlanSchema = z.object({
  ...planFields,
  class_names: planFields.class_names.optional(),
  student_ids: planFields.student_ids.optional(),
  due_day: planFields.due_day.optional(),
  late_fee_paise: planFields.late_fee_paise.optional(),
  sessions: planFields.sessions.optional(),
  instalments: planFields.instalments.optional(),
});
export type CreateFeePlanRequest = z.input<typeof createFeePlanSchema>;

/** PUT /fees/plans/{id}: any of the fields; its kind stays (make a new plan for another kind). */
export const updateFeePlanSchema = z.object({
  name: planFields.name.optional(),
  amount_paise: planFields.amount_paise.optional(),
  class_names: planFields.class_names.optional(),
  student_ids: planFields.student_ids.optional(),
  due_day: planFields.due_day.optional(),
  late_fee_paise: planFields.late_fee_paise.optional(),
  sessions: planFields.sessions.optional(),
  instalments: planFields.instalments.optional(),
});
export type UpdateFeePlanRequest = z.input<typeof updateFeePlanSchema>;

export const feePlanSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    kind: z.enum(FEE_PLAN_KINDS),
    amount_paise: z.number().int(),
    class_names: z.array(z.string()),
    student_ids: z.array(z.number().int()),
    due_day: z.number().int(),
    late_fee_paise: z.number().int(),
    sessions: z.number().int().nullable(),
    instalments: z.array(z.object({ due_on: z.string(), amount_paise: z.number().int() })),
    archived: z.boolean().describe('archived plans charge nothing more; their charges stay'),
    archived_at: z.string().nullable(),
    charges: z.number().int().describe('charges it has raised: a plan with any is archived, never deleted'),
  })
  .meta({ id: 'FeePlan' });
export type FeePlan = z.infer<typeof feePlanSchema>;
export const feePlanListSchema = z.array(feePlanSchema);

export const FEE_DISCOUNT_MODES = ['none', 'percent', 'flat'] as const;
export type FeeDiscountMode = (typeof FEE_DISCOUNT_MODES)[number];

const discountRuleSchema = z.object({
  mode: z.enum(FEE_DISCOUNT_MODES, { error: 'must be none, percent or flat' }),
  value: z
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(FEE_PLAN_MAX_PAISE, 'must be at most 1000000000')
    .describe('percent: 1 to 100; flat: paise off each charge; none: 0'),
});

/** GET /fees/discounts: the family-link discounts on tuition (monthly, per-day and package charges). */
export const feeDiscountsSchema = z
  .object({
    sibling: discountRuleSchema.describe(
      "off each tuition charge of a family's second, third… attending child (by when they joined)",
    ),
    staff_child: discountRuleSchema.describe('off each tuition charge of the students listed in staff_child_ids'),
    staff_child_ids: z.array(z.number().int()).describe("students who are children of the centre's staff"),
  })
  .meta({ id: 'FeeDiscounts' });
export type FeeDiscounts = z.infer<typeof feeDiscountsSchema>;

/** PUT /fees/discounts: any of the three; what is left out stays. */
export const updateFeeDiscountsSchema = z.object({
  sibling: discountRuleSchema.optional(),
  staff_child: discountRuleSchema.optional(),
  staff_child_ids: z
    .array(rowIdSchema('must be a student id'), { error: 'must be a list of student ids' })
    .max(5000, 'must list at most 5000 students')
    .optional(),
});
export type UpdateFeeDiscountsRequest = z.input<typeof updateFeeDiscountsSchema>;

/** A month, yyyy-MM. */
export const feeMonthSchema = z
  .string({ error: 'must be a month written yyyy-MM' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month written yyyy-MM, e.g. 2026-11')
  .meta({ example: '2026-11' });

/** POST /fees/charges/run. */
export const feeChargeRunSchema = z.object({ month: feeMonthSchema });
export type FeeChargeRunRequest = z.input<typeof feeChargeRunSchema>;

export const feeChargeRunResultSchema = z
  .object({
    created: z
      .number()
      .int()
      .describe('charges, corrections, discounts and late fees this run posted (0 when run again)'),
  })
  .meta({ id: 'FeeChargeRunResult' });
export type FeeChargeRunResult = z.infer<typeof feeChargeRunResultSchema>;

/** GET/PUT /fees/charges/schedule: the automatic run, in the centre's time zone. */
export const feeChargeScheduleSettingsSchema = z
  .object({
    automatic: z.boolean().describe('the run happens by itself each day from `day` at `hour`'),
    day: z.number().int().describe("from this day of each month (1–28) the month's charges are raised"),
    hour: z.number().int().describe("the hour of the day (0–23, the centre's time zone)"),
  })
  .meta({ id: 'FeeChargeScheduleSettings' });
export type FeeChargeScheduleSettings = z.infer<typeof feeChargeScheduleSettingsSchema>;

/** The schedule as GET and PUT /fees/charges/schedule answer it: the settings and the last run. */
export const feeChargeScheduleSchema = feeChargeScheduleSettingsSchema
  .extend({
    last_run: z
      .object({
        month: z.string().describe('the month (yyyy-MM) the run charged'),
        automatic: z.boolean().describe('run by itself (true) or by an admin (false)'),
        at: z.string().describe('when it ran (ISO 8601)'),
        created: z.number().int().describe('charges and late fees it raised'),
      })
      .nullable()
      .describe('the latest charge run, by hand or automatic; null before the first'),
  })
  .meta({ id: 'FeeChargeSchedule' });
export type FeeChargeSchedule = z.infer<typeof feeChargeScheduleSchema>;

export const updateFeeChargeScheduleSchema = z.object({
  automatic: z.boolean({ error: 'must be true or false' }).optional(),
  day: z
    .number({ error: 'must be a day of the month from 1 to 28' })
    .int('must be a day of the month from 1 to 28')
    .min(1, 'must be a day of the month from 1 to 28')
    .max(28, 'must be a day of the month from 1 to 28')
    .optional(),
  hour: z
    .number({ error: 'must be an hour from 0 to 23' })
    .int('must be an hour from 0 to 23')
    .min(0, 'must be an hour from 0 to 23')
    .max(23, 'must be an hour from 0 to 23')
    .optional(),
});
export type UpdateFeeChargeScheduleRequest = z.input<typeof updateFeeChargeScheduleSchema>;
