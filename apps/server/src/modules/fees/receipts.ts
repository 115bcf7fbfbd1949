/**
 * Receipt numbers (ADR 051): one series per financial year (April to March), `R/2026-27/000123`,
 * at most 16 characters as Rule 46 allows, gapless. The number is taken from the year's counter row,
 * locked by the upsert in the payment's own transaction: payments wait for each other there, and a
 * payment that rolls back gives its number back. Credit notes (ADR 057) have a series of their own,
 * `CN/2026-27/00001`, taken the same way in the reversal's transaction.
 */
import type { ParentLanguage, Receipt } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { NotFoundError } from '../../lib/errors';
import { readCentreName, readLogo } from '../centre';
import { familyDate, findFamilyLanguage } from '../families';
import { familyDetails } from './fee-families';
import { receiptCreditNote, receiptTax } from './gst';
import type { PaymentMode } from './ledger';
import { layoutReceipt, renderReceiptPdf } from './receipt-pdf';

/** The financial year a day falls in: 2026-04-01 … 2027-03-31 is `2026-27`. */
export function financialYear(isoDate: string): string {
  const year = Number(isoDate.slice(0, 4));
  const month = Number(isoDate.slice(5, 7));
  const first = month >= 4 ? year : year - 1;
  return `${first}-${String((first + 1) % 100).padStart(2, '0')}`;
}

/** Six digits: a million receipts a year; the seventh would make the number 17 characters. */
const RECEIPT_DIGITS = 6;
/** Five digits after `CN/`: a hundred thousand credit notes a year, in 16 characters. */
const CREDIT_NOTE_DIGITS = 5;

export function receiptNumber(year: string, serial: number): string {
  return `R/${year}/${String(serial).padStart(RECEIPT_DIGITS, '0')}`;
}

export function creditNoteNumber(year: string, serial: number): string {
  return `CN/${year}/${String(serial).padStart(CREDIT_NOTE_DIGITS, '0')}`;
}

/** The next serial of the year's series in `counters`, its row held by `tx` until it ends. */
async function takeSerial(
  tx: Queryable,
  counters: 'fee_receipt_counters' | 'fee_credit_note_counters',
  year: string,
  digits: number,
): Promise<number> {
  const [row] = await tx.query<{ last_number: number }>(
    `INSERT INTO ${counters} (financial_year, last_number) VALUES ($1, 1)
     ON CONFLICT (financial_year) DO UPDATE SET last_number = ${counters}.last_number + 1
     RETURNING last_number`,
    [year],
  );
  const serial = Number(row?.last_number);
  if (!Number.isSafeInteger(serial) || serial >= 10 ** digits)
    throw new Error(`The series ${counters} ${year} is full`);
  return serial;
}

/** The next number of the year's series, held by `tx` until it ends. */
export async function takeReceiptNumber(tx: Queryable, year: string): Promise<string> {
  return receiptNumber(year, await takeSerial(tx, 'fee_receipt_counters', year, RECEIPT_DIGITS));
}

/** The next credit note number of the year's own series (ADR 057), as receipt numbers are taken. */
export async function takeCreditNoteNumber(tx: Queryable, year: string): Promise<string> {
  return creditNoteNumber(year, await takeSerial(tx, 'fee_credit_note_counters', year, CREDIT_NOTE_DIGITS));
}

interface PaymentRow {
  transaction_id: number;
  receipt_number: string;
  family_id: number;
  amount_paise: number;
  mode: PaymentMode;
  reference: string | null;
  received_on: string;
  recorded_by_name: string | null;
  answer: { allocations: Receipt['allocations']; balance_paise: number };
  reversed_on: string | null;
  reversal_reason: string | null;
}

/** The payment's row with its reversal, if any; undefined when there is no such payment. */
export async function findPayment(db: Queryable, paymentId: number): Promise<PaymentRow | undefined> {
  const [row] = await db.query<PaymentRow>(
    `SELECT p.transaction_id, p.receipt_number, p.family_id, p.amount_paise, p.mode, p.reference, p.received_on,
            u.full_name AS recorded_by_name, p.answer, r.occurred_on AS reversed_on, r.description AS reversal_reason
       FROM fee_payments p
       LEFT JOIN users u ON u.id = p.recorded_by
       LEFT JOIN ledger_transactions r ON r.reverses = p.transaction_id
      WHERE p.transaction_id = $1`,
    [paymentId],
  );
  return row;
}

/** The receipt of payment `paymentId` as JSON; a tax invoice when GST was fixed with the payment (ADR 057). */
export async function getReceipt(db: Queryable, paymentId: number): Promise<Receipt> {
  const payment = await findPayment(db, paymentId);
  if (!payment) throw new NotFoundError('fees.payment_not_found', { id: paymentId });
  const family = await familyDetails(db, Number(payment.family_id));
  const tax = await receiptTax(db, paymentId);
  return {
    payment_id: Number(payment.transaction_id),
    receipt_number: payment.receipt_number,
    financial_year: financialYear(payment.received_on),
    centre_name: await readCentreName(db),
    family_id: Number(payment.family_id),
    parent_name: family.parent_name,
    parent_phone: family.parent_phone,
    students: family.students,
    amount_paise: Number(payment.amount_paise),
    mode: payment.mode,
    reference: payment.reference,
    received_on: payment.received_on,
    recorded_by: payment.recorded_by_name,
    allocations: payment.answer.allocations,
    balance_paise: payment.answer.balance_paise,
    reversed: payment.reversed_on !== null,
    reversed_on: payment.reversed_on,
    reversal_reason: payment.reversal_reason,
    document: tax ? 'tax_invoice' : 'receipt',
    tax,
    credit_note: payment.reversed_on !== null && tax ? await receiptCreditNote(db, paymentId) : null,
  };
}

/**
 * The receipt as a PDF in `language`, else the family's (the language its parent app and messages use),
 * with the centre's logo when it has one pdfkit can draw. 404 for no such payment.
 */
export async function getReceiptPdf(
  db: Queryable,
  paymentId: number,
  language?: ParentLanguage,
): Promise<{ pdf: Buffer; filename: string }> {
  const receipt = await getReceipt(db, paymentId);
  const chosen = language ?? (receipt.parent_phone ? await findFamilyLanguage(db, receipt.parent_phone) : 'en');
  const logo = await readLogo(db);
  const pdf = await renderReceiptPdf(
    layoutReceipt(receipt, chosen, familyDate),
    logo ? { bytes: Buffer.from(logo.image_base64, 'base64'), contentType: logo.content_type } : undefined,
  );
  return { pdf, filename: `${receipt.receipt_number.replaceAll('/', '-')}.pdf` };
}
