import { errorSchema, phoneSettingsSchema, updatePhoneSettingsSchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { getPhoneSettings, updatePhoneSettings } from './service';

const tags = ['settings'];

/**
 * `/settings/phones`. The other `/settings/...` routes are registered by the module that owns each
 * setting (attendance: `/settings` and `/settings/marking`; auth: `/settings/two-factor`; delivery:
 * `/settings/messaging`), at this same place in the API's order.
 */
export function registerPhoneSettingsRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/settings/phones',
    {
      schema: {
        tags,
        summary: 'The country code given to phone numbers written without one',
        response: { 200: phoneSettingsSchema },
      },
    },
    async () => getPhoneSettings(ctx),
  );

  app.put(
    '/settings/phones',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Change the country code given to phone numbers written without one',
        description:
          'Applies to phones typed or imported from now on (students, teachers, parent sign-in, WhatsApp): a number without a country code, after a leading 0 is dropped, takes this code. Stored numbers keep theirs (ADR 031).',
        body: updatePhoneSettingsSchema,
        response: { 200: phoneSettingsSchema, 422: errorSchema },
      },
    },
    async (request) => updatePhoneSettings(ctx, currentUser(request), request.body),
  );
}
