import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { TokenClaims } from '../../lib/tokens';
import { keptSession } from '../../lib/versioned-answer';
import { findUserById } from './repository';
import { type AuthenticatedUser, publicUser } from './user';

/**
 * The staff member a verified token speaks for, or undefined when that session has ended: the
 * account is gone, or its token version moved on (a password change, two-factor sign-in turned on or
 * off or reset by an admin) since the token was signed. Every request asks, so the account is kept
 * under the versions of what it is read from (accounts, a teacher's email, the two-factor setting):
 * a check costs the request's one look at the versions until a write changes one of them, on any
 * instance.
 */
export async function findStaffSession(
  ctx: AppContext,
  request: FastifyRequest,
  claims: TokenClaims,
): Promise<AuthenticatedUser | undefined> {
  return keptSession(
    ctx,
    request,
    ['accounts', 'teachers', 'settings'],
    `staff=${claims.userId}`,
    claims.tokenVersion,
    async () => {
      const user = await findUserById(ctx.db, claims.userId);
      return user && !user.disabled ? { token_version: user.token_version, session: publicUser(user) } : null;
    },
  );
}
