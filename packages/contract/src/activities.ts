import { z } from 'zod';

export const activitySchema = z.object({
  id: z.number().int(),
  description: z.string(),
  time_ago: z.string(),
  action: z.string(),
  actor: z.string().nullable(),
  created_at: z.string(),
});
export type Activity = z.infer<typeof activitySchema>;

export const recentActivitiesQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(10),
  unread_only: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .optional()
    .transform((value) => value === 'true' || value === '1'),
});

export const recentActivitiesSchema = z.object({
  activities: z.array(activitySchema),
  count: z.number().int(),
});
export type RecentActivities = z.infer<typeof recentActivitiesSchema>;

export const markViewedResultSchema = z.object({ message: z.string(), viewed_at: z.string() });
