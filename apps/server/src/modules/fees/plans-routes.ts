import {
  createFeePlanSchema,
  errorSchema,
  feeChargeRunResultSchema,
  feeChargeRunSchema,
  feeChargeScheduleSchema,
  feeDiscountsSchema,
  feePlanListSchema,
  feePlanSchema,
  idParamsSchema,
  messageSchema,
  updateFeeChargeScheduleSchema,
  updateFeeDiscountsSchema,
  updateFeePlanSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { registerClassUse } from '../classes';
import { runChargesByHand } from './charges';
import { getDiscounts, getSchedule, updateDiscounts, updateSchedule } from './discounts';
import { archivePlan, createPlan, editPlan, getPlans, removePlan } from './plans';
import { plansNamingClass } from './plans-repository';

const tags = ['fees'];

/** Plans, discounts and the charge run (ADR 052): admins only, as every /fees route. */
export function registerFeePlanRoutes(app: ZodApp, ctx: AppContext): void {
  // A class a plan names is not deleted (409); the classes module asks this, as it imports no fees.
  registerClassUse('fee_plans', plansNamingClass);
  app.get(
    '/fees/plans',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'The fee plans, those in use first, with how many charges each has raised',
        response: { 200: feePlanListSchema },
      },
    },
    async () => getPlans(ctx),
  );

  app.post(
    '/fees/plans',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Add a fee plan: monthly, per approved attended day, a package of sessions or one-time',
        description:
          'Charges the students of `class_names` and those in `student_ids` from the next charge run. A package is charged when the student joins it and again each time they attend beyond the sessions charged; a one-time plan once per student (or in its `instalments`, each from the run of its month).',
        body: createFeePlanSchema,
        response: { 201: feePlanSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createPlan(ctx, currentUser(request), request.body)),
  );

  app.put(
    '/fees/plans/:id',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Change a fee plan (its kind stays): periods charged before keep what they charged',
        params: idParamsSchema,
        body: updateFeePlanSchema,
        response: { 200: feePlanSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => editPlan(ctx, currentUser(request), request.params.id, request.body),
  );

  for (const archived of [true, false]) {
    app.post(
      `/fees/plans/:id/${archived ? 'archive' : 'unarchive'}`,
      {
        config: adminOnly,
        schema: {
          tags,
          summary: archived
            ? 'Archive a fee plan: it charges nothing more; its charges stay'
            : 'Unarchive a fee plan: the next run charges from it again',
          params: idParamsSchema,
          response: { 200: feePlanSchema, 404: errorSchema, 409: errorSchema },
        },
      },
      async (request) => archivePlan(ctx, currentUser(request), request.params.id, archived),
    );
  }

  app.delete(
    '/fees/plans/:id',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Delete a fee plan that has charged nothing (one that has: 409, archive it instead)',
        params: idParamsSchema,
        response: { 200: messageSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => removePlan(ctx, currentUser(request), request.params.id),
  );

  app.get(
    '/fees/discounts',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'The sibling and staff-child discounts on tuition, and the staff children',
        response: { 200: feeDiscountsSchema },
      },
    },
    async () => getDiscounts(ctx),
  );

  app.put(
    '/fees/discounts',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Change the discounts or the list of staff children (from the next charge run)',
        body: updateFeeDiscountsSchema,
        response: { 200: feeDiscountsSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => updateDiscounts(ctx, currentUser(request), request.body),
  );

  app.post(
    '/fees/charges/run',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "Raise a month's charges for every plan in use; running it again raises nothing twice",
        description:
          "Monthly plans charge the month, prorated by the days a student was with the centre; per-day plans, once the month has ended, each approved attended day (never a day of approved leave); packages and one-time plans once. A period charged before and now different (a mark changed, a student who left) gets one correction of the difference, with its discount; charges unpaid after their due day get the plan's late fee once. `created` counts the ledger transactions posted.",
        body: feeChargeRunSchema,
        response: { 200: feeChargeRunResultSchema, 422: errorSchema },
      },
    },
    async (request) => runChargesByHand(ctx, currentUser(request), request.body.month),
  );

  app.get(
    '/fees/charges/schedule',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'When the charge run happens by itself',
        response: { 200: feeChargeScheduleSchema },
      },
    },
    async () => getSchedule(ctx),
  );

  app.put(
    '/fees/charges/schedule',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Turn the automatic charge run on or off, or change its day and hour',
        description:
          "Each day at `hour` (the centre's time zone) the run charges the month before (per-day months, corrections) and, from `day` on, the current month, once a day whatever the number of server instances.",
        body: updateFeeChargeScheduleSchema,
        response: { 200: feeChargeScheduleSchema, 422: errorSchema },
      },
    },
    async (request) => updateSchedule(ctx, currentUser(request), request.body),
  );
}
