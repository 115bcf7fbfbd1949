import {
  errorSchema,
  feeReminderRunSchema,
  feeReminderScheduleSchema,
  updateFeeReminderSettingsSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { getReminderSchedule, type ReminderPayLinks, runReminderRound, updateReminderSettings } from './reminders';

const tags = ['fees'];

/** `/fees/reminders/...`: the schedule and a round by hand (ADR 061). Admins only; teachers see no fees. */
export function registerFeeReminderRoutes(app: ZodApp, ctx: AppContext, links: ReminderPayLinks): void {
  app.get(
    '/fees/reminders/settings',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'The fee reminder schedule: on or off, the days around the due date, the hour, and the latest round',
        response: { 200: feeReminderScheduleSchema },
      },
    },
    async () => getReminderSchedule(ctx),
  );

  app.put(
    '/fees/reminders/settings',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Change the fee reminder schedule; the next round follows it, no restart needed',
        description:
          "offsets are days from a charge's due date (negative before it, 0 on the day, up to 90 after), 1 to 8 of them, each once; they are kept ascending. hour is the hour of the day in the centre's time zone. Fields left out stay as they are.",
        body: updateFeeReminderSettingsSchema,
        response: { 200: feeReminderScheduleSchema, 422: errorSchema },
      },
    },
    async (request) => updateReminderSettings(ctx, request.body),
  );

  app.post(
    '/fees/reminders/run',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "Send the reminders due today now (the centre's today), whether or not reminders are on",
        description:
          'Each family with an unpaid charge due a day of the schedule from today gets one message, once per charge and day however often this runs; a family that owes nothing at the moment of sending, or whose promise to pay has not passed, gets nothing and is counted.',
        response: { 200: feeReminderRunSchema },
      },
    },
    async (request) => runReminderRound(ctx, links, { sender: currentUser(request) }),
  );
}
