import { isIPv6 } from 'node:net';
import type { Database, Queryable } from '../../db/database';
import { TooManyRequestsError } from '../../lib/errors';

/**
 * Sign-in throttling, kept in the database so that every server instance counts the same attempts
 * (ADR 021). An attempt is reserved before the slow hash, in one transaction that locks the keys it
 * counts on, checks that none is blocked and counts the attempt as a failure; only then is the
 * secret checked. A burst of guesses sent at once is therefore checked no further than the limit:
 * the rest find the block that the limit-th reservation set. A right secret gives its reservation
 * back afterwards.
 *
 * Each attempt counts on up to three keys:
 * - the account (or the unknown name typed) from one client address: blocked after 5 failures;
 * - the account from every address it has never signed in from: slowed down only after many more
 *   failures (50 for passwords and access codes) and only for a minute at most, and not at all for
 *   the addresses its owner signed in from before, so guessing elsewhere cannot lock the real user
 *   out (ASVS 6.3.1); for two-factor codes, which come after the right password and have a small
 *   space, 5;
 * - the client address, whatever it tries (20 failures): password spraying from one place.
 * A block lasts firstBlock · 2^(failures − threshold), at most maxBlock, and always ends; a key's
 * count is forgotten after an hour without failures, and the clean-up then deletes its row.
 */
interface Limit {
  threshold: number;
  firstBlockSeconds: number;
  maxBlockSeconds: number;
}

export interface ThrottlePolicy {
  prefix: string;
  accountAddress: Limit;
  account: Limit;
  address?: Limit;
}

const QUARTER_HOUR = 15 * 60;

export const POLICIES = {
  /** Staff passwords and parents' access codes. */
  secret: {
    prefix: 'pw',
    accountAddress: { threshold: 5, firstBlockSeconds: 60, maxBlockSeconds: QUARTER_HOUR },
    account: { threshold: 50, firstBlockSeconds: 4, maxBlockSeconds: 60 },
    address: { threshold: 20, firstBlockSeconds: 60, maxBlockSeconds: QUARTER_HOUR },
  },
  /** Two-factor and recovery codes, at sign-in and when turning two-factor off. */
  code: {
    prefix: 'otp',
    accountAddress: { threshold: 5, firstBlockSeconds: 60, maxBlockSeconds: QUARTER_HOUR },
    account: { threshold: 5, firstBlockSeconds: 60, maxBlockSeconds: QUARTER_HOUR },
  },
} as const satisfies Record<string, ThrottlePolicy>;

/** A key's failures are forgotten after this long without one. */
export const FORGET_FAILURES_AFTER_MINUTES = 60;
/** An address an account signed in from keeps its standing this long after the last sign-in. */
export const REMEMBER_ADDRESS_DAYS = 90;

/** The account a staff sign-in reaches, whichever name (username or email) it came under. */
export const staffAccount = (userId: number) => `user:${userId}`;
/** A name that reaches no account still has its own count, so unknown names cost the same. */
export const unknownName = (name: string) => `name:${name.trim().toLowerCase()}`;
export const parentAccount = (phone: string) => `parent:${phone}`;

/**
 * The address a throttle counts: IPv4 as it is (also when written as IPv4-mapped IPv6), IPv6 by its
 * /64, since one subscriber commonly holds a whole /64 and could otherwise claim a new address per guess.
 */
export function throttleAddress(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros. */
function expandIPv6(ip: string): string[] {
  const address = ip.split('%')[0] ?? ip;
  const [head = '', tail] = address.split('::');
  const groupsOf = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [group];
          // An embedded IPv4 address fills the last two groups.
          const bytes = group.split('.').map(Number);
          return [
            (((bytes[0] ?? 0) << 8) | (bytes[1] ?? 0)).toString(16),
            (((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)).toString(16),
          ];
        });
  const first = groupsOf(head);
  const last = tail === undefined ? [] : groupsOf(tail);
  const groups = [...first, ...Array<string>(Math.max(0, 8 - first.length - last.length)).fill('0'), ...last];
  return groups.map((group) => Number.parseInt(group, 16).toString(16));
}

interface CountedKey {
  key: string;
  limit: Limit;
}

/** One reserved attempt: counted as a failure until given back. */
export interface Attempt {
  account: string;
  address: string;
  /** The account-and-address key, cleared by a right secret. */
  accountAddressKey: string;
  /** The wider keys, each of which gets back the one failure this attempt counted. */
  widerKeys: CountedKey[];
}

function tooManyAttempts(seconds: number): TooManyRequestsError {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return new TooManyRequestsError(seconds, 'auth.too_many_attempts', { minutes });
}

