import { centreSettingsSchema, errorSchema, updateCentreSettingsSchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { getSettings, updateSettings } from './service';

const tags = ['settings'];

export function registerSettingsRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/settings',
    { schema: { tags, summary: "The centre's settings", response: { 200: centreSettingsSchema } } },
    async () => getSettings(ctx),
  );

  app.put(
    '/settings',
    {
      config: { roles: ['admin'] },
      schema: {
        tags,
        summary: "Change the centre's settings (absence alerts on approval)",
        body: updateCentreSettingsSchema,
        response: { 200: centreSettingsSchema, 422: errorSchema },
      },
    },
    async (request) => updateSettings(ctx, currentUser(request), request.body),
  );
}
