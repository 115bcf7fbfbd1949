import type { Database } from '../../db/database';
import { recordAudit } from '../../lib/audit-log';
import { today } from '../../lib/time';
import { allocateAndRecordPayment, deliverReceiptFor, familyBalance, fixReceiptTax } from '../fees';
import { findLink, gatewayPaymentExists, insertGatewayPayment, type LinkRow } from './repository';

/** Who the audit log and the activity feed say recorded a gateway payment. */
const GATEWAY = 'Razorpay';

export interface GatewayPayment {
  paymentId: string;
  amountPaise: number;
  method: string | null;
}

/**
 * Records one gateway payment in the ledger, once, whoever saw it first: the webhook's
 * `payment.captured`, its `payment_link.paid`, or the reconciler. Keyed by Razorpay's payment id twice
 * over: the ledger's idempotency key `razorpay:<pay_id>` and gateway_payments' primary key, written in
 * the same transaction. The link's row is locked first, so two deliveries of the same payment at once
 * are taken one after the other and the second finds the first's row. As a payment at the counter,
 * the family's balance before and after goes in the audit log and the activity feed says it was
 * received (by Razorpay), in the same transaction, and the family's receipt message is queued there
 * too (ADR 057): the senders are woken after the commit. Answers whether it was new.
 */
export async function recordGatewayPayment(
  db: Database,
  link: LinkRow,
  payment: GatewayPayment,
  foundBy: 'webhook' | 'reconciler',
): Promise<boolean> {
  const wakeSenders = await db.transaction(async (tx) => {
    await findLink(tx, { linkId: link.link_id }, true);
    if (await gatewayPaymentExists(tx, payment.paymentId)) return null;
    const before = await familyBalance(tx, link.family_id);
    // Allocated oldest charge first with a receipt, as a payment at the counter (fees, ADR 051), through
    // the gateway's clearing account. The request is the same whoever saw the payment, so a replay matches.
    const recorded = await allocateAndRecordPayment(tx, {
      idempotencyKey: `razorpay:${payment.paymentId}`,
      familyId: link.family_id,
      amountPaise: payment.amountPaise,
      mode: 'online',
      receivedOn: today(),
      reference: payment.paymentId,
      recordedBy: null,
      announceAs: { id: null, full_name: GATEWAY },
      request: { gateway: 'razorpay', payment_id: payment.paymentId, amount_paise: payment.amountPaise },
    });
    await insertGatewayPayment(tx, {
      paymentId: payment.paymentId,
      linkId: link.link_id,
      familyId: link.family_id,
      amountPaise: payment.amountPaise,
      method: payment.method,
      transactionId: recorded.payment_id,
      foundBy,
    });
    if (!recorded.created) return null;
    // The tax invoice's figures as the GST settings are now, fixed with the payment (ADR 057).
    await fixReceiptTax(tx, {
      paymentId: recorded.payment_id,
      familyId: link.family_id,
      amountPaise: payment.amountPaise,
    });
    await recordAudit(tx, {
      entity: 'fee_balance',
      action: 'update',
      record_id: link.family_id,
      before: { family_id: link.family_id, balance_paise: before },
      after: { family_id: link.family_id, balance_paise: recorded.balance_paise },
      actor: { id: null, name: GATEWAY },
    });
    // Once per payment (the webhook, its repeats and the reconciler all end here); a failure to queue
    // the receipt leaves the payment as it is.
    return deliverReceiptFor(db, tx, recorded.payment_id, { id: null, full_name: GATEWAY });
  });
  if (wakeSenders === null) return false;
  wakeSenders();
  return true;
}