async function isKnownAddress(db: Queryable, account: string, address: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM sign_in_addresses
      WHERE account = $1 AND address = $2 AND last_success_at > now() - make_interval(days => $3)`,
    [account, address, REMEMBER_ADDRESS_DAYS],
  );
  return rows.length > 0;
}

/**
 * Reserves one attempt at `account`'s secret from `clientIp`, or throws 429 (with Retry-After) when
 * any key it counts on is blocked; a refused attempt counts on nothing.
 */
export async function reserveAttempt(
  db: Database,
  policy: ThrottlePolicy,
  account: string,
  clientIp: string,
): Promise<Attempt> {
  const address = throttleAddress(clientIp);
  const accountAddressKey = `${policy.prefix}:${account}@${address}`;
  const widerKeys: CountedKey[] = [];
  if (!(await isKnownAddress(db, account, address))) {
    widerKeys.push({ key: `${policy.prefix}:${account}`, limit: policy.account });
  }
  if (policy.address) widerKeys.push({ key: `ip:${address}`, limit: policy.address });
  // Locked in one order by every instance, so two reservations never wait on each other in a circle.
  const counted = [{ key: accountAddressKey, limit: policy.accountAddress }, ...widerKeys].sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
  );
  const keys = counted.map((c) => c.key);
  const blockedSeconds = await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO login_throttle (key, failures, last_failure_at)
       SELECT k, 0, now() FROM unnest($1::text[]) WITH ORDINALITY AS u (k, i) ORDER BY i
       ON CONFLICT (key) DO NOTHING`,
      [keys],
    );
    // Every key is locked, blocked or not, and filtered afterwards: a condition around a FOR UPDATE
    // subquery would be pushed into it, and the rows it left out would not be locked at all.
    const locked = await tx.query<{ seconds: number | null }>(
      `SELECT ceil(extract(epoch FROM blocked_until - now()))::int AS seconds
         FROM login_throttle WHERE key = ANY($1::text[]) ORDER BY key FOR UPDATE`,
      [keys],
    );
    const seconds = Math.max(0, ...locked.map((row) => row.seconds ?? 0));
    if (seconds > 0) return seconds;
    await tx.query(
      `UPDATE login_throttle AS t SET
         failures = n.failures,
         last_failure_at = now(),
         blocked_until = CASE WHEN n.failures >= n.threshold
           THEN now() + make_interval(secs => least(n.max_seconds, n.first_seconds * power(2, least(n.failures - n.threshold, 20))))
         END
       FROM (
         SELECT l.key, r.threshold, r.first_seconds, r.max_seconds,
                CASE WHEN l.last_failure_at < now() - make_interval(mins => $5) THEN 1 ELSE l.failures + 1 END AS failures
           FROM unnest($1::text[], $2::int[], $3::int[], $4::int[]) AS r (key, threshold, first_seconds, max_seconds)
           JOIN login_throttle l ON l.key = r.key
       ) n
       WHERE t.key = n.key`,
      [
        keys,
        counted.map((c) => c.limit.threshold),
        counted.map((c) => c.limit.firstBlockSeconds),
        counted.map((c) => c.limit.maxBlockSeconds),
        FORGET_FAILURES_AFTER_MINUTES,
      ],
    );
    return 0;
  });
  if (blockedSeconds > 0) throw tooManyAttempts(blockedSeconds);
  return { account, address, accountAddressKey, widerKeys };
}

/**
 * The secret was right: the account-and-address count starts again, and each wider key gets back the
 * failure this attempt counted (a success must not wipe out guesses made elsewhere; a block that
 * this attempt alone brought on is lifted).
 */
export async function releaseAttempt(db: Queryable, attempt: Attempt): Promise<void> {
  await db.query(
    `WITH cleared AS (DELETE FROM login_throttle WHERE key = $1)
     UPDATE login_throttle AS t SET
       failures = greatest(t.failures - 1, 0),
       blocked_until = CASE WHEN t.failures - 1 < r.threshold THEN NULL ELSE t.blocked_until END
       FROM unnest($2::text[], $3::int[]) AS r (key, threshold)
      WHERE t.key = r.key`,
    [attempt.accountAddressKey, attempt.widerKeys.map((k) => k.key), attempt.widerKeys.map((k) => k.limit.threshold)],
  );
}

/** A sign-in completed: from now on this address is one its owner uses (see the module comment). */
export async function rememberAddress(db: Queryable, attempt: Attempt): Promise<void> {
  await db.query(
    `INSERT INTO sign_in_addresses (account, address, last_success_at) VALUES ($1, $2, now())
     ON CONFLICT (account, address) DO UPDATE SET last_success_at = now()`,
    [attempt.account, attempt.address],
  );
}

/**
 * Deletes keys whose failures are forgotten and whose block has ended, and addresses not used for
 * sign-in in REMEMBER_ADDRESS_DAYS, so spraying ever new names cannot grow a table forever.
 */
export async function deleteExpiredThrottleRows(db: Queryable): Promise<{ keys: number; addresses: number }> {
  const keys = await db.query<{ count: number }>(
    `WITH deleted AS (
       DELETE FROM login_throttle
        WHERE last_failure_at < now() - make_interval(mins => $1) AND (blocked_until IS NULL OR blocked_until <= now())
        RETURNING 1
     ) SELECT count(*)::int AS count FROM deleted`,
    [FORGET_FAILURES_AFTER_MINUTES],
  );
  const addresses = await db.query<{ count: number }>(
    `WITH deleted AS (
       DELETE FROM sign_in_addresses WHERE last_success_at < now() - make_interval(days => $1) RETURNING 1
     ) SELECT count(*)::int AS count FROM deleted`,
    [REMEMBER_ADDRESS_DAYS],
  );
  return { keys: keys[0]?.count ?? 0, addresses: addresses[0]?.count ?? 0 };
}
