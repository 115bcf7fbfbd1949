import { twoFactorPolicySchema, updateTwoFactorPolicySchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../../context';
import { registerSettingResource } from '../../../plugins/setting-routes';
import type { ZodApp } from '../../../plugins/zod-app';
import { getTwoFactorPolicy, updateTwoFactorPolicy } from './policy';

/** `/settings/two-factor`: the centre's rule that admins use two-factor sign-in. */
export function registerTwoFactorPolicyRoutes(app: ZodApp, ctx: AppContext): void {
  // Its own resource, so /settings keeps answering exactly the fields the console has always read.
  registerSettingResource(app, {
    path: '/settings/two-factor',
    answer: twoFactorPolicySchema,
    body: updateTwoFactorPolicySchema,
    read: {
      summary: 'Whether the centre requires two-factor sign-in for every admin',
      config: { beforeTwoFactorEnrolment: true },
      run: () => getTwoFactorPolicy(ctx),
    },
    change: {
      summary: 'Require two-factor sign-in for every admin (or stop requiring it)',
      description:
        'Turning it on needs two-factor sign-in on your own account first (409). Admins without it then sign in but must set it up before any other call (403).',
      mayConflict: true,
      run: (user, body) => updateTwoFactorPolicy(ctx, user, body),
    },
  });
}
