import type { Role, TwoFactorSetup, TwoFactorStatus, User } from '@tuitiondesk/contract';
import { TOKEN_KEY } from '../lib/api-client';
import { user } from './factories';
import { type FakeCall, type FakeReply, type FakeRoute, fakeApi } from './fake-api';

/** An account's two-factor sign-in, off unless the test says otherwise. */
export function twoFactorStatus(fields: Partial<TwoFactorStatus> = {}): TwoFactorStatus {
  return {
    enabled: false,
    enabled_at: null,
    setup_pending: false,
    recovery_codes_left: 0,
    required: false,
    required_for_admins: false,
    ...fields,
  };
}

/** On since 20 Nov 2026, with 8 recovery codes left. */
export const twoFactorOn = (fields: Partial<TwoFactorStatus> = {}): TwoFactorStatus =>
  twoFactorStatus({ enabled: true, enabled_at: '2026-11-20T10:00:00+05:30', recovery_codes_left: 8, ...fields });

export const SETUP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const SETUP_QR = `data:image/svg+xml;base64,${btoa('<svg xmlns="http://www.w3.org/2000/svg"/>')}`;
/** The one code the fake server takes as right. */
export const RIGHT_CODE = '123456';
export const RECOVERY_CODES = Array.from({ length: 10 }, (_, i) => `ABCD${i}-EFGH${i}`);

const SETUP: TwoFactorSetup = {
  secret: SETUP_SECRET,
  otpauth_uri: 'otpauth://totp/x',
  qr_code: SETUP_QR,
  digits: 6,
  period: 30,
};

interface Options {
  role: Role;
  status: TwoFactorStatus;
  /** More about the account (its flags of two-factor sign-in follow `status`). */
  fields?: Partial<User>;
  /** Answers that replace the server's own, by `'METHOD /path'`. */
  routes?: Record<string, FakeRoute>;
  /** Answers every call the server does not know; 404 by default. */
  otherwise?: FakeRoute;
}

/**
 * Fakes a server holding the two-factor sign-in of one account of `role`, returned as `account` to sign
 * in with. As the real one does, turning it on or off ends every session but the caller's, which gets a
 * new token: from then on a call that does not carry it is refused (401).
 */
export function fakeTwoFactorServer({ role, status: initial, fields, routes = {}, otherwise }: Options) {
  let status = initial;
  // The token signed in with, until the server hands over a new one.
  let currentToken: string | null = null;
  const token = () => {
    currentToken ??= localStorage.getItem(TOKEN_KEY);
    return currentToken;
  };
  const account = (): User =>
    user(role, {
      ...fields,
      two_factor_enabled: status.enabled,
      must_enrol_two_factor: status.required && !status.enabled,
    });

  const server: Record<string, FakeRoute> = {
    'GET /auth/me': () => [200, account()],
    'GET /auth/two-factor': () => [200, status],
    'POST /auth/two-factor/setup': () => {
      status = { ...status, setup_pending: true };
      return [200, SETUP];
    },
    'POST /auth/two-factor/confirm': ({ body }) => {
      if ((body as { otp: string }).otp !== RIGHT_CODE) return [400, { detail: 'That code is not right.' }];
      status = { ...status, enabled: true, setup_pending: false, recovery_codes_left: RECOVERY_CODES.length };
      currentToken = 'token-after-enrolling';
      return [200, { message: 'on', recovery_codes: RECOVERY_CODES, access_token: currentToken, token_type: 'bearer' }];
    },
    'POST /auth/two-factor/disable': () => {
      status = twoFactorStatus({ required_for_admins: status.required_for_admins });
      currentToken = 'token-after-turning-off';
      return [200, { message: 'Two-factor sign-in is off.', access_token: currentToken, token_type: 'bearer' }];
    },
    'PUT /settings/two-factor': ({ body }) => {
      const next = (body as { require_admin_two_factor: boolean }).require_admin_two_factor;
      status = { ...status, required_for_admins: next, required: role === 'admin' && next };
      return [200, { require_admin_two_factor: next }];
    },
    ...routes,
  };
  const withToken =
    (route: FakeRoute): FakeRoute =>
    (call: FakeCall): FakeReply | Promise<FakeReply> =>
      call.headers.get('authorization') === `Bearer ${token()}`
        ? route(call)
        : [401, { detail: 'Your session has ended' }];
  const guarded = Object.fromEntries(Object.entries(server).map(([name, route]) => [name, withToken(route)]));
  const { calls } = fakeApi(guarded, { otherwise: withToken(otherwise ?? (() => [404, { detail: 'Not found' }])) });
  return { calls, account: account() };
}
