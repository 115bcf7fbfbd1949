import { markingReminderSettingsSchema, updateMarkingReminderSettingsSchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { registerSettingResource } from '../../plugins/setting-routes';
import type { ZodApp } from '../../plugins/zod-app';
import { getReminderSettings, updateReminderSettings } from './service';

export function registerReminderRoutes(app: ZodApp, ctx: AppContext): void {
  registerSettingResource(app, {
    path: '/settings/reminders',
    answer: markingReminderSettingsSchema,
    body: updateMarkingReminderSettingsSchema,
    read: {
      summary: 'Whether teachers are reminded of their classes with no attendance marked, and when',
      run: () => getReminderSettings(ctx),
    },
    change: {
      summary: 'Turn the marking reminders on or off, or change their time',
      description:
        "At reminder_time (HH:MM, the centre's time zone) each teacher with an assigned class that has no attendance marked that day gets a push on the devices where they allowed notifications and a card on their dashboard, once per class and day.",
      run: (user, body) => updateReminderSettings(ctx, user, body),
    },
  });
}
