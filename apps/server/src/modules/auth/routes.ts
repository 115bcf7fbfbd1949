import {
  changePasswordResponseSchema,
  changePasswordSchema,
  errorSchema,
  loginErrorSchema,
  loginFormSchema,
  loginResponseSchema,
  userLanguageSchema,
  userSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { currentUser } from '../../plugins/authentication';
import { problemBody } from '../../plugins/errors';
import type { ZodApp } from '../../plugins/zod-app';
import { registerAccountRoutes } from './account-routes';
import { changePassword, getCurrentUser, login, SecondFactorRequiredError, setLanguage } from './service';
import { logSignIn } from './sign-in-log';

export function registerAuthRoutes(app: ZodApp, ctx: AppContext): void {
  app.post(
    '/auth/login',
    {
      config: { isPublic: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a username (or a teacher email) and password, form-encoded',
        description:
          'An account with two-factor sign-in also sends `otp`: a current code from its authenticator app, or one of its recovery codes. Without it (or with a wrong one) the answer is 401 with `otp_required: true`.',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: loginFormSchema,
        response: { 200: loginResponseSchema, 401: loginErrorSchema, 429: errorSchema },
      },
    },
    async (request, reply) => {
      try {
        return await logSignIn(ctx.db, request, 'staff', request.body.username, () =>
          login(ctx, request.body, request.ip),
        );
      } catch (error) {
        if (!(error instanceof SecondFactorRequiredError)) throw error;
        return reply
          .code(401)
          .headers(error.headers)
          .send({ ...problemBody(error), otp_required: true });
      }
    },
  );

  app.get(
    '/auth/me',
    {
      // Reachable while the account must still change its password or set up two-factor sign-in.
      config: { beforeTwoFactorEnrolment: true, beforePasswordChange: true },
      schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: userSchema } },
    },
    async (request) => getCurrentUser(ctx, currentUser(request).id),
  );

  app.put(
    '/auth/me/language',
    {
      // The language can be chosen before the password change or two-factor set-up the account owes.
      config: { beforeTwoFactorEnrolment: true, beforePasswordChange: true },
      schema: {
        tags: ['auth'],
        summary: "Choose the language you read the console in (null: follow the browser's again)",
        body: userLanguageSchema,
        response: { 200: userSchema, 422: errorSchema },
      },
    },
    async (request) => setLanguage(ctx, currentUser(request).id, request.body.language),
  );

  app.post(
    '/auth/change-password',
    {
      config: { beforeTwoFactorEnrolment: true, beforePasswordChange: true },
      schema: {
        tags: ['auth'],
        summary: 'Change your own password; older sessions end, and a new token is returned',
        body: changePasswordSchema,
        response: { 200: changePasswordResponseSchema, 400: errorSchema, 422: errorSchema },
      },
    },
    async (request) =>
      changePassword(ctx, currentUser(request).id, request.body.current_password, request.body.new_password),
  );

  registerAccountRoutes(app, ctx);
}
