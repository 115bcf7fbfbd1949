import type { Queryable } from '../../../db/database';
import { recordActivity } from '../../../lib/activity-log';

export interface TwoFactorRow {
  user_id: number;
  secret_encrypted: string;
  confirmed_at: string | null;
  last_step: number | null;
}

export async function findTwoFactor(db: Queryable, userId: number): Promise<TwoFactorRow | undefined> {
  const rows = await db.query<TwoFactorRow>(
    'SELECT user_id, secret_encrypted, confirmed_at, last_step FROM user_two_factor WHERE user_id = $1',
    [userId],
  );
  return rows[0];
}

/** A new, unconfirmed secret; replaces an earlier unconfirmed one, never a confirmed one. */
export async function saveUnconfirmedSecret(tx: Queryable, userId: number, secretEncrypted: string): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO user_two_factor AS f (user_id, secret_encrypted) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret_encrypted = EXCLUDED.secret_encrypted, last_step = NULL,
            created_at = now()
      WHERE f.confirmed_at IS NULL
     RETURNING user_id`,
    [userId, secretEncrypted],
  );
  return rows.length > 0;
}

/** Marks the waiting secret confirmed by the code of `step`; false when it was confirmed meanwhile. */
export async function confirmSecret(tx: Queryable, userId: number, step: number): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE user_two_factor SET confirmed_at = now(), last_step = $2
      WHERE user_id = $1 AND confirmed_at IS NULL RETURNING user_id`,
    [userId, step],
  );
  return rows.length > 0;
}

/**
 * Takes the time step of an accepted code, once: a code of that step or an earlier one finds no row,
 * so two sign-ins racing with one code let only one in.
 */
export async function claimStep(db: Queryable, userId: number, step: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE user_two_factor SET last_step = $2
      WHERE user_id = $1 AND confirmed_at IS NOT NULL AND (last_step IS NULL OR last_step < $2)
     RETURNING user_id`,
    [userId, step],
  );
  return rows.length > 0;
}

export async function replaceRecoveryCodes(tx: Queryable, userId: number, codeHashes: string[]): Promise<void> {
  await tx.query('DELETE FROM two_factor_recovery_codes WHERE user_id = $1', [userId]);
  await tx.query(
    `INSERT INTO two_factor_recovery_codes (user_id, code_hash)
     SELECT $1, h FROM unnest($2::text[]) AS h`,
    [userId, codeHashes],
  );
}

/** Spends one unused recovery code; false when there is none with that hash (wrong, or used already). */
export async function useRecoveryCode(db: Queryable, userId: number, codeHash: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE two_factor_recovery_codes SET used_at = now()
      WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id`,
    [userId, codeHash],
  );
  return rows.length > 0;
}

export async function countUnusedRecoveryCodes(db: Queryable, userId: number): Promise<number> {
  const rows = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM two_factor_recovery_codes WHERE user_id = $1 AND used_at IS NULL',
    [userId],
  );
  return rows[0]?.count ?? 0;
}

/** Removes the authenticator and the recovery codes; false when there was nothing to remove. */
export async function deleteTwoFactor(tx: Queryable, userId: number): Promise<boolean> {
  await tx.query('DELETE FROM two_factor_recovery_codes WHERE user_id = $1', [userId]);
  const rows = await tx.query('DELETE FROM user_two_factor WHERE user_id = $1 RETURNING user_id', [userId]);
  return rows.length > 0;
}

export async function findUserSummary(
  db: Queryable,
  userId: number,
): Promise<{ id: number; username: string; full_name: string; role: string } | undefined> {
  const rows = await db.query<{ id: number; username: string; full_name: string; role: string }>(
    'SELECT id, username, full_name, role FROM users WHERE id = $1',
    [userId],
  );
  return rows[0];
}

// ---- Keys (ADR 017): converting what older versions stored, and turning two-factor off wholesale ----

/** Secrets still sealed the old way (`v1.`, under a key derived from the signing secret). */
export async function findLegacySecrets(db: Queryable): Promise<{ user_id: number; secret_encrypted: string }[]> {
  return db.query<{ user_id: number; secret_encrypted: string }>(
    `SELECT user_id, secret_encrypted FROM user_two_factor WHERE secret_encrypted LIKE 'v1.%' ORDER BY user_id`,
  );
}

export async function replaceSecret(tx: Queryable, userId: number, secretEncrypted: string): Promise<void> {
  await tx.query('UPDATE user_two_factor SET secret_encrypted = $2 WHERE user_id = $1', [userId, secretEncrypted]);
}

/** Recovery codes still stored as bare SHA-256 hex. */
export async function findLegacyRecoveryHashes(db: Queryable): Promise<{ id: number; code_hash: string }[]> {
  return db.query<{ id: number; code_hash: string }>(
    `SELECT id, code_hash FROM two_factor_recovery_codes WHERE code_hash ~ '^[0-9a-f]{64}$' ORDER BY id`,
  );
}

export async function replaceRecoveryHashes(tx: Queryable, ids: number[], codeHashes: string[]): Promise<void> {
  await tx.query(
    `UPDATE two_factor_recovery_codes AS r SET code_hash = n.code_hash
       FROM unnest($1::int[], $2::text[]) AS n (id, code_hash)
      WHERE r.id = n.id`,
    [ids, codeHashes],
  );
}

/**
 * Turns two-factor sign-in off for these accounts (all that have it, when `userIds` is undefined),
 * recording why (the activity text's code) in one activity row per account; answers whose it was.
 */
export async function resetTwoFactorOf(
  tx: Queryable,
  userIds: number[] | undefined,
  actor: string,
  why: 'two_factor.reset_other_installation' | 'two_factor.reset_unreadable_secret',
): Promise<{ id: number; full_name: string }[]> {
  const reset = await tx.query<{ id: number; full_name: string }>(
    `WITH gone AS (
       DELETE FROM user_two_factor WHERE $1::int[] IS NULL OR user_id = ANY($1::int[]) RETURNING user_id
     )
     SELECT u.id, u.full_name FROM gone JOIN users u ON u.id = gone.user_id ORDER BY u.id`,
    [userIds ?? null],
  );
  await tx.query('DELETE FROM two_factor_recovery_codes WHERE $1::int[] IS NULL OR user_id = ANY($1::int[])', [
    userIds ?? null,
  ]);
  for (const user of reset) {
    await recordActivity(tx, { id: null, full_name: actor }, 'two_factor.reset', why, { name: user.full_name });
  }
  return reset;
}
