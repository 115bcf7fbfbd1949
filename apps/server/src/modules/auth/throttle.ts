import type { Queryable } from '../../db/database';
import { TooManyRequestsError } from '../../lib/errors';

/**
 * Failed sign-ins are counted per username and per client address in the database, so every server
 * instance sees the same counts. Past a threshold each further failure blocks that key for longer
 * (1, 2, 4, 8, then 15 minutes at most); the block always ends, so the real user is never locked out
 * for good (ASVS 6.3.1). A success clears the username's count.
 *
 * A wrong two-factor code counts as a failure too, also under the account's own key, so guesses at
 * codes cannot be spread over the username and a teacher's email (ADR 014).
 */
const WINDOW_MINUTES = 15;
const MAX_BLOCK_MINUTES = 15;
const THRESHOLDS = { user: 5, ip: 20, account: 5 } as const;

type KeyKind = keyof typeof THRESHOLDS;

export function throttleKeys(username: string, ip: string): { kind: KeyKind; key: string }[] {
  return [
    { kind: 'user', key: `user:${username.trim().toLowerCase()}` },
    { kind: 'ip', key: `ip:${ip}` },
  ];
}

/** The key of one account, whichever name it was signed in with; for wrong two-factor codes. */
export function accountThrottleKey(userId: number): { kind: KeyKind; key: string } {
  return { kind: 'account', key: `account:${userId}` };
}

export async function assertNotThrottled(db: Queryable, keys: { key: string }[]): Promise<void> {
  const rows = await db.query<{ seconds: number }>(
    `SELECT ceil(extract(epoch FROM max(blocked_until) - now()))::int AS seconds
       FROM login_throttle WHERE key = ANY($1::text[]) AND blocked_until > now()`,
    [keys.map((k) => k.key)],
  );
  const seconds = rows[0]?.seconds;
  if (seconds && seconds > 0) {
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    throw new TooManyRequestsError(
      `Too many sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
      seconds,
    );
  }
}

export async function recordFailure(db: Queryable, keys: { kind: KeyKind; key: string }[]): Promise<void> {
  for (const { kind, key } of keys) {
    await db.query(
      `INSERT INTO login_throttle AS t (key, failures, window_started_at) VALUES ($1, 1, now())
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN t.window_started_at < now() - make_interval(mins => $2) AND (t.blocked_until IS NULL OR t.blocked_until < now())
                         THEN 1 ELSE t.failures + 1 END,
         window_started_at = CASE WHEN t.window_started_at < now() - make_interval(mins => $2) AND (t.blocked_until IS NULL OR t.blocked_until < now())
                         THEN now() ELSE t.window_started_at END,
         blocked_until = CASE WHEN t.failures + 1 >= $3
                         THEN now() + make_interval(mins => least($4::int, power(2, least(t.failures + 1 - $3::int, 8))::int))
                         ELSE t.blocked_until END`,
      [key, WINDOW_MINUTES, THRESHOLDS[kind], MAX_BLOCK_MINUTES],
    );
  }
}

export async function clearFailures(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM login_throttle WHERE key = $1', [key]);
}
