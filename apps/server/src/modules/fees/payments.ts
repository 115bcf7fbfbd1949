/**
 * Payments (ADR 051): money received, at the counter or through the gateway, allocated oldest charge
 * first across the family's children, the rest kept as the family's advance; numbered with a receipt
 * in the same transaction, with the activity feed's "payment received"; idempotent by a key (the
 * client's id, or the gateway's payment id).
 */
import type { Allocation, RecordedPayment } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { type ActivityActor, recordActivity } from '../../lib/activity-log';
import { NotFoundError, ValidationError } from '../../lib/errors';
import {
  familyBalance,
  type LedgerAccount,
  lockFeeFamily,
  openCharges,
  type PaymentMode,
  postTransaction,
} from './ledger';
import { familyWords, rupees } from './payment-words';
import { financialYear, takeReceiptNumber } from './receipts';

export interface PaymentInput {
  /** `counter:<client_id>` at the counter, `razorpay:<pay_id>` from the gateway. */
  idempotencyKey: string;
  familyId: number;
  /** Positive, at most ₹1 crore. */
  amountPaise: number;
  mode: PaymentMode;
  /** yyyy-MM-dd in the centre's zone. */
  receivedOn: string;
  reference: string | null;
  /** users.id of who recorded it; null for the gateway. */
  recordedBy: number | null;
  /**
   * Who the activity feed says recorded it (staff at the counter, Razorpay online): a new payment's
   * "payment received" row is written here, in its transaction, for every way money arrives. Left out
   * only where nothing is announced (fixtures that post straight to the ledger).
   */
  announceAs?: ActivityActor;
  /**
   * What the payment was asked with: the same key again with other content is refused (422 on
   * `client_id`), and with the same content answers the first result.
   */
  request: Record<string, unknown>;
  /** Checks that apply to a new payment but not to a replay of one (its date, checked when first recorded). */
  beforeRecording?: () => void | Promise<void>;
}

export interface PaymentResult extends RecordedPayment {
  /** False when the key was seen before: nothing was posted, the first answer is repeated. */
  created: boolean;
}

/** The account money received in `mode` is debited to. */
export function accountForMode(mode: PaymentMode): LedgerAccount {
  return mode === 'online' ? 'gateway_clearing' : mode;
}

/** `payment` shared out over the open charges, oldest first, by child; the rest is the advance (null). */
export function allocate(
  paymentPaise: number,
  charges: readonly { studentId: number | null; owedPaise: number }[],
): Allocation[] {
  const byStudent = new Map<number | null, number>();
  let left = paymentPaise;
  for (const charge of charges) {
    if (left === 0) break;
    const paid = Math.min(left, charge.owedPaise);
    byStudent.set(charge.studentId, (byStudent.get(charge.studentId) ?? 0) + paid);
    left -= paid;
  }
  const allocations = [...byStudent].map(([student_id, amount_paise]) => ({ student_id, amount_paise }));
  const advance = allocations.find((a) => a.student_id === null);
  if (left > 0) {
    if (advance) advance.amount_paise += left;
    else allocations.push({ student_id: null, amount_paise: left });
  }
  return allocations;
}

/** The request as compared with a replay: its fields in name order (the database keeps JSON keys in its own order). */
const canonical = (value: unknown) =>
  JSON.stringify(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
const sameRequest = (a: unknown, b: unknown) => canonical(a) === canonical(b);

async function firstAnswer(
  tx: Queryable,
  key: string,
  request: Record<string, unknown>,
): Promise<PaymentResult | null> {
  const [first] = await tx.query<{ request: unknown; answer: RecordedPayment }>(
    `SELECT p.request, p.answer FROM fee_payments p JOIN ledger_transactions t ON t.id = p.transaction_id
      WHERE t.idempotency_key = $1`,
    [key],
  );
  if (!first) return null;
  if (!sameRequest(first.request, request)) throw new ValidationError('client_id', 'validation.client_id_reused');
  return { ...first.answer, created: false };
}

/**
 * Records a payment in `tx`: allocates it over the family's open charges (oldest due first, across
 * its children; the rest is the advance), posts it (Dr the mode's account, Cr receivable by child),
 * takes the receipt number and keeps the answer. Payments of one family wait for each other (the
 * family's row is locked), so two never share the same dues. 404 for no such family.
 */
export async function allocateAndRecordPayment(tx: Queryable, input: PaymentInput): Promise<PaymentResult> {
  const request = { ...input.request };
  const seen = await firstAnswer(tx, input.idempotencyKey, request);
  if (seen) return seen;
  await input.beforeRecording?.();
  if (!(await lockFeeFamily(tx, input.familyId))) {
    throw new NotFoundError('fees.family_not_found', { id: input.familyId });
  }
  const allocations = allocate(input.amountPaise, await openCharges(tx, [input.familyId]));
  const posted = await postTransaction(tx, {
    idempotencyKey: input.idempotencyKey,
    kind: 'payment',
    familyId: input.familyId,
    occurredOn: input.receivedOn,
    description: 'Payment received',
    createdBy: input.recordedBy,
    paymentMode: input.mode,
    reference: input.reference,
    postings: [
      { account: accountForMode(input.mode), amountPaise: input.amountPaise },
      ...allocations.map((a) => ({
        account: 'receivable' as const,
        amountPaise: -a.amount_paise,
        studentId: a.student_id,
      })),
    ],
  });
  if (!posted.created) {
    // The same key was posted by another request at the same moment (it committed first).
    const again = await firstAnswer(tx, input.idempotencyKey, request);
    if (again) return again;
    throw new Error(`Payment ${input.idempotencyKey} was posted without its receipt`);
  }
  const answer: RecordedPayment = {
    payment_id: posted.id,
    receipt_number: await takeReceiptNumber(tx, financialYear(input.receivedOn)),
    allocations,
    balance_paise: await familyBalance(tx, input.familyId),
  };
  await tx.query(
    `INSERT INTO fee_payments (transaction_id, receipt_number, family_id, amount_paise, mode, reference, received_on,
                               recorded_by, request, answer)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb)`,
    [
      posted.id,
      answer.receipt_number,
      input.familyId,
      input.amountPaise,
      input.mode,
      input.reference,
      input.receivedOn,
      input.recordedBy,
      JSON.stringify(request),
      JSON.stringify(answer),
    ],
  );
  if (input.announceAs) {
    await recordActivity(tx, input.announceAs, 'fees.payment_received', 'fees.payment_received', {
      amount: rupees(input.amountPaise),
      ...(await familyWords(tx, input.familyId)),
      mode: input.mode,
      receipt: answer.receipt_number,
    });
  }
  return { ...answer, created: true };
}
