/**
 * Fees in the parent app (issue 29, ADR 059): the signed-in parent's own family, found by the phone
 * they signed in with, and nothing of any other. Everything is read from the ledger the staff
 * statement reads (reports.ts), so the two always agree.
 */
import {
  PARENT_RECEIPTS_MAX,
  type ParentFees,
  type ParentPayLink,
  type ParentReceiptSummary,
  type Receipt,
} from '@tuitiondesk/contract';
import type { Database, Queryable } from '../../db/database';
import { NotFoundError } from '../../lib/errors';
import { familyDetails } from './fee-families';
import { familyIdForPhone } from './ledger';
import { findPayment, getReceipt, getReceiptPdf } from './receipts';
import { getStatement } from './reports';

/** The least a payment link may ask for: Razorpay takes ₹1 and more (ADR 053). */
const LEAST_ONLINE_PAISE = 100;

/**
 * The fee account of the parent's family: found by the phone, or made on first use (as a staff
 * member's look at a student's family makes it), so a signed-in parent never meets a 404 here.
 */
export async function parentFamilyId(db: Database, phone: string): Promise<number> {
  const [found] = await db.query<{ id: number }>('SELECT id FROM fee_families WHERE phone = $1', [phone]);
  if (found) return Number(found.id);
  return db.transaction((tx) => familyIdForPhone(tx, phone));
}

async function familyReceipts(db: Queryable, familyId: number): Promise<ParentReceiptSummary[]> {
  const rows = await db.query<{
    payment_id: number;
    receipt_number: string;
    date: string;
    amount_paise: number;
    mode: ParentReceiptSummary['mode'];
    reversed: boolean;
  }>(
    `SELECT p.transaction_id AS payment_id, p.receipt_number, p.received_on AS date, p.amount_paise, p.mode,
            EXISTS (SELECT 1 FROM ledger_transactions r WHERE r.reverses = p.transaction_id) AS reversed
       FROM fee_payments p
      WHERE p.family_id = $1
      ORDER BY p.received_on DESC, p.transaction_id DESC
      LIMIT $2`,
    [familyId, PARENT_RECEIPTS_MAX],
  );
  return rows.map((row) => ({
    payment_id: Number(row.payment_id),
    receipt_number: row.receipt_number,
    date: row.date,
    amount_paise: Number(row.amount_paise),
    mode: row.mode,
    reversed: row.reversed === true,
  }));
}

export interface ParentFeesOptions {
  /** How many of the statement's newest entries to answer. */
  entries: number;
  /** Whether the centre takes payment online (all three Razorpay secrets set). */
  online: boolean;
  /** The family's open payment link for exactly this amount, if one was made; never makes one. */
  openLink: (db: Queryable, familyId: number, amountPaise: number) => Promise<ParentPayLink | undefined>;
}

/** GET /parent/fees: the family's balance, its statement's newest entries, its receipts and its pay link. */
export async function getParentFees(db: Database, phone: string, options: ParentFeesOptions): Promise<ParentFees> {
  const familyId = await parentFamilyId(db, phone);
  const statement = await getStatement(db, familyId);
  const [{ students }, receipts] = await Promise.all([familyDetails(db, familyId), familyReceipts(db, familyId)]);
  const balance = statement.balance_paise;
  const entries = statement.entries.slice(-options.entries);
  const canPayOnline = options.online && balance >= LEAST_ONLINE_PAISE;
  const open = canPayOnline ? await options.openLink(db, familyId, balance) : undefined;
  return {
    family_id: familyId,
    balance_paise: balance,
    students,
    entries,
    earlier_entries: statement.entries.length - entries.length,
    receipts,
    online_payment: options.online,
    can_pay_online: canPayOnline,
    pay: open ? { url: open.url, amount_paise: Number(open.amount_paise) } : null,
  };
}

/**
 * A receipt of the parent's own family; another family's payment, or none, is 404 with the same
 * words, so a parent cannot learn which payment ids exist.
 */
export async function getParentReceipt(db: Database, phone: string, paymentId: number): Promise<Receipt> {
  await checkOwnPayment(db, phone, paymentId);
  return getReceipt(db, paymentId);
}

/** The same receipt as the PDF staff print (ADR 057), in `language` or the family's own. */
export async function getParentReceiptPdf(
  db: Database,
  phone: string,
  paymentId: number,
  language: Parameters<typeof getReceiptPdf>[2],
): Promise<{ pdf: Buffer; filename: string }> {
  await checkOwnPayment(db, phone, paymentId);
  return getReceiptPdf(db, paymentId, language);
}

async function checkOwnPayment(db: Database, phone: string, paymentId: number): Promise<void> {
  const [family] = await db.query<{ id: number }>('SELECT id FROM fee_families WHERE phone = $1', [phone]);
  const payment = await findPayment(db, paymentId);
  if (!family || !payment || Number(payment.family_id) !== Number(family.id)) {
    throw new NotFoundError('fees.payment_not_found', { id: paymentId });
  }
}
