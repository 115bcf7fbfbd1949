import { backupCreatedSchema, backupListSchema, errorSchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { createBackup, listBackups } from './service';

const tags = ['backups'];

export function registerBackupRoutes(app: ZodApp, ctx: AppContext): void {
  app.post(
    '/backups',
    {
      config: adminOnly,
      schema: {
        tags,
        summary:
          "Write a consistent backup of all data into the server's BACKUP_DIR; `npm run restore <path>` brings it back into an empty database",
        response: { 201: backupCreatedSchema, 503: errorSchema },
      },
    },
    async (request, reply) => {
      const backup = await createBackup(ctx, currentUser(request));
      reply.code(201);
      return backup;
    },
  );

  app.get(
    '/backups',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "The backup files in the server's BACKUP_DIR, newest first",
        response: { 200: backupListSchema, 503: errorSchema },
      },
    },
    async () => listBackups(ctx),
  );
}
