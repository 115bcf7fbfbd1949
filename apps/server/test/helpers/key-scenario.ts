/**
 * What the key tests (ADR 017) share: an installation with something of every kind a key protects
 * (a signed-in admin, a teacher with two-factor on, a parent signed in on a device that takes pushes),
 * signing in against any app built on it, and a database in the state an older TuitionDesk left.
 */
import { createCipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import webpush from 'web-push';
import type { Database, Queryable } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { hashPassword } from '../../src/lib/passwords';
import { generateSecret, totp } from '../../src/modules/auth/two-factor/totp';
import { enrol } from './authenticator';
import { auth, familyWithCode, login, signInNewTeacher } from './test-app';

export interface Installation {
  adminToken: string;
  teacher: { id: number; username: string; password: string; secret: Buffer; recoveryCodes: string[] };
  parent: { phone: string; code: string; token: string };
}

let addressCounter = 0;
/** Each sign-in from its own address, so the per-address throttle stays out of the way. */
function nextAddress(): string {
  addressCounter += 1;
  return `10.77.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

export function signIn(app: FastifyInstance, fields: Record<string, string>): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
    remoteAddress: nextAddress(),
  });
}

export function parentSignIn(app: FastifyInstance, phone: string, code: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/v1/parent/login',
    payload: { phone, code },
    remoteAddress: nextAddress(),
  });
}

export function get(app: FastifyInstance, url: string, token: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: `/api/v1${url}`, headers: auth(token) });
}

/**
 * A code the server takes now. A time step is accepted once, and these tests sign in several times
 * within 30 seconds: the last accepted step is moved back first, as if minutes had passed.
 */
export async function freshCode(db: Queryable, userId: number, secret: Buffer): Promise<string> {
  await db.query('UPDATE user_two_factor SET last_step = last_step - 5 WHERE user_id = $1', [userId]);
  return totp(secret, Date.now());
}

/**
 * The teacher signs in on `app` with their password and a current authenticator code, and again with
 * one of their recovery codes: two-factor works with the keys this app holds.
 */
export async function expectTwoFactorSignIns(
  app: FastifyInstance,
  db: Queryable,
  teacher: Installation['teacher'],
  recoveryCode: number,
): Promise<void> {
  const { username, password } = teacher;
  const withCode = await signIn(app, { username, password, otp: await freshCode(db, teacher.id, teacher.secret) });
  expect(withCode.statusCode, withCode.body).toBe(200);
  const recovery = await signIn(app, { username, password, otp: teacher.recoveryCodes[recoveryCode] as string });
  expect(recovery.statusCode, recovery.body).toBe(200);
}

/** Fills the app's database with one of everything the keys protect, through the API. */
export async function populate(app: FastifyInstance, db: Queryable, adminPassword: string): Promise<Installation> {
  const adminToken = await login(app, 'admin', adminPassword);

  const teacher = await signInNewTeacher(app, db, adminToken, { first_name: 'Tara', last_name: 'Totp' });
  const { secret, recoveryCodes } = await enrol(app, teacher.token);

  const { phone, code } = await familyWithCode(app, adminToken, { full_name: 'Kiran Das' });
  const parentLogin = await parentSignIn(app, phone, code);
  if (parentLogin.statusCode !== 200) throw new Error(`parent login: ${parentLogin.statusCode} ${parentLogin.body}`);
  // A device that allowed notifications (as the parent app registers one; the push service is not called here).
  const device = webpush.generateVAPIDKeys();
  await db.query(
    `INSERT INTO push_subscriptions (phone, endpoint, p256dh, auth, user_agent) VALUES ($1, $2, $3, $4, 'Firefox')`,
    [
      phone,
      `https://updates.push.services.mozilla.com/wpush/v2/${randomBytes(16).toString('hex')}`,
      device.publicKey,
      randomBytes(16).toString('base64url'),
    ],
  );

  return {
    adminToken,
    teacher: { id: teacher.id, username: teacher.username, password: teacher.password, secret, recoveryCodes },
    parent: { phone, code, token: parentLogin.json().access_token },
  };
}

// ---- The state a TuitionDesk from before ADR 017 left in the database ----

export interface LegacyState {
  /** settings.jwt_secret */
  signingSecret: string;
  vapid: { publicKey: string; privateKey: string };
  teacher: { id: number; username: string; password: string; secret: Buffer; recoveryCodes: string[] };
}

/** The teacher's session token as the code before ADR 017 signed it: HS256 over the secret in settings. */
export function legacySessionToken(state: LegacyState): Promise<string> {
  return new SignJWT({ ver: 0 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(state.teacher.id))
    .setIssuedAt()
    .setExpirationTime('1h')
    .setAudience('tuitiondesk-staff')
    .sign(new TextEncoder().encode(state.signingSecret));
}

/** v1 as the code before ADR 017 sealed it: AES-256-GCM under HKDF-SHA256(signing secret), the user id as associated data. */
export function sealV1(signingSecret: string, userId: number, secret: Buffer): string {
  const key = Buffer.from(hkdfSync('sha256', signingSecret, '', 'tuitiondesk/two-factor-secret/v1', 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`user:${userId}`));
  const body = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
  return `v1.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * On a migrated database nobody has started a server on: the signing secret and the VAPID pair in
 * `settings`, and a teacher whose authenticator is sealed under that secret (or under `sealedWith`,
 * a JWT_SECRET of the time) with recovery codes as bare SHA-256.
 */
export async function writeLegacyState(
  db: Database,
  options: { username?: string; sealedWith?: string; signingSecret?: string } = {},
): Promise<LegacyState> {
  await migrate(db);
  const signingSecret = options.signingSecret ?? randomBytes(32).toString('base64url');
  const vapid = webpush.generateVAPIDKeys();
  await db.query(
    `INSERT INTO settings (key, value) VALUES ('jwt_secret', $1), ('vapid_keys', $2)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [signingSecret, JSON.stringify({ publicKey: vapid.publicKey, privateKey: vapid.privateKey })],
  );
  const username = options.username ?? 'legacy.teacher';
  const password = 'legacy-teacher-password';
  const [user] = await db.query<{ id: number }>(
    `INSERT INTO users (username, full_name, role, password_hash) VALUES ($1, 'Lena Legacy', 'teacher', $2) RETURNING id`,
    [username, await hashPassword(password)],
  );
  const id = user?.id as number;
  const secret = generateSecret();
  await db.query(
    `INSERT INTO user_two_factor (user_id, secret_encrypted, confirmed_at, last_step) VALUES ($1, $2, now(), NULL)`,
    [id, sealV1(options.sealedWith ?? signingSecret, id, secret)],
  );
  const recoveryCodes = ['ABCDE-FGHJK', 'MNPQR-STVWX', '01234-56789'];
  await db.query(
    `INSERT INTO two_factor_recovery_codes (user_id, code_hash) SELECT $1, h FROM unnest($2::text[]) AS h`,
    [id, recoveryCodes.map((code) => sha256Hex(code.replace('-', '')))],
  );
  return {
    signingSecret,
    vapid: { publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    teacher: { id, username, password, secret, recoveryCodes },
  };
}
