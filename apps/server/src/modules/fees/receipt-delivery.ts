/**
 * The receipt reaches the family as soon as a payment is recorded (ADR 057): after the payment's
 * transaction commits, one message in the family's language ("Payment received: ₹1,250.00 for Asha,
 * receipt R/2026-27/000123") through the delivery cascade (the parent app, WhatsApp when a template
 * can carry it, else the send list), as absence alerts and notices go. Keyed by the payment's id
 * (fee_receipt_deliveries), so a replayed client_id, a webhook seen twice or the reconciler finding
 * the payment again sends nothing more. A failure here never touches the payment: it is committed.
 */
import type { AppContext } from '../../context';
import type { Database, Queryable } from '../../db/database';
import type { Actor } from '../../lib/activity-log';
import { queueFamilyMessages, readMessagingSettings, wakeSenders } from '../delivery';
import { findFamilyChannels } from '../families';
import { formatRupees, receiptText } from './receipt-texts';
import { getReceipt } from './receipts';

/** Who a receipt message is from: the staff member who took the money, or (id null) the gateway. */
export interface ReceiptSender {
  id: number | null;
  full_name: string;
}

/** Claims the payment's message: true the first time, false when it was queued before. */
async function claimDelivery(tx: Queryable, paymentId: number): Promise<boolean> {
  const rows = await tx.query(
    'INSERT INTO fee_receipt_deliveries (payment_id) VALUES ($1) ON CONFLICT (payment_id) DO NOTHING RETURNING payment_id',
    [paymentId],
  );
  return rows.length > 0;
}

/** Queues the payment's receipt message in `tx`, once; answers whether it queued one. */
export async function queueReceiptMessage(
  ctx: AppContext,
  tx: Queryable,
  paymentId: number,
  sender: ReceiptSender,
): Promise<boolean> {
  if (!(await claimDelivery(tx, paymentId))) return false;
  const receipt = await getReceipt(tx, paymentId);
  // A family whose phone was erased, or that has no student on record any more, has no one to tell.
  const family = receipt.parent_phone ? await findFamilyChannels(tx, receipt.parent_phone) : undefined;
  if (!family) return false;
  const language = family.language;
  const paidFor = new Set(receipt.allocations.map((allocation) => allocation.student_id));
  const named = receipt.students.filter((student) => paidFor.has(student.id));
  const children = (named.length > 0 ? named : receipt.students).map((student) => student.full_name).join(', ');
  const settings = await readMessagingSettings(tx);
  const subject = receiptText(language, 'message.subject');
  const queued = await queueFamilyMessages(
    ctx,
    tx,
    // One family's message, with no send: the history lists it under the family. From the staff member
    // who took the money, or the gateway (no account: the messages table allows none).
    { kind: 'notice', subject, recipients: null, templateId: null, sender: sender as Actor },
    [
      {
        family,
        kind: 'notice',
        subject,
        body: receiptText(language, 'message.body', {
          amount: formatRupees(receipt.amount_paise, language),
          children,
          receipt: receipt.receipt_number,
        }),
        language,
        studentId: named.length === 1 ? (named[0]?.id ?? null) : null,
        attendanceId: null,
        // No approved WhatsApp template carries a receipt yet: a family without the app is on the send list.
        whatsapp: null,
      },
    ],
    settings.whatsapp_fallback_minutes,
  );
  await tx.query('UPDATE fee_receipt_deliveries SET message_id = $2 WHERE payment_id = $1', [
    paymentId,
    queued.messageIds[0] ?? null,
  ]);
  return true;
}

/**
 * After the payment's commit: the receipt message in its own transaction, then the senders woken. Never
 * throws: the payment stands whatever happens here; a failure is reported on the process's warnings
 * and the receipt is still there to print or share from the console.
 */
export async function deliverReceipt(ctx: AppContext, paymentId: number, sender: ReceiptSender): Promise<boolean> {
  try {
    const queued = await ctx.db.transaction((tx) => queueReceiptMessage(ctx, tx, paymentId, sender));
    if (queued) wakeSenders(ctx);
    return queued;
  } catch (error) {
    process.emitWarning(`The receipt of payment ${paymentId} was not sent: ${(error as Error).message}`, {
      code: 'TUITIONDESK_RECEIPT_NOT_SENT',
    });
    return false;
  }
}

/**
 * The app each database serves, for code that is handed only the database (the Razorpay webhook's and
 * reconciler's recording, `recordGatewayPayment`): registered when the fee routes are, so a payment
 * the gateway brings sends its receipt as a counter payment does. A program without the app (a
 * script) registers nothing, and its payments send nothing.
 */
const appOfDatabase = new WeakMap<Database, AppContext>();

export function enableReceiptDelivery(ctx: AppContext): void {
  appOfDatabase.set(ctx.db, ctx);
}

/** `deliverReceipt` for the app serving `db`, if any. */
export async function deliverReceiptFor(db: Database, paymentId: number, sender: ReceiptSender): Promise<boolean> {
  const ctx = appOfDatabase.get(db);
  return ctx ? deliverReceipt(ctx, paymentId, sender) : false;
}
