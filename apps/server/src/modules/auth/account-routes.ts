import {
  adminAccountSchema,
  createAdminSchema,
  createdAdminSchema,
  errorSchema,
  idParamsSchema,
  messageSchema,
  passwordResetSchema,
  userIdParamsSchema,
} from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { createAdmin, listAdmins, removeAdmin, resetPassword, setAdminInUse } from './accounts';

/** No one locked out (issue 28, item 7; ADR 046): password resets and the centre's admin accounts. */
export function registerAccountRoutes(app: ZodApp, ctx: AppContext): void {
  const config = adminOnly;
  app.post(
    '/staff/:user_id/reset-password',
    {
      config,
      schema: {
        tags: ['auth'],
        summary:
          "Reset a staff member's password (a teacher's or another admin's): a new random one, answered once; they must change it at sign-in, and every session of theirs ends",
        description: 'Not your own (409): change it with POST /auth/change-password.',
        params: userIdParamsSchema,
        response: { 200: passwordResetSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => resetPassword(ctx, currentUser(request), request.params.user_id),
  );

  const tags = ['admins'];
  app.get(
    '/admins',
    {
      config,
      schema: {
        tags,
        summary: "The centre's admin accounts, oldest first",
        response: { 200: z.array(adminAccountSchema) },
      },
    },
    async () => listAdmins(ctx),
  );

  app.post(
    '/admins',
    {
      config,
      schema: {
        tags,
        summary:
          'Add an admin account; the answer carries its initial password, once. It must change it at first sign-in (and set up two-factor sign-in where the centre requires it of admins)',
        body: createAdminSchema,
        response: { 200: createdAdminSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => createAdmin(ctx, currentUser(request), request.body),
  );

  const refusals = { 404: errorSchema, 409: errorSchema };
  app.post(
    '/admins/:id/disable',
    {
      config,
      schema: {
        tags,
        summary:
          'Switch an admin account off: it cannot sign in and its sessions end. Never your own, never the last admin in use (409)',
        params: idParamsSchema,
        response: { 200: adminAccountSchema, ...refusals },
      },
    },
    async (request) => setAdminInUse(ctx, currentUser(request), request.params.id, false),
  );

  app.post(
    '/admins/:id/enable',
    {
      config,
      schema: {
        tags,
        summary: 'Switch an admin account back on',
        params: idParamsSchema,
        response: { 200: adminAccountSchema, ...refusals },
      },
    },
    async (request) => setAdminInUse(ctx, currentUser(request), request.params.id, true),
  );

  app.delete(
    '/admins/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Remove an admin account. Never your own, never the last admin in use (409)',
        params: idParamsSchema,
        response: { 200: messageSchema, ...refusals },
      },
    },
    async (request) => removeAdmin(ctx, currentUser(request), request.params.id),
  );
}
