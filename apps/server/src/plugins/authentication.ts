import type { Role, User } from '@tuitiondesk/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { ForbiddenError, UnauthorizedError } from '../lib/errors';
import type { ParentTokenClaims, TokenClaims } from '../lib/tokens';

/** The staff member a request is signed in as: the user as the API shows it. */
export type AuthenticatedUser = User;

/** A signed-in parent: the phone whose children and messages the token reaches. */
export interface AuthenticatedParent {
  phone: string;
}

/**
 * Whose session a verified token is (undefined: that session has ended). The auth and parents modules
 * answer; the app hands their answers in, so this plugin imports no module.
 */
export interface SessionLookups {
  staff(ctx: AppContext, request: FastifyRequest, claims: TokenClaims): Promise<AuthenticatedUser | undefined>;
  parent(ctx: AppContext, request: FastifyRequest, claims: ParentTokenClaims): Promise<AuthenticatedParent | undefined>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a token (login, health). */
    isPublic?: boolean;
    /** Roles allowed; every staff role when absent. */
    roles?: readonly Role[];
    /** Who may call: staff (the default) or parents with a parent token. */
    audience?: 'staff' | 'parent';
    /**
     * Reachable by an admin who must set up two-factor sign-in and has not yet (the centre requires
     * it): their own account and the two-factor calls. Every other call answers 403 until they do.
     */
    beforeTwoFactorEnrolment?: boolean;
    /**
     * Reachable by an account that must change its password first (the first admin, a new teacher):
     * its own account and the password change. The two-factor enrolment calls are reachable too when
     * the centre requires two-factor sign-in of that account. Every other call answers 403 until then.
     */
    beforePasswordChange?: boolean;
  }
  interface FastifyRequest {
    user: AuthenticatedUser | null;
    parent: AuthenticatedParent | null;
  }
}

const STAFF_ROLES: readonly Role[] = ['admin', 'teacher'];

/** The config of a route for admins only: a teacher gets 403. */
export const adminOnly = { roles: ['admin'] } as const;

/** The config of a route of the parent app: a parent token only (a staff token gets 403). */
export const parentOnly = { audience: 'parent' } as const;

/** The signed-in user of a route that required one. */
export function currentUser(request: { user: AuthenticatedUser | null }): AuthenticatedUser {
  if (!request.user) throw new UnauthorizedError();
  return request.user;
}

/** The signed-in parent of a parent route. */
export function currentParent(request: { parent: AuthenticatedParent | null }): AuthenticatedParent {
  if (!request.parent) throw new UnauthorizedError();
  return request.parent;
}

const SESSION_ENDED = 'auth.session_ended';
export const ENROL_FIRST = 'auth.enrol_two_factor_first';
export const CHANGE_PASSWORD_FIRST = 'auth.change_password_first';

/**
 * Default deny: every API route needs a valid token, and the route's roles, unless it says it is
 * public. Runs at onRequest, before the body is read or validated, so a caller without the right
 * gets 401/403 and no work is done for them.
 */
export function registerAuthentication(app: FastifyInstance, ctx: AppContext, sessions: SessionLookups): void {
  app.decorateRequest('user', null);
  app.decorateRequest('parent', null);
  app.addHook('onRequest', async (request) => {
    const routeUrl = request.routeOptions.url;
    const config = request.routeOptions.config;
    if (!routeUrl?.startsWith('/api/v1/') || config.isPublic) return;

    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match?.[1]) throw new UnauthorizedError('auth.not_authenticated');
    const token = match[1];

    if (config.audience === 'parent') {
      const parentClaims = await ctx.tokens.verifyParent(token);
      if (!parentClaims) {
        if (await ctx.tokens.verify(token)) throw new ForbiddenError('auth.parents_only');
        throw new UnauthorizedError(SESSION_ENDED);
      }
      const parent = await sessions.parent(ctx, request, parentClaims);
      if (!parent) throw new UnauthorizedError(SESSION_ENDED);
      request.parent = parent;
      return;
    }

    const claims = await ctx.tokens.verify(token);
    if (!claims) {
      if (await ctx.tokens.verifyParent(token)) {
        throw new ForbiddenError('auth.staff_only');
      }
      throw new UnauthorizedError(SESSION_ENDED);
    }
    const signedIn = await sessions.staff(ctx, request, claims);
    if (!signedIn) throw new UnauthorizedError(SESSION_ENDED);
    // The password first, whatever the call: until then the account can do nothing else (ADR 021).
    if (signedIn.must_change_password && !config.beforePasswordChange) {
      const isRequiredEnrolment = signedIn.must_enrol_two_factor && config.beforeTwoFactorEnrolment;
      if (!isRequiredEnrolment) throw new ForbiddenError(CHANGE_PASSWORD_FIRST);
    }
    const roles = config.roles ?? STAFF_ROLES;
    if (!roles.includes(signedIn.role)) throw new ForbiddenError('auth.forbidden');
    request.user = signedIn;
    if (signedIn.must_enrol_two_factor && !config.beforeTwoFactorEnrolment) throw new ForbiddenError(ENROL_FIRST);
  });
}
