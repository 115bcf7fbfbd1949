import { errorSchema, messagingSettingsSchema, updateMessagingSettingsSchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { getMessagingSettings, updateMessagingSettings } from './settings';

const tags = ['settings'];

/** `/settings/messaging`: the centre name and the cascade's times and notice template. */
export function registerMessagingSettingsRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/settings/messaging',
    {
      schema: {
        tags,
        summary: "The centre's message settings, and whether WhatsApp is on",
        response: { 200: messagingSettingsSchema },
      },
    },
    async () => getMessagingSettings(ctx),
  );

  app.put(
    '/settings/messaging',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Change the centre name, the WhatsApp fallback time, the call-list time and the notice template',
        body: updateMessagingSettingsSchema,
        response: { 200: messagingSettingsSchema, 422: errorSchema },
      },
    },
    async (request) => updateMessagingSettings(ctx, currentUser(request), request.body),
  );
}
