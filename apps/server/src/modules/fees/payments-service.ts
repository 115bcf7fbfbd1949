/**
 * Counter payments and reversals as staff make them (ADR 051): the rules on dates, one transaction
 * per change with its audit row (the balance before and after) and its activity row.
 */
import {
  PAYMENT_MAX_AGE_DAYS,
  type Receipt,
  type RecordedPayment,
  type RecordPayment,
  type recordPaymentSchema,
} from '@tuitiondesk/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { recordAudit } from '../../lib/audit-log';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { addDays, today } from '../../lib/time';
import { fixCreditNote, fixReceiptTax } from './gst';
import { familyBalance, lockFeeFamily, reverseTransaction } from './ledger';
import { familyWords, rupees } from './payment-words';
import { allocateAndRecordPayment } from './payments';
import { queueReceipt, wakeReceiptSenders } from './receipt-delivery';
import { financialYear, findPayment, getReceipt, takeCreditNoteNumber } from './receipts';

type PaymentBody = z.output<typeof recordPaymentSchema>;

/** The balance's change in the audit log, beside the rows the triggers write. */
async function auditBalance(tx: Queryable, familyId: number, before: number, after: number): Promise<void> {
  await recordAudit(tx, {
    entity: 'fee_balance',
    action: 'update',
    record_id: familyId,
    before: { family_id: familyId, balance_paise: before },
    after: { family_id: familyId, balance_paise: after },
  });
}

function checkReceivedOn(receivedOn: string): void {
  const now = today();
  if (receivedOn > now) throw new ValidationError('received_on', 'validation.not_in_future');
  const earliest = addDays(now, -PAYMENT_MAX_AGE_DAYS);
  if (receivedOn < earliest) throw new ValidationError('received_on', 'validation.payment_too_old', { earliest });
}

/**
 * Records money received at the counter. The same `client_id` again (a retry, an offline replay, two
 * at once) answers the first result and records nothing more; with other content it is 422. The
 * receipt's message is queued with the payment, and the senders woken once it is committed (ADR 057).
 */
export async function recordCounterPayment(
  ctx: AppContext,
  actor: Actor,
  body: PaymentBody | RecordPayment,
): Promise<{ answer: RecordedPayment; created: boolean }> {
  const input = body as PaymentBody;
  const request = {
    family_id: input.family_id,
    amount_paise: input.amount_paise,
    mode: input.mode,
    received_on: input.received_on,
    reference: input.reference ?? null,
  };
  const result = await ctx.db.transaction(async (tx) => {
    // A replay is answered whatever day it arrives: the date was checked when it was first recorded.
    const before = await familyBalance(tx, input.family_id);
    const recorded = await allocateAndRecordPayment(tx, {
      idempotencyKey: `counter:${input.client_id}`,
      familyId: input.family_id,
      amountPaise: input.amount_paise,
      mode: input.mode,
      receivedOn: input.received_on,
      reference: input.reference ?? null,
      recordedBy: actor.id,
      announceAs: actor,
      request,
      beforeRecording: () => checkReceivedOn(input.received_on),
    });
    if (!recorded.created) return recorded;
    // The tax invoice's figures as the GST settings are now, fixed with the payment (ADR 057).
    await fixReceiptTax(tx, {
      paymentId: recorded.payment_id,
      familyId: input.family_id,
      amountPaise: input.amount_paise,
    });
    await auditBalance(tx, input.family_id, before, recorded.balance_paise);
    // Only for a new payment (a replay sends nothing); a failure to queue it undoes nothing.
    await queueReceipt(ctx, tx, recorded.payment_id, actor);
    return recorded;
  });
  const { created, ...answer } = result;
  if (created) wakeReceiptSenders(ctx);
  return { answer, created };
}

/**
 * Reverses a payment (a bounced cheque, a mistake): one reversing transaction naming it, dated today;
 * the receipt stays, marked reversed, and the family owes again what it paid. A tax invoice gets its
 * credit note in the same transaction (ADR 057); a plain receipt none. A second reversal, also one
 * asked at the same moment, is 409, and takes no credit note number.
 */
export async function reversePayment(
  ctx: AppContext,
  actor: Actor,
  paymentId: number,
  reason: string,
): Promise<Receipt> {
  return ctx.db.transaction(async (tx) => {
    const payment = await findPayment(tx, paymentId);
    if (!payment) throw new NotFoundError('fees.payment_not_found', { id: paymentId });
    const familyId = Number(payment.family_id);
    // Reversals of one family's payments wait for each other here; the check below then sees the first.
    await lockFeeFamily(tx, familyId);
    const reversed = await tx.query<{ occurred_on: string }>(
      'SELECT occurred_on FROM ledger_transactions WHERE reverses = $1',
      [paymentId],
    );
    const alreadyOn = reversed[0]?.occurred_on;
    if (alreadyOn) {
      throw new ConflictError('fees.payment_already_reversed', { receipt: payment.receipt_number, date: alreadyOn });
    }
    const before = await familyBalance(tx, familyId);
    const issuedOn = today();
    const reversal = await reverseTransaction(tx, paymentId, {
      occurredOn: issuedOn,
      description: reason,
      createdBy: actor.id,
    });
    if (!reversal?.created) {
      throw new ConflictError('fees.payment_already_reversed', { receipt: payment.receipt_number, date: today() });
    }
    await fixCreditNote(tx, { paymentId, reversalId: reversal.id, issuedOn }, () =>
      takeCreditNoteNumber(tx, financialYear(issuedOn)),
    );
    await auditBalance(tx, familyId, before, await familyBalance(tx, familyId));
    await recordActivity(tx, actor, 'fees.payment_reversed', 'fees.payment_reversed', {
      amount: rupees(Number(payment.amount_paise)),
      ...(await familyWords(tx, familyId)),
      receipt: payment.receipt_number,
      reason,
    });
    return getReceipt(tx, paymentId);
  });
}
