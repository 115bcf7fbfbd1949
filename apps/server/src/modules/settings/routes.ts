import {
  centreSettingsSchema,
  errorSchema,
  twoFactorPolicySchema,
  updateCentreSettingsSchema,
  updateTwoFactorPolicySchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { getSettings, getTwoFactorPolicy, updateSettings, updateTwoFactorPolicy } from './service';

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

  // Its own resource, so /settings keeps answering exactly what the spec's console and its tests expect.
  app.get(
    '/settings/two-factor',
    {
      config: { beforeTwoFactorEnrolment: true },
      schema: {
        tags,
        summary: 'Whether the centre requires two-factor sign-in for every admin',
        response: { 200: twoFactorPolicySchema },
      },
    },
    async () => getTwoFactorPolicy(ctx),
  );

  app.put(
    '/settings/two-factor',
    {
      config: { roles: ['admin'] },
      schema: {
        tags,
        summary: 'Require two-factor sign-in for every admin (or stop requiring it)',
        description:
          'Turning it on needs two-factor sign-in on your own account first (409). Admins without it then sign in but must set it up before any other call (403).',
        body: updateTwoFactorPolicySchema,
        response: { 200: twoFactorPolicySchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => updateTwoFactorPolicy(ctx, currentUser(request), request.body),
  );
}
