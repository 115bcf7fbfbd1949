import type { Queryable } from '../../db/database';

export interface ActivityRow {
  id: number;
  description: string;
  action: string;
  text_code: string | null;
  params: Record<string, string | number> | null;
  actor: string | null;
  created_at: string;
}

/**
 * Newest first. With `unreadOnly`, only what happened after the user last marked the feed viewed
 * (everything, if they never have). Rows whose action matches a `hidden` LIKE pattern are left out.
 */
export async function listRecentActivities(
  db: Queryable,
  options: { userId: number; limit: number; unreadOnly: boolean; hidden: readonly string[] },
): Promise<readonly ActivityRow[]> {
  return db.queryCached<ActivityRow>(
    `SELECT a.id, a.description, a.action, a.text_code, a.params, a.actor, a.created_at
       FROM activities a
      WHERE (NOT $2::boolean
              OR a.created_at > COALESCE(
                   (SELECT u.activities_viewed_at FROM users u WHERE u.id = $3), '-infinity'::timestamptz))
        AND NOT (a.action LIKE ANY ($4::text[]))
      ORDER BY a.created_at DESC, a.id DESC
      LIMIT $1`,
    [options.limit, options.unreadOnly, options.userId, options.hidden],
  );
}

/** Answers the time stored, or undefined when the user no longer exists. */
export async function markActivitiesViewed(db: Queryable, userId: number): Promise<string | undefined> {
  const rows = await db.query<{ activities_viewed_at: string }>(
    'UPDATE users SET activities_viewed_at = now() WHERE id = $1 RETURNING activities_viewed_at',
    [userId],
  );
  return rows[0]?.activities_viewed_at;
}
