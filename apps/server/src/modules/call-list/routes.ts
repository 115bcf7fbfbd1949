import { callListSchema, errorSchema, idParamsSchema, markCalledSchema } from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { getCallList, setCalled } from './service';

const tags = ['messages'];

export function registerCallListRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/communications/call-list',
    {
      schema: {
        tags,
        summary: 'Families to ring: no channel reached them in time, or they asked to be called',
        response: { 200: callListSchema },
      },
    },
    async () => getCallList(ctx),
  );

  app.put(
    '/communications/call-list/:message_id',
    {
      schema: {
        tags,
        summary: 'Tick a family called (or untick it)',
        params: z.object({ message_id: idParamsSchema.shape.id }),
        body: markCalledSchema,
        response: { 200: callListSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => setCalled(ctx, currentUser(request), request.params.message_id, request.body.called),
  );
}
