import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, BadGatewayError, ServiceUnavailableError } from '../../lib/errors';
import type { RazorpayConfig } from '../../razorpay-config';

/**
 * Razorpay's REST API as online payment uses it (ADR 053), with plain fetch and Basic auth
 * `key_id:key_secret`:
 *
 *   POST /payment_links       a link for a family's amount, with our reference_id
 *   GET  /payment_links/:id   the link, its status and its payments (the reconciler's question)
 *
 * No answer in time is a 503 (Razorpay unreachable), an answer that is not Razorpay's JSON or a 5xx is
 * a 502, and Razorpay's refusal a 422 with its own description. The key secret never appears in an
 * error or a log line.
 */

export type LinkStatus = 'created' | 'partially_paid' | 'paid' | 'expired' | 'cancelled';
const LINK_STATUSES: readonly string[] = ['created', 'partially_paid', 'paid', 'expired', 'cancelled'];

export interface GatewayLinkPayment {
  paymentId: string;
  amountPaise: number;
  status: string;
  method: string | null;
}

export interface GatewayLink {
  linkId: string;
  url: string;
  status: LinkStatus;
  amountPaise: number;
  referenceId: string;
  orderId: string | null;
  payments: GatewayLinkPayment[];
}

export interface NewGatewayLink {
  amountPaise: number;
  referenceId: string;
  description: string;
  customer: { name: string; contact: string };
  notes: Record<string, string>;
}

/** A payment link id as Razorpay writes it; anything else never reaches a URL of ours. */
export const LINK_ID = /^plink_[A-Za-z0-9]{1,40}$/;
export const PAYMENT_ID = /^pay_[A-Za-z0-9]{1,40}$/;

/**
 * X-Razorpay-Signature: the hex HMAC-SHA256 of the exact bytes received, keyed with the webhook secret.
 * Compared in constant time on equal lengths; anything malformed is simply not a match.
 */
export function isSignedByRazorpay(rawBody: Buffer, header: string | undefined, webhookSecret: string): boolean {
  if (typeof header !== 'string' || !/^[0-9a-f]{64}$/i.test(header)) return false;
  const expected = createHmac('sha256', webhookSecret).update(rawBody).digest();
  const given = Buffer.from(header, 'hex');
  return given.length === expected.length && timingSafeEqual(expected, given);
}

function refusalOf(answer: unknown): string | undefined {
  const error = (answer as { error?: { description?: unknown } } | null)?.error;
  const description = error && typeof error === 'object' ? error.description : undefined;
  return typeof description === 'string' && description.trim() !== '' ? description.slice(0, 300) : undefined;
}

async function call(config: RazorpayConfig, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const authorization = `Basic ${Buffer.from(`${config.keyId}:${config.keySecret}`).toString('base64')}`;
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}${path}`, {
      method,
      headers: {
        authorization,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(config.timeoutMs),
      redirect: 'error',
    });
  } catch {
    throw new ServiceUnavailableError('payments.gateway_unreachable');
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    throw new BadGatewayError('payments.gateway_failed', { status: response.status });
  }
  if (response.status >= 500) throw new BadGatewayError('payments.gateway_failed', { status: response.status });
  if (!response.ok) {
    const reason = refusalOf(answer);
    if (!reason) throw new BadGatewayError('payments.gateway_failed', { status: response.status });
    throw new AppError(422, { code: 'payments.gateway_refused', params: { reason } });
  }
  return answer;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const paise = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;

/** A link entity as Razorpay answers it, or undefined when the answer is not one. */
export function linkOf(entity: unknown): GatewayLink | undefined {
  if (typeof entity !== 'object' || entity === null) return undefined;
  const link = entity as Record<string, unknown>;
  const linkId = text(link.id);
  const amountPaise = paise(link.amount);
  const status = text(link.status);
  if (!linkId || !LINK_ID.test(linkId) || amountPaise === null || !status || !LINK_STATUSES.includes(status)) {
    return undefined;
  }
  const payments = Array.isArray(link.payments) ? link.payments : [];
  return {
    linkId,
    url: text(link.short_url) ?? '',
    status: status as LinkStatus,
    amountPaise,
    referenceId: text(link.reference_id) ?? '',
    orderId: text(link.order_id),
    payments: payments.flatMap((row: Record<string, unknown>) => {
      const paymentId = text(row?.payment_id);
      const amount = paise(row?.amount);
      if (!paymentId || !PAYMENT_ID.test(paymentId) || amount === null || amount === 0) return [];
      return [{ paymentId, amountPaise: amount, status: text(row.status) ?? '', method: text(row.method) }];
    }),
  };
}

function linkOrFail(answer: unknown): GatewayLink {
  const link = linkOf(answer);
  if (!link) throw new BadGatewayError('payments.gateway_failed', { status: 200 });
  return link;
}

/** Creates a Payment Link; Razorpay refuses a reference_id it has seen, so a retry never makes two. */
export async function createPaymentLink(config: RazorpayConfig, link: NewGatewayLink): Promise<GatewayLink> {
  const answer = await call(config, 'POST', '/payment_links', {
    amount: link.amountPaise,
    currency: 'INR',
    accept_partial: false,
    reference_id: link.referenceId,
    description: link.description.slice(0, 2048),
    customer: link.customer,
    notify: { sms: false, email: false },
    reminder_enable: false,
    notes: link.notes,
  });
  const made = linkOrFail(answer);
  if (!made.url.startsWith('https://') && !made.url.startsWith('http://')) {
    throw new BadGatewayError('payments.gateway_failed', { status: 200 });
  }
  return made;
}

/** A link as Razorpay has it now: its status and the payments made on it. */
export async function fetchPaymentLink(config: RazorpayConfig, linkId: string): Promise<GatewayLink> {
  if (!LINK_ID.test(linkId)) throw new BadGatewayError('payments.gateway_failed', { status: 0 });
  return linkOrFail(await call(config, 'GET', `/payment_links/${linkId}`));
}
