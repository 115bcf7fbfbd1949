import {
  dismissFeeTaskSchema,
  errorSchema,
  feeMatchTaskSchema,
  feeMatchTasksQuerySchema,
  feeMatchTasksSchema,
  feePromisesSchema,
  idParamsSchema,
  matchFeeTaskSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { dismissTask, getMatchTasks, getPromises, matchTask } from './match-tasks';

const tags = ['fees'];

/** What both ways of resolving a task take and answer: the task's id, then the task, 404, 409 or 422. */
const resolving = {
  tags,
  params: idParamsSchema,
  response: { 200: feeMatchTaskSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
};

/** The families' answers to fee reminders, for admins (ADR 061): "Paid already" to match, and promises. */
export function registerFeeMatchTaskRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/fees/match-tasks',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Families who said the fees are paid already: open tasks oldest first, or done ones newest first',
        querystring: feeMatchTasksQuerySchema,
        response: { 200: feeMatchTasksSchema, 422: errorSchema },
      },
    },
    async (request) => getMatchTasks(ctx.db, request.query.status),
  );

  app.post(
    '/fees/match-tasks/:id/match',
    {
      config: adminOnly,
      schema: {
        ...resolving,
        summary: 'Match a family\'s "Paid already" to one of its payments',
        body: matchFeeTaskSchema,
      },
    },
    async (request) => matchTask(ctx, currentUser(request), request.params.id, request.body.payment_id),
  );

  app.post(
    '/fees/match-tasks/:id/dismiss',
    {
      config: adminOnly,
      schema: {
        ...resolving,
        summary: 'Dismiss a "Paid already" no payment was found for, saying why',
        body: dismissFeeTaskSchema,
      },
    },
    async (request) => dismissTask(ctx, currentUser(request), request.params.id, request.body.note),
  );

  app.get(
    '/fees/promises',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Families whose promise to pay pauses their reminders today, soonest first',
        response: { 200: feePromisesSchema },
      },
    },
    async () => getPromises(ctx.db),
  );
}
