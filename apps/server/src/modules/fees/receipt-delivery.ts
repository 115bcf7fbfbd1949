/**
 * The receipt reaches the family as soon as a payment is recorded (ADR 057): one message in the
 * family's language ("Payment received: ₹1,250.00 for Asha, receipt R/2026-27/000123") through the
 * delivery cascade (the parent app, WhatsApp when a template can carry it, else the send list), as
 * absence alerts and notices go. The message is queued in the payment's own transaction (an outbox):
 * a payment that commits has its message, even when the process stops right after the commit; the
 * senders are woken after the commit, and their own polls find the message if the wake never comes.
 * Keyed by the payment's id (fee_receipt_deliveries), so a replayed client_id, a webhook seen twice or
 * the reconciler finding the payment again queues nothing more. A failure to queue never touches the
 * payment: the message's statements run under a savepoint, rolled back alone.
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

/** Conflicts the payment's transaction is run again for (PostgreSQL): the receipt is queued in the new attempt. */
const isConflict = (error: unknown) => ['40P01', '40001'].includes(String((error as { code?: unknown })?.code));

/**
 * In the payment's transaction: its receipt message queued, once. Never fails the payment: what goes
 * wrong is rolled back to a savepoint taken first, reported on the process's warnings, and the receipt
 * is still there to print or share from the console. A deadlock or serialization failure is not
 * swallowed: the whole payment is tried again, with its receipt. Answers whether it queued one.
 */
export async function queueReceipt(
  ctx: AppContext,
  tx: Queryable,
  paymentId: number,
  sender: ReceiptSender,
): Promise<boolean> {
  await tx.query('SAVEPOINT receipt_message');
  try {
    const queued = await queueReceiptMessage(ctx, tx, paymentId, sender);
    await tx.query('RELEASE SAVEPOINT receipt_message');
    return queued;
  } catch (error) {
    if (isConflict(error)) throw error;
    await tx.query('ROLLBACK TO SAVEPOINT receipt_message');
    process.emitWarning(`The receipt of payment ${paymentId} was not sent: ${(error as Error).message}`, {
      code: 'TUITIONDESK_RECEIPT_NOT_SENT',
    });
    return false;
  }
}

/** After the payment's commit: the senders woken for its message. Never throws; their polls find it anyway. */
export function wakeReceiptSenders(ctx: AppContext): void {
  try {
    wakeSenders(ctx);
  } catch (error) {
    process.emitWarning(`The senders were not woken for a receipt: ${(error as Error).message}`, {
      code: 'TUITIONDESK_RECEIPT_NOT_SENT',
    });
  }
}

/**
 * The app each database serves, for code that is handed only the database (the Razorpay webhook's and
 * reconciler's recording, `recordGatewayPayment`, whose callers, server.ts's reconciler among them, hold
 * no app): registered when the fee routes are, so a payment the gateway brings queues its receipt as a
 * counter payment does. A program without the app (a script) registers nothing, and its payments send
 * nothing. Queueing needs the app for its WhatsApp setting and waking for its senders.
 */
const appOfDatabase = new WeakMap<Database, AppContext>();

export function enableReceiptDelivery(ctx: AppContext): void {
  appOfDatabase.set(ctx.db, ctx);
}

/**
 * `queueReceipt` in `tx` for the app serving `db`, if any. Answers the step for after the commit (the
 * senders woken), which does nothing when no message was queued.
 */
export async function deliverReceiptFor(
  db: Database,
  tx: Queryable,
  paymentId: number,
  sender: ReceiptSender,
): Promise<() => void> {
  const ctx = appOfDatabase.get(db);
  if (!ctx || !(await queueReceipt(ctx, tx, paymentId, sender))) return () => {};
  return () => wakeReceiptSenders(ctx);
}
