import type { AdminAccount, Role } from '@tuitiondesk/contract';
import { jsonTimestamp, type Queryable } from '../../db/database';

/** What the account rules need to know of an account. */
export interface AccountSummary {
  id: number;
  username: string;
  full_name: string;
  role: Role;
  disabled: boolean;
}

const SUMMARY = 'id, username, full_name, role, (disabled_at IS NOT NULL) AS disabled';

export async function findAccount(db: Queryable, userId: number): Promise<AccountSummary | undefined> {
  const rows = await db.query<AccountSummary>(`SELECT ${SUMMARY} FROM users WHERE id = $1`, [userId]);
  return rows[0];
}

export async function findAccountByUsername(db: Queryable, username: string): Promise<AccountSummary | undefined> {
  const rows = await db.query<AccountSummary>(`SELECT ${SUMMARY} FROM users WHERE lower(username) = lower($1)`, [
    username,
  ]);
  return rows[0];
}

/**
 * A new password the account must change at its next sign-in; the token version moves on, so every
 * session it had ends. Answers the account, or undefined when there is none.
 */
export async function setGivenPassword(
  db: Queryable,
  userId: number,
  passwordHash: string,
): Promise<AccountSummary | undefined> {
  const rows = await db.query<AccountSummary>(
    `UPDATE users SET password_hash = $2, must_change_password = true, token_version = token_version + 1,
            updated_at = now()
      WHERE id = $1 RETURNING ${SUMMARY}`,
    [userId, passwordHash],
  );
  return rows[0];
}

/**
 * Locks every admin account until the transaction ends and answers how many are in use. Two admins
 * switching each other off at once queue here; the second sees the first one's change (ADR 046).
 */
export async function lockAdmins(tx: Queryable): Promise<AccountSummary[]> {
  return tx.query<AccountSummary>(`SELECT ${SUMMARY} FROM users WHERE role = 'admin' ORDER BY id FOR UPDATE`);
}

export async function adminAccounts(db: Queryable): Promise<AdminAccount[]> {
  return db.query<AdminAccount>(
    `SELECT u.id, u.username, u.full_name, (u.disabled_at IS NOT NULL) AS disabled, u.must_change_password,
            EXISTS (SELECT 1 FROM user_two_factor f WHERE f.user_id = u.id AND f.confirmed_at IS NOT NULL)
              AS two_factor_enabled,
            ${jsonTimestamp('u.created_at')} AS created_at
       FROM users u WHERE u.role = 'admin' ORDER BY u.id`,
  );
}

export async function insertAdmin(
  tx: Queryable,
  admin: { username: string; full_name: string; password_hash: string },
): Promise<number> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO users (username, full_name, role, password_hash, must_change_password)
     VALUES ($1, $2, 'admin', $3, true) RETURNING id`,
    [admin.username, admin.full_name, admin.password_hash],
  );
  return (rows[0] as { id: number }).id;
}

/** Switching off also ends the account's sessions; switching back on leaves nothing to end. */
export async function setDisabled(tx: Queryable, userId: number, disabled: boolean): Promise<void> {
  await tx.query(
    `UPDATE users SET disabled_at = CASE WHEN $2::boolean THEN coalesce(disabled_at, now()) END,
            token_version = token_version + CASE WHEN $2::boolean AND disabled_at IS NULL THEN 1 ELSE 0 END,
            updated_at = now()
      WHERE id = $1`,
    [userId, disabled],
  );
}

export async function deleteAccount(tx: Queryable, userId: number): Promise<void> {
  await tx.query('DELETE FROM users WHERE id = $1', [userId]);
}
