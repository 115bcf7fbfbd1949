import {
  errorSchema,
  idParamsSchema,
  messageSchema,
  twoFactorConfirmedSchema,
  twoFactorConfirmSchema,
  twoFactorDisabledSchema,
  twoFactorDisableSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../../context';
import { adminOnly, currentUser } from '../../../plugins/authentication';
import type { ZodApp } from '../../../plugins/zod-app';
import { logSignIn } from '../sign-in-log';
import { confirmSetup, disableTwoFactor, getTwoFactorStatus, resetTwoFactor, startSetup } from './service';

const tags = ['two-factor'];
// An admin whom the centre requires to set it up must be able to, before anything else.
const duringEnrolment = { beforeTwoFactorEnrolment: true };

export function registerTwoFactorRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/auth/two-factor',
    {
      config: duringEnrolment,
      schema: {
        tags,
        summary: 'Your two-factor sign-in: on or not, recovery codes left, whether the centre requires it of you',
        response: { 200: twoFactorStatusSchema },
      },
    },
    async (request) => getTwoFactorStatus(ctx, currentUser(request)),
  );

  app.post(
    '/auth/two-factor/setup',
    {
      config: duringEnrolment,
      schema: {
        tags,
        summary: 'Start setting up an authenticator: a new secret, its otpauth:// URI and QR code',
        description:
          'Replaces a setup not yet confirmed. Nothing changes at sign-in until POST /auth/two-factor/confirm. 409 when two-factor sign-in is already on.',
        response: { 200: twoFactorSetupSchema, 409: errorSchema },
      },
    },
    async (request) => startSetup(ctx, currentUser(request)),
  );

  app.post(
    '/auth/two-factor/confirm',
    {
      config: duringEnrolment,
      schema: {
        tags,
        summary: 'Confirm the authenticator with its current code: turns two-factor sign-in on',
        description:
          "Answers the ten recovery codes, once: they are stored hashed and cannot be shown again. Ends the account's other sessions: the answer carries this session's new token.",
        body: twoFactorConfirmSchema,
        response: { 200: twoFactorConfirmedSchema, 400: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => confirmSetup(ctx, currentUser(request), request.body.otp),
  );

  app.post(
    '/auth/two-factor/disable',
    {
      schema: {
        tags,
        summary: 'Turn two-factor sign-in off, with your password and a code (or a recovery code)',
        description:
          "Refused (409) for an admin while the centre requires two-factor sign-in for every admin. Wrong password or code: 400, counted by the sign-in throttle (429). Ends the account's other sessions: the answer carries this session's new token.",
        body: twoFactorDisableSchema,
        response: {
          200: twoFactorDisabledSchema,
          400: errorSchema,
          409: errorSchema,
          422: errorSchema,
          429: errorSchema,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return logSignIn(ctx.db, request, 'two-factor-off', user.username, () =>
        disableTwoFactor(ctx, user, request.body.current_password, request.body.otp, request.ip),
      );
    },
  );

  app.delete(
    '/auth/two-factor/users/:id',
    {
      config: adminOnly,
      schema: {
        tags,
        summary:
          "Reset another account's two-factor sign-in (a lost phone): their sessions end, and they sign in with the password alone",
        params: idParamsSchema,
        response: { 200: messageSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => resetTwoFactor(ctx, currentUser(request), request.params.id),
  );
}
