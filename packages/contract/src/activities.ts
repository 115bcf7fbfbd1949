import { z } from 'zod';
import { queryFlagSchema, queryNumberSchema } from './common';

export const activitySchema = z.object({
  id: z.number().int(),
  description: z.string(),
  time_ago: z.string(),
  action: z.string(),
  /**
   * The code of the text in the activity catalogue (`activity-texts.ts`) and the params that fill it,
   * for a client that shows the activity in another language; null on rows written before (ADR 038).
   * `params.actor` is who did it.
   */
  text_code: z.string().nullable(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
  actor: z.string().nullable(),
  created_at: z.string(),
});
export type Activity = z.infer<typeof activitySchema>;

export const recentActivitiesQuerySchema = z.object({
  limit: queryNumberSchema({ min: 1, max: 100, byDefault: 10 }),
  unread_only: queryFlagSchema,
});

export const recentActivitiesSchema = z.object({
  activities: z.array(activitySchema),
  count: z.number().int(),
});
export type RecentActivities = z.infer<typeof recentActivitiesSchema>;

export const markViewedResultSchema = z.object({ message: z.string(), viewed_at: z.string() });
