import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Queryable } from '../../src/db/database';
import { base32Decode, hotp, timeStep, totp } from '../../src/modules/auth/two-factor/totp';
import { auth } from './test-app';

/** Sets up and confirms an authenticator for the account; answers its secret, recovery codes and new token. */
export async function enrol(
  app: FastifyInstance,
  token: string,
): Promise<{ secret: Buffer; recoveryCodes: string[]; token: string }> {
  const setup = await app.inject({ method: 'POST', url: '/api/v1/auth/two-factor/setup', headers: auth(token) });
  expect(setup.statusCode).toBe(200);
  const secret = base32Decode(setup.json().secret) as Buffer;
  const confirmed = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/two-factor/confirm',
    headers: auth(token),
    payload: { otp: totp(secret, Date.now()) },
  });
  expect(confirmed.statusCode).toBe(200);
  const body = confirmed.json() as { recovery_codes: string[]; access_token?: string };
  return { secret, recoveryCodes: body.recovery_codes, token: body.access_token ?? token };
}

/**
 * A code the server will take now. A code's time step can be used once, and tests sign in many times
 * within 30 seconds, so the last accepted step is moved back first, as if it had been minutes ago.
 */
export async function freshCode(db: Queryable, userId: number, secret: Buffer): Promise<string> {
  await db.query('UPDATE user_two_factor SET last_step = last_step - 5 WHERE user_id = $1', [userId]);
  return totp(secret, Date.now());
}

/** Six digits that are not the code of any step near now; `n` picks another one. */
export function wrongCode(secret: Buffer, n = 0): string {
  const step = timeStep(Date.now());
  const near = new Set([-2, -1, 0, 1, 2].map((offset) => hotp(secret, step + offset)));
  let skipped = 0;
  for (let candidate = 0; ; candidate += 1) {
    const code = String(candidate).padStart(6, '0');
    if (near.has(code)) continue;
    if (skipped === n) return code;
    skipped += 1;
  }
}
