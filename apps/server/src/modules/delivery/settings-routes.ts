import { messagingSettingsSchema, updateMessagingSettingsSchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { registerSettingResource } from '../../plugins/setting-routes';
import type { ZodApp } from '../../plugins/zod-app';
import { getMessagingSettings, updateMessagingSettings } from './settings';

/** `/settings/messaging`: the centre name and the cascade's times and notice template. */
export function registerMessagingSettingsRoutes(app: ZodApp, ctx: AppContext): void {
  registerSettingResource(app, {
    path: '/settings/messaging',
    answer: messagingSettingsSchema,
    body: updateMessagingSettingsSchema,
    read: {
      summary: "The centre's message settings, and whether WhatsApp is on",
      run: () => getMessagingSettings(ctx),
    },
    change: {
      summary: 'Change the centre name, the WhatsApp fallback time, the call-list time and the notice template',
      run: (user, body) => updateMessagingSettings(ctx, user, body),
    },
  });
}
