import {
  changePasswordResponseSchema,
  changePasswordSchema,
  errorSchema,
  loginFormSchema,
  loginResponseSchema,
  userSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { changePassword, getCurrentUser, login } from './service';

export function registerAuthRoutes(app: ZodApp, ctx: AppContext): void {
  app.post(
    '/auth/login',
    {
      config: { isPublic: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a username (or a teacher email) and password, form-encoded',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: loginFormSchema,
        response: { 200: loginResponseSchema, 401: errorSchema, 429: errorSchema },
      },
    },
    async (request) => login(ctx, request.body, request.ip),
  );

  app.get(
    '/auth/me',
    { schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: userSchema } } },
    async (request) => getCurrentUser(ctx, currentUser(request).id),
  );

  app.post(
    '/auth/change-password',
    {
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
}
