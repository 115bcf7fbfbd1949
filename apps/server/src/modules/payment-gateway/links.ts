import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PaymentLink } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { type ActivityActor, recordActivity } from '../../lib/activity-log';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '../../lib/errors';
import { familyBalance, familyDetails, rupees } from '../fees';
import { createPaymentLink } from './razorpay';
import { findOpenLink, insertLink, linkRequestPending, releaseLinkRequest, reserveLinkRequest } from './repository';

/** Ours and unique: the family, the time and 4 random bytes, at most 40 characters as Razorpay allows. */
function newReferenceId(familyId: number): string {
  return `TD-F${familyId}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** A reservation older than this is a request that died before keeping its link (Razorpay is given 10 s). */
const RESERVATION_STALE_SECONDS = 60;
/** How long a request waits for another's link to the same family before answering 503. */
const WAIT_FOR_OTHER_MS = 15_000;
const POLL_MS = 50;

/**
 * A Razorpay Payment Link for the family, covering all its children: for `amountPaise`, or the
 * family's balance when not given. The family's open link for the same amount is answered again
 * rather than a second one made, also when two ask at the same instant (ADR 053): the family is
 * reserved before Razorpay is asked, and a request that finds it reserved waits for that link and
 * answers it (or, the other failing or asking another amount, makes its own). Razorpay is asked
 * first, with no transaction held open; only a link it made is kept, in one transaction with its activity row (the audit row is the table's trigger's).
 * Online payment off: 409; no such family: 404; nothing owed and no amount: 422; Razorpay unreachable:
 * 503 and nothing kept.
 */
export async function familyPaymentLink(
  ctx: AppContext,
  actor: ActivityActor,
  familyId: number,
  amountPaise: number | undefined,
): Promise<PaymentLink> {
  if (!ctx.config.razorpay) throw new ConflictError('payments.online_off');
  const family = await familyDetails(ctx.db, familyId);
  // A family whose records were erased has no one to send a link to.
  if (family.parent_phone === '') throw new NotFoundError('fees.family_not_found', { id: familyId });
  let amount = amountPaise;
  if (amount === undefined) {
    const balance = await familyBalance(ctx.db, familyId);
    if (balance <= 0) throw new ValidationError('amount_paise', 'validation.nothing_owed');
    if (balance < 100) {
      throw new ValidationError('amount_paise', 'validation.too_small', {
        message: `the balance is ${balance} paise, less than the 100 paise (₹1) Razorpay takes: give an amount`,
      });
    }
    amount = balance;
  }
  const token = randomUUID();
  const giveUpAt = Date.now() + WAIT_FOR_OTHER_MS;
  for (;;) {
    const open = await findOpenLink(ctx.db, familyId, amount);
    if (open) return { link_id: open.link_id, url: open.url, amount_paise: open.amount_paise };
    const reserved = await reserveLinkRequest(ctx.db, {
      familyId,
      amountPaise: amount,
      token,
      staleSeconds: RESERVATION_STALE_SECONDS,
    });
    if (reserved) {
      // The link of a request that finished between the look and the reservation.
      const made = await findOpenLink(ctx.db, familyId, amount);
      if (!made) break;
      await releaseLinkRequest(ctx.db, familyId, token);
      return { link_id: made.link_id, url: made.url, amount_paise: made.amount_paise };
    }
    if (Date.now() > giveUpAt) throw new ServiceUnavailableError('payments.gateway_unreachable');
    while (Date.now() <= giveUpAt && (await linkRequestPending(ctx.db, familyId))) await sleep(POLL_MS);
  }
  try {
    return await makeLink(ctx, actor, family, familyId, amount, token);
  } finally {
    // Kept with the link in its transaction; here only when Razorpay's call (or keeping it) failed.
    await releaseLinkRequest(ctx.db, familyId, token);
  }
}

async function makeLink(
  ctx: AppContext,
  actor: ActivityActor,
  family: Awaited<ReturnType<typeof familyDetails>>,
  familyId: number,
  amount: number,
  token: string,
): Promise<PaymentLink> {
  const razorpay = ctx.config.razorpay;
  if (!razorpay) throw new ConflictError('payments.online_off');
  const children = family.students;
  const parentName = family.parent_name || `Parent of ${children.map((child) => child.full_name).join(', ')}`;
  const names = children.map((child) => child.full_name).join(', ') || parentName;
  const referenceId = newReferenceId(familyId);
  const made = await createPaymentLink(razorpay, {
    amountPaise: amount,
    referenceId,
    // No child's name: Razorpay's events bring the description back, and keep it (ADR 053).
    description: children.length > 1 ? `Tuition fees for ${children.length} children` : 'Tuition fees',
    customer: { name: parentName.slice(0, 100), contact: family.parent_phone },
    notes: { reference_id: referenceId, family_id: String(familyId) },
  });
  await ctx.db.transaction(async (tx) => {
    await insertLink(tx, {
      link_id: made.linkId,
      reference_id: referenceId,
      family_id: familyId,
      amount_paise: amount,
      url: made.url,
      status: 'created',
      order_id: made.orderId,
      createdBy: actor.id,
    });
    await releaseLinkRequest(tx, familyId, token);
    await recordActivity(tx, actor, 'fees.payment_link_created', 'fees.payment_link_created', {
      amount: rupees(amount),
      names,
    });
  });
  return { link_id: made.linkId, url: made.url, amount_paise: amount };
}
