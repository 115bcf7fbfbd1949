import type { RecentActivities, Role } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { UnauthorizedError } from '../../lib/errors';
import { timeAgo } from '../../lib/time';
import { listRecentActivities, markActivitiesViewed } from './repository';
import { readableActivityText } from './stored-texts';

/**
 * Money is for admins (issue 29): teachers see no fees, so no payment, charge run or plan in their
 * feed either. LIKE patterns of the actions a teacher's feed leaves out.
 */
export const ADMIN_ONLY_ACTIVITIES: readonly string[] = ['fees.%'];

export async function recentActivities(
  ctx: AppContext,
  user: { id: number; role: Role },
  options: { limit: number; unreadOnly: boolean },
): Promise<RecentActivities> {
  const hidden = user.role === 'admin' ? [] : ADMIN_ONLY_ACTIVITIES;
  const rows = await listRecentActivities(ctx.db, { userId: user.id, hidden, ...options });
  const now = new Date();
  const activities = rows.map((row) => ({
    ...row,
    description: readableActivityText(row.action, row.description),
    time_ago: timeAgo(new Date(row.created_at), now),
  }));
  return { activities, count: activities.length };
}

/**
 * Each user has their own unread state: marking the feed viewed moves only the caller's mark. Not a
 * change to the centre's records, so it leaves no activity row of its own.
 */
export async function markViewed(ctx: AppContext, userId: number): Promise<{ message: string; viewed_at: string }> {
  const viewedAt = await markActivitiesViewed(ctx.db, userId);
  if (!viewedAt) throw new UnauthorizedError();
  return { message: 'Activities marked as viewed', viewed_at: viewedAt };
}
