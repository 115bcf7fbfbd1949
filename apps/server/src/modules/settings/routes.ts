import { phoneSettingsSchema, updatePhoneSettingsSchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { registerSettingResource } from '../../plugins/setting-routes';
import type { ZodApp } from '../../plugins/zod-app';
import { getPhoneSettings, updatePhoneSettings } from './service';

/**
 * `/settings/phones`. The other `/settings/...` routes are registered by the module that owns each
 * setting (attendance: `/settings` and `/settings/marking`; auth: `/settings/two-factor`; delivery:
 * `/settings/messaging`), at this same place in the API's order.
 */
export function registerPhoneSettingsRoutes(app: ZodApp, ctx: AppContext): void {
  registerSettingResource(app, {
    path: '/settings/phones',
    answer: phoneSettingsSchema,
    body: updatePhoneSettingsSchema,
    read: {
      summary: 'The country code given to phone numbers written without one',
      run: () => getPhoneSettings(ctx),
    },
    change: {
      summary: 'Change the country code given to phone numbers written without one',
      description:
        'Applies to phones typed or imported from now on (students, teachers, parent sign-in, WhatsApp): a number without a country code, after a leading 0 is dropped, takes this code. Stored numbers keep theirs (ADR 031).',
      run: (user, body) => updatePhoneSettings(ctx, user, body),
    },
  });
}
