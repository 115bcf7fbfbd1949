import { errorSchema, twoFactorPolicySchema, updateTwoFactorPolicySchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../../context';
import { adminOnly, currentUser } from '../../../plugins/authentication';
import type { ZodApp } from '../../../plugins/zod-app';
import { getTwoFactorPolicy, updateTwoFactorPolicy } from './policy';

const tags = ['settings'];

/** `/settings/two-factor`: the centre's rule that admins use two-factor sign-in. */
export function registerTwoFactorPolicyRoutes(app: ZodApp, ctx: AppContext): void {
  // Its own resource, so /settings keeps answering exactly the fields the console has always read.
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
      config: adminOnly,
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
