import { createHash } from 'node:crypto';
import type { Database } from '../../db/database';
import { recordGatewayPayment } from './payments';
import { LINK_ID, type LinkStatus, linkOf, PAYMENT_ID } from './razorpay';
import { advanceLink, findLink, markEventApplied } from './repository';

/**
 * Razorpay's webhook events, applied (ADR 053). An event is kept before it is applied (the route), and
 * applying it is safe however often and in whatever order events come: a payment is recorded once by
 * its payment id (payments.ts) and a link's status only moves forward (repository.ts).
 */

/** The event's id: X-Razorpay-Event-Id, or the body's hash when Razorpay sent none. */
export function eventIdOf(header: string | string[] | undefined, rawBody: Buffer): string {
  const given = Array.isArray(header) ? header[0] : header;
  if (typeof given === 'string' && /^[A-Za-z0-9_.:-]{1,100}$/.test(given)) return given;
  return `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
}

interface ParsedEvent {
  event: string;
  payment?: {
    id: string;
    amount: number;
    currency: string;
    status: string;
    method: string | null;
    orderId: string | null;
    reference: string | null;
  };
  link?: { id: string; status: LinkStatus; orderId: string | null };
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const entityOf = (payload: unknown, name: string): Record<string, unknown> | undefined => {
  const holder = (payload as Record<string, unknown> | undefined)?.[name] as { entity?: unknown } | undefined;
  const entity = holder?.entity;
  return entity && typeof entity === 'object' && !Array.isArray(entity)
    ? (entity as Record<string, unknown>)
    : undefined;
};

/** The parts of an event that are used; what is not in Razorpay's shape is left out. */
export function parseEvent(rawBody: string): ParsedEvent {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { event: 'unknown' };
  }
  if (!body || typeof body !== 'object') return { event: 'unknown' };
  const root = body as Record<string, unknown>;
  const event = text(root.event)?.slice(0, 100) ?? 'unknown';
  const parsed: ParsedEvent = { event };
  const payment = entityOf(root.payload, 'payment');
  const paymentId = text(payment?.id);
  const amount = payment?.amount;
  if (
    payment &&
    paymentId &&
    PAYMENT_ID.test(paymentId) &&
    typeof amount === 'number' &&
    Number.isSafeInteger(amount)
  ) {
    const notes = payment.notes && typeof payment.notes === 'object' ? (payment.notes as Record<string, unknown>) : {};
    parsed.payment = {
      id: paymentId,
      amount,
      currency: text(payment.currency) ?? '',
      status: text(payment.status) ?? '',
      method: text(payment.method),
      orderId: text(payment.order_id),
      reference: text(notes.reference_id),
    };
  }
  const linkEntity = entityOf(root.payload, 'payment_link');
  const link = linkEntity ? linkOf({ ...linkEntity, payments: null }) : undefined;
  if (link && LINK_ID.test(link.linkId)) parsed.link = { id: link.linkId, status: link.status, orderId: link.orderId };
  return parsed;
}

const LINK_EVENTS: Record<string, LinkStatus> = {
  'payment_link.paid': 'paid',
  'payment_link.partially_paid': 'partially_paid',
  'payment_link.expired': 'expired',
  'payment_link.cancelled': 'cancelled',
};

/**
 * Applies one kept event and marks it applied with what came of it. `payment_link.*` moves the link
 * forward; `payment_link.paid` / `partially_paid` and `payment.captured` record a captured INR payment
 * on a link of ours. A payment.captured that names no link of ours (its order not known yet) records
 * nothing: the link's own event, or the reconciler asking Razorpay for the link, records it.
 */
export async function applyEvent(db: Database, eventRowId: number, rawBody: string): Promise<string> {
  const parsed = parseEvent(rawBody);
  const outcome = await outcomeOf(db, parsed);
  await markEventApplied(db, eventRowId, outcome);
  return outcome;
}

async function outcomeOf(db: Database, parsed: ParsedEvent): Promise<string> {
  const linkStatus = LINK_EVENTS[parsed.event];
  if (!linkStatus && parsed.event !== 'payment.captured') return 'not applied: an event online payment does not use';
  const payment = parsed.payment;
  const link = await findLink(db, {
    linkId: parsed.link?.id,
    orderId: payment?.orderId ?? parsed.link?.orderId,
    referenceId: payment?.reference,
  });
  if (!link) return 'not applied: no payment link of ours';
  if (linkStatus) {
    await db.transaction((tx) => advanceLink(tx, link.link_id, linkStatus, parsed.link?.orderId ?? null));
  }
  if (!payment || (parsed.event !== 'payment.captured' && linkStatus !== 'paid' && linkStatus !== 'partially_paid')) {
    return `link ${linkStatus ?? 'unchanged'}`;
  }
  if (payment.status !== 'captured' || payment.currency !== 'INR' || payment.amount <= 0) {
    return `not applied: payment ${payment.status || 'without status'} in ${payment.currency || 'no currency'}`;
  }
  const recorded = await recordGatewayPayment(
    db,
    link,
    { paymentId: payment.id, amountPaise: payment.amount, method: payment.method },
    'webhook',
  );
  return recorded ? 'payment recorded' : 'payment already recorded';
}
