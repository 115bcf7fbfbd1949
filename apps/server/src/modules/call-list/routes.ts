import { callListSchema, errorSchema, idParamsSchema, markCalledSchema } from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { getCallList, setCalled, setSentByHand } from './service';

const tags = ['messages'];

export function registerCallListRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/communications/call-list',
    {
      schema: {
        tags,
        summary:
          'The send list: families no channel reached (with WhatsApp and SMS links to send by hand), and families who asked to be called',
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

  app.put(
    '/communications/call-list/:message_id/sent-by-hand',
    {
      schema: {
        tags,
        summary: "Mark a message the family never got as sent by hand, from the staff member's own phone",
        description:
          'Once, with who and when; never undone. A second call (two staff at once) changes nothing and answers the same list. 404 when the message is not on the list or a channel reached the family.',
        params: z.object({ message_id: idParamsSchema.shape.id }),
        response: { 200: callListSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => setSentByHand(ctx, currentUser(request), request.params.message_id),
  );
}
