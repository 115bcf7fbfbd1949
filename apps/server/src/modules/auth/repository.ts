import type { Role, User } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

export interface UserRow extends User {
  password_hash: string;
  token_version: number;
  /** A confirmed authenticator: sign-in asks for a code. */
  two_factor_enabled: boolean;
  /** An admin while the centre requires two-factor sign-in of every admin. */
  two_factor_required: boolean;
  /** Switched off by another admin (ADR 046): no sign-in, no session. */
  disabled: boolean;
}

// The two-factor columns ride on the lookup every request makes, so the enrolment gate costs no query.
const USER_COLUMNS = `u.id, u.username, u.full_name, u.role, u.must_change_password, u.language, u.token_version, u.password_hash,
  (u.disabled_at IS NOT NULL) AS disabled,
  (SELECT t.email FROM teachers t WHERE t.user_id = u.id) AS email,
  EXISTS (SELECT 1 FROM user_two_factor f WHERE f.user_id = u.id AND f.confirmed_at IS NOT NULL) AS two_factor_enabled,
  (u.role = 'admin' AND EXISTS (SELECT 1 FROM settings s WHERE s.key = 'require_admin_two_factor' AND s.value = 'true'))
    AS two_factor_required`;

/** Every authenticated request asks this: the embedded database answers it from its read cache until a write. */
export async function findUserById(db: Queryable, id: number): Promise<UserRow | undefined> {
  const rows = await db.queryCached<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1`, [id]);
  return rows[0];
}

/** By username (any case), or by the email on a teacher's record. */
export async function findUserByLogin(db: Queryable, login: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM users u
      WHERE lower(u.username) = lower($1)
         OR u.id = (SELECT t.user_id FROM teachers t WHERE lower(t.email) = lower($1))
      ORDER BY (lower(u.username) = lower($1)) DESC
      LIMIT 1`,
    [login],
  );
  return rows[0];
}

export async function countUsers(db: Queryable): Promise<number> {
  const rows = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
  return rows[0]?.count ?? 0;
}

export async function insertUser(
  db: Queryable,
  user: { username: string; full_name: string; role: Role; password_hash: string; must_change_password: boolean },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO users (username, full_name, role, password_hash, must_change_password)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [user.username, user.full_name, user.role, user.password_hash, user.must_change_password],
  );
  return (rows[0] as { id: number }).id;
}

/** Sets a new password and bumps the token version, which ends every session issued before. */
export async function updatePassword(db: Queryable, userId: number, passwordHash: string): Promise<number> {
  const rows = await db.query<{ token_version: number }>(
    `UPDATE users SET password_hash = $2, must_change_password = false, token_version = token_version + 1,
            updated_at = now()
      WHERE id = $1 RETURNING token_version`,
    [userId, passwordHash],
  );
  return rows[0]?.token_version ?? 0;
}

/** The account's language (null: not chosen); answers false when there is no such account. */
export async function updateLanguage(db: Queryable, userId: number, language: string | null): Promise<boolean> {
  const rows = await db.query<{ id: number }>(
    'UPDATE users SET language = $2, updated_at = now() WHERE id = $1 AND language IS DISTINCT FROM $2 RETURNING id',
    [userId, language],
  );
  return rows.length > 0;
}

/** Ends every session of the account issued before; answers the new version, for the caller's new token. */
export async function endSessions(db: Queryable, userId: number): Promise<number | undefined> {
  const rows = await db.query<{ token_version: number }>(
    'UPDATE users SET token_version = token_version + 1, updated_at = now() WHERE id = $1 RETURNING token_version',
    [userId],
  );
  return rows[0]?.token_version;
}

/**
 * Stores a stronger hash of the same password (no session ends), unless the password was changed
 * meanwhile: only the hash that was checked is replaced.
 */
export async function replacePasswordHash(db: Queryable, userId: number, checked: string, passwordHash: string) {
  await db.query('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [
    userId,
    checked,
    passwordHash,
  ]);
}
