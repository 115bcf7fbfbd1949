import {
  createLeaveRequestSchema,
  errorSchema,
  idParamsSchema,
  LEAVE_MAX_DAYS,
  leaveCountSchema,
  leaveListQuerySchema,
  leaveListSchema,
  leaveRequestSchema,
  parentLeaveRequestsSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly, currentParent, currentUser, parentOnly } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { askForLeave, decideLeave, getFamilyLeave, getLeaveCount, getLeaveList, withdrawLeave } from './service';

const staffTags = ['leave'];
const parentTags = ['parent'];

export function registerLeaveRoutes(app: ZodApp, ctx: AppContext): void {
  // ---- Staff: teachers read their classes' requests, admins read all and decide ----

  app.get(
    '/leave-requests',
    {
      schema: {
        tags: staffTags,
        summary: 'Leave requests from parents, newest first, filtered by state, class and dates',
        description:
          'A teacher sees the requests for the classes they may mark (403 for a class that is not theirs); an admin sees all. from_date/to_date keep the requests covering any day of that range.',
        querystring: leaveListQuerySchema,
        response: { 200: leaveListSchema, 403: errorSchema, 422: errorSchema },
      },
    },
    async (request) => getLeaveList(ctx, currentUser(request), request.query),
  );

  app.get(
    '/leave-requests/count',
    {
      schema: {
        tags: staffTags,
        summary: 'How many leave requests wait for an admin (of those the caller may see), for the menu badge',
        response: { 200: leaveCountSchema },
      },
    },
    async (request) => getLeaveCount(ctx, currentUser(request)),
  );

  app.post(
    '/leave-requests/:id/approve',
    {
      config: adminOnly,
      schema: {
        tags: staffTags,
        summary:
          'Approve a waiting leave request: the register shows those days as Leave with the reason, and no absence alert is sent for them',
        params: idParamsSchema,
        response: { 200: leaveRequestSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => decideLeave(ctx, currentUser(request), request.params.id, 'approved'),
  );

  app.post(
    '/leave-requests/:id/decline',
    {
      config: adminOnly,
      schema: {
        tags: staffTags,
        summary: 'Decline a waiting leave request (the parent sees it declined)',
        params: idParamsSchema,
        response: { 200: leaveRequestSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => decideLeave(ctx, currentUser(request), request.params.id, 'declined'),
  );

  // ---- Parents ----

  app.get(
    '/parent/leave-requests',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: "Your children's leave requests and what became of each, newest first",
        response: { 200: parentLeaveRequestsSchema },
      },
    },
    async (request) => getFamilyLeave(ctx, currentParent(request).phone),
  );

  app.post(
    '/parent/leave-requests',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: 'Tell the centre one of your children will be away',
        description: `From today on, to_date not before from_date, at most ${LEAVE_MAX_DAYS} days; 409 when it overlaps a waiting or approved request for the same child.`,
        body: createLeaveRequestSchema,
        response: { 201: leaveRequestSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request, reply) => {
      const created = await askForLeave(ctx, currentParent(request).phone, request.body);
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/parent/leave-requests/:id/withdraw',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: 'Withdraw one of your leave requests while it waits for the centre',
        params: idParamsSchema,
        response: { 200: leaveRequestSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => withdrawLeave(ctx, currentParent(request).phone, request.params.id),
  );
}
