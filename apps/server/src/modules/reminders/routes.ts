import { errorSchema, markingReminderSettingsSchema, updateMarkingReminderSettingsSchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { getReminderSettings, updateReminderSettings } from './service';

const tags = ['settings'];

export function registerReminderRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/settings/reminders',
    {
      schema: {
        tags,
        summary: 'Whether teachers are reminded of their classes with no attendance marked, and when',
        response: { 200: markingReminderSettingsSchema },
      },
    },
    async () => getReminderSettings(ctx),
  );

  app.put(
    '/settings/reminders',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Turn the marking reminders on or off, or change their time',
        description:
          "At reminder_time (HH:MM, the centre's time zone) each teacher with an assigned class that has no attendance marked that day gets a push on the devices where they allowed notifications and a card on their dashboard, once per class and day.",
        body: updateMarkingReminderSettingsSchema,
        response: { 200: markingReminderSettingsSchema, 422: errorSchema },
      },
    },
    async (request) => updateReminderSettings(ctx, currentUser(request), request.body),
  );
}
