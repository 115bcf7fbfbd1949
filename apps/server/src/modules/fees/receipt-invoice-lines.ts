/**
 * The lines Rule 46 adds to a tax invoice beyond its figures (ADR 065): the centre's address under its
 * GSTIN, who the invoice is billed to (name, address, GSTIN, as fixed when it was issued), "Reverse
 * charge: No" and the centre's authorised signatory. A line whose value the invoice did not fix (one
 * issued before ADR 065) is not printed. A plain receipt has none of them.
 */
import type { ParentLanguage, ReceiptTax } from '@tuitiondesk/contract';
import { receiptText } from './receipt-texts';

/** A line of a receipt's page (receipt-pdf.ts draws them). */
export type ReceiptLine =
  | { kind: 'centre'; text: string }
  | { kind: 'note'; text: string }
  | { kind: 'title'; text: string }
  | { kind: 'row'; label: string; value: string; strong?: boolean }
  | { kind: 'section'; text: string }
  | { kind: 'reversed'; text: string }
  | { kind: 'signature'; text: string; signatory: string };

type Text = (key: Parameters<typeof receiptText>[1], params?: Record<string, string>) => string;

export function supplierLines(tax: ReceiptTax, t: Text): ReceiptLine[] {
  const lines: ReceiptLine[] = [{ kind: 'note', text: `${t('gstin')}: ${tax.gstin}` }];
  if (tax.supplier_address) lines.push({ kind: 'note', text: tax.supplier_address });
  return lines;
}

export function recipientRows(tax: ReceiptTax, t: Text): ReceiptLine[] {
  const rows: ReceiptLine[] = [];
  if (tax.recipient_name) rows.push({ kind: 'row', label: t('recipient'), value: tax.recipient_name });
  if (tax.recipient_address) rows.push({ kind: 'row', label: t('recipient_address'), value: tax.recipient_address });
  if (tax.recipient_gstin) rows.push({ kind: 'row', label: t('recipient_gstin'), value: tax.recipient_gstin });
  return rows;
}

export function reverseChargeRow(t: Text): ReceiptLine {
  return { kind: 'row', label: t('reverse_charge'), value: t('reverse_charge.no') };
}

export function signatureLine(centreName: string, language: ParentLanguage): ReceiptLine {
  return {
    kind: 'signature',
    text: receiptText(language, 'signature.for', { centre: centreName }),
    signatory: receiptText(language, 'signature'),
  };
}
