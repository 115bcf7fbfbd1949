import { z } from 'zod';

/**
 * Online payment's settings (ADR 053), read with the rest of the environment by config.ts: the three
 * secrets all set (online payment on) or none (off, and the console says so); one or two set is a
 * mistake the server refuses to start with. The secrets live in the environment only: never in the
 * database, so never in a backup, and never logged.
 */

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

export const RAZORPAY_ENV = {
  RAZORPAY_KEY_ID: optionalString.pipe(
    z
      .string()
      .regex(/^rzp_(test|live)_[A-Za-z0-9]+$/, 'must be the Key Id Razorpay shows (rzp_test_… or rzp_live_…)')
      .optional(),
  ),
  RAZORPAY_KEY_SECRET: optionalString,
  RAZORPAY_WEBHOOK_SECRET: optionalString,
  RAZORPAY_API_BASE_URL: optionalString.pipe(z.url().optional()),
  RAZORPAY_RECONCILE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
};

/** The settings that must all be set for online payment to be on. */
export const RAZORPAY_REQUIRED_SETTINGS = [
  'RAZORPAY_KEY_ID',
  'RAZORPAY_KEY_SECRET',
  'RAZORPAY_WEBHOOK_SECRET',
] as const;

export const DEFAULT_RAZORPAY_API_BASE_URL = 'https://api.razorpay.com/v1';

export interface RazorpayConfig {
  /** Where the REST API is: RAZORPAY_API_BASE_URL, its version in the path. */
  baseUrl: string;
  keyId: string;
  keySecret: string;
  /** Signs the webhook's events (X-Razorpay-Signature). */
  webhookSecret: string;
  /** How often the reconciler asks Razorpay for payments the webhook did not bring. */
  reconcileSeconds: number;
  /** How long one request to Razorpay may take before Razorpay counts as unreachable. */
  timeoutMs: number;
}

type RazorpayEnv = { [K in keyof typeof RAZORPAY_ENV]?: z.output<(typeof RAZORPAY_ENV)[K]> };

/** Online payment's settings, undefined when none is set, or the problem (one line) when only some are. */
export function razorpayConfigOf(env: RazorpayEnv): RazorpayConfig | undefined | string {
  const missing = RAZORPAY_REQUIRED_SETTINGS.filter((name) => !env[name]);
  if (missing.length === RAZORPAY_REQUIRED_SETTINGS.length) return undefined;
  if (missing.length > 0) {
    return `Online payment needs ${RAZORPAY_REQUIRED_SETTINGS.join(', ')} set together (or none of them, for no online payment); missing: ${missing.join(', ')}`;
  }
  return {
    baseUrl: (env.RAZORPAY_API_BASE_URL ?? DEFAULT_RAZORPAY_API_BASE_URL).replace(/\/+$/, ''),
    keyId: env.RAZORPAY_KEY_ID as string,
    keySecret: env.RAZORPAY_KEY_SECRET as string,
    webhookSecret: env.RAZORPAY_WEBHOOK_SECRET as string,
    reconcileSeconds: env.RAZORPAY_RECONCILE_SECONDS ?? 900,
    timeoutMs: 10_000,
  };
}
