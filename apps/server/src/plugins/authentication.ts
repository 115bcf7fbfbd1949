import type { Role, User } from '@tuitiondesk/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { ForbiddenError, UnauthorizedError } from '../lib/errors';
import { findUserById } from '../modules/auth/repository';

export type AuthenticatedUser = User;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a token (login, health). */
    isPublic?: boolean;
    /** Roles allowed; every staff role when absent. */
    roles?: readonly Role[];
  }
  interface FastifyRequest {
    user: AuthenticatedUser | null;
  }
}

const STAFF_ROLES: readonly Role[] = ['admin', 'teacher'];

/** The signed-in user of a route that required one. */
export function currentUser(request: { user: AuthenticatedUser | null }): AuthenticatedUser {
  if (!request.user) throw new UnauthorizedError();
  return request.user;
}

/**
 * Default deny: every API route needs a valid token, and the route's roles, unless it says it is
 * public. Runs at onRequest, before the body is read or validated, so a caller without the right
 * gets 401/403 and no work is done for them.
 */
export function registerAuthentication(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    const routeUrl = request.routeOptions.url;
    if (!routeUrl?.startsWith('/api/v1/') || request.routeOptions.config.isPublic) return;

    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match?.[1]) throw new UnauthorizedError('Not authenticated');
    const claims = await ctx.tokens.verify(match[1]);
    if (!claims) throw new UnauthorizedError('Your session is invalid or has expired. Please sign in again.');
    const user = await findUserById(ctx.db, claims.userId);
    if (!user || user.token_version !== claims.tokenVersion) {
      throw new UnauthorizedError('Your session is invalid or has expired. Please sign in again.');
    }
    const roles = request.routeOptions.config.roles ?? STAFF_ROLES;
    if (!roles.includes(user.role)) throw new ForbiddenError('You do not have permission to do this');
    request.user = {
      id: user.id,
      username: user.username,
      full_name: user.full_name,
      role: user.role,
      email: user.email,
      must_change_password: user.must_change_password,
    };
  });
}
