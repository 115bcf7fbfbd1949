import type { AppContext } from '../../context';
import type { TokenClaims } from '../../lib/tokens';
import { findUserById } from './repository';
import { type AuthenticatedUser, publicUser } from './user';

/**
 * The staff member a verified token speaks for, or undefined when that session has ended: the
 * account is gone, or its token version moved on (a password change, two-factor sign-in turned on or
 * off or reset by an admin) since the token was signed.
 */
export async function findStaffSession(ctx: AppContext, claims: TokenClaims): Promise<AuthenticatedUser | undefined> {
  const user = await findUserById(ctx.db, claims.userId);
  if (!user || user.token_version !== claims.tokenVersion) return undefined;
  return publicUser(user);
}
