import { z } from 'zod';

/** `POST /backups`: the backup the server just wrote into its BACKUP_DIR. */
export const backupCreatedSchema = z
  .object({
    file: z.string().describe('the file name, in the backup directory'),
    path: z.string().describe('where the file is on the server: `npm run restore <path>` brings it back'),
    size_bytes: z.number().int(),
    tables: z.record(z.string(), z.number().int()).describe('rows per table'),
    created_at: z.string(),
  })
  .meta({ id: 'BackupCreated' });
export type BackupCreated = z.infer<typeof backupCreatedSchema>;

export const backupFileSchema = z
  .object({
    file: z.string(),
    path: z.string(),
    size_bytes: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: 'BackupFile' });
export type BackupFile = z.infer<typeof backupFileSchema>;

/** `GET /backups`: the backup files in the server's BACKUP_DIR, newest first. */
export const backupListSchema = z.object({
  directory: z.string(),
  backups: z.array(backupFileSchema),
});
export type BackupList = z.infer<typeof backupListSchema>;
