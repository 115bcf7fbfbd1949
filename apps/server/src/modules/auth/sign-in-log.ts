import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database';
import { recordAudit } from '../../lib/audit-log';
import { AppError, TooManyRequestsError } from '../../lib/errors';
import { ENTER_CODE } from './service';

export type SignInKind = 'staff' | 'parent' | 'two-factor-off';

/**
 * Security events (ASVS 16.3.1, 16.3.3): the outcome of every attempt at a secret (a staff sign-in, a
 * parent's access code, turning two-factor off), with the name or phone tried and the address the
 * throttle counted; never the secret. Failures the error handler logs itself (5xx) are left to it.
 */
export async function logSignIn<T>(
  db: Queryable,
  request: Pick<FastifyRequest, 'log' | 'ip' | 'user'>,
  kind: SignInKind,
  subject: string,
  attempt: () => Promise<T>,
): Promise<T> {
  const event = { event: 'sign-in', kind, subject: subject.slice(0, 120), address: request.ip };
  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    if (error instanceof AppError && error.statusCode < 500) {
      const outcome = error instanceof TooManyRequestsError ? 'throttled' : 'refused';
      request.log.warn({ ...event, outcome, reason: error.message }, `sign-in ${outcome}`);
      if (outcome === 'refused' && !isCodeAsked(error)) await auditRefused(db, request, event, error.message);
    }
    throw error;
  }
  request.log.info({ ...event, outcome: 'accepted' }, 'sign-in accepted');
  await auditAccepted(db, event, result);
  return result;
}

/** The first step of a sign-in with two-factor (the password was right, the code is asked for): not a failure. */
function isCodeAsked(error: AppError): boolean {
  return error.statusCode === 401 && error.code === ENTER_CODE;
}

type SignInEvent = { kind: SignInKind; subject: string };

/**
 * Refused attempts are audited (a wrong password, code or access code), each bounded by the
 * throttle; throttled ones (429) are only logged, so a flood cannot grow the audit log (ADR 025).
 * The name or phone tried is kept, never the secret.
 */
async function auditRefused(
  db: Queryable,
  request: Pick<FastifyRequest, 'user'>,
  event: SignInEvent,
  reason: string,
): Promise<void> {
  const user = request.user;
  await recordAudit(db, {
    entity: 'sign_in',
    action: 'sign_in_failed',
    record_id: user?.id ?? null,
    actor: { id: user?.id ?? null, name: user?.full_name ?? null },
    after: { kind: event.kind, tried: event.subject, reason },
  });
}

/** A staff or parent sign-in (turning two-factor off is audited as the change it makes). */
async function auditAccepted(db: Queryable, event: SignInEvent, result: unknown): Promise<void> {
  if (event.kind === 'two-factor-off') return;
  const user = (result as { user?: { id?: unknown; full_name?: unknown } } | null)?.user;
  const isStaff = event.kind === 'staff' && typeof user?.id === 'number';
  await recordAudit(db, {
    entity: 'sign_in',
    action: 'sign_in',
    record_id: isStaff ? (user?.id as number) : event.subject,
    actor: isStaff
      ? { id: user?.id as number, name: typeof user?.full_name === 'string' ? user.full_name : null }
      : { id: null, name: `Parent ${event.subject}` },
    after: { kind: event.kind, [isStaff ? 'username' : 'phone']: event.subject },
  });
}
