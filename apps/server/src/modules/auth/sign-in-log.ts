import type { FastifyRequest } from 'fastify';
import { AppError, TooManyRequestsError } from '../../lib/errors';

export type SignInKind = 'staff' | 'parent' | 'two-factor-off';

/**
 * Security events (ASVS 16.3.1, 16.3.3): the outcome of every attempt at a secret (a staff sign-in, a
 * parent's access code, turning two-factor off), with the name or phone tried and the address the
 * throttle counted; never the secret. Failures the error handler logs itself (5xx) are left to it.
 */
export async function logSignIn<T>(
  request: Pick<FastifyRequest, 'log' | 'ip'>,
  kind: SignInKind,
  subject: string,
  attempt: () => Promise<T>,
): Promise<T> {
  const event = { event: 'sign-in', kind, subject: subject.slice(0, 120), address: request.ip };
  try {
    const result = await attempt();
    request.log.info({ ...event, outcome: 'accepted' }, 'sign-in accepted');
    return result;
  } catch (error) {
    if (error instanceof AppError && error.statusCode < 500) {
      const outcome = error instanceof TooManyRequestsError ? 'throttled' : 'refused';
      request.log.warn({ ...event, outcome, reason: error.message }, `sign-in ${outcome}`);
    }
    throw error;
  }
}
