import { bulkParentAccessResultSchema, bulkParentAccessSchema, errorSchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { issueClassAccess } from './bulk-access';

export function registerBulkAccessRoutes(app: ZodApp, ctx: AppContext): void {
  app.post(
    '/parent-access/bulk',
    {
      config: adminOnly,
      schema: {
        tags: ['parents'],
        summary:
          "Parent-app access codes for every family of a class at once, each shown once with its slip's words in the family's language",
        description:
          'Families that already have a code are skipped unless `regenerate` is true (then their devices are signed out and told). One transaction: all the codes or none. 404 when the class has no student who attends.',
        body: bulkParentAccessSchema,
        response: { 200: bulkParentAccessResultSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => issueClassAccess(ctx, currentUser(request), request.body.class_name, request.body.regenerate),
  );
}
