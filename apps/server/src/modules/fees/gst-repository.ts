/**
 * SQL of GST (ADR 057): the centre's one settings row, each tax invoice's figures, fixed at payment,
 * and the credit note a reversed one carries, fixed at the reversal.
 */
import type { ReceiptCreditNote, ReceiptTax } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

export interface GstSettingsRow {
  registered: boolean;
  gstin: string | null;
  rate_basis_points: number;
  address: string | null;
}

/** Read afresh each time (never cached): a change applies to the next payment, without a restart. */
export async function readGstSettingsRow(db: Queryable, lock = false): Promise<GstSettingsRow> {
  const [row] = await db.query<GstSettingsRow>(
    `SELECT registered, gstin, rate_basis_points, address FROM fee_gst_settings WHERE id = 1${lock ? ' FOR UPDATE' : ''}`,
  );
  return row ?? { registered: false, gstin: null, rate_basis_points: 1800, address: null };
}

export async function writeGstSettingsRow(tx: Queryable, row: GstSettingsRow): Promise<void> {
  await tx.query(
    `INSERT INTO fee_gst_settings (id, registered, gstin, rate_basis_points, address, updated_at)
     VALUES (1, $1, $2, $3, $4, now())
     ON CONFLICT (id) DO UPDATE SET registered = $1, gstin = $2, rate_basis_points = $3, address = $4, updated_at = now()`,
    [row.registered, row.gstin, row.rate_basis_points, row.address],
  );
}

type StoredTax = Omit<ReceiptTax, 'state_name' | 'place_of_supply_name' | 'reverse_charge'>;

export async function insertReceiptTax(tx: Queryable, paymentId: number, tax: StoredTax): Promise<void> {
  await tx.query(
    `INSERT INTO fee_receipt_taxes (payment_id, gstin, state_code, sac, rate_basis_points, taxable_paise, cgst_paise,
                                    sgst_paise, igst_paise, supply_state_code, supplier_address, recipient_name,
                                    recipient_address, recipient_gstin)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (payment_id) DO NOTHING`,
    [
      paymentId,
      tax.gstin,
      tax.state_code,
      tax.sac,
      tax.rate_basis_points,
      tax.taxable_paise,
      tax.cgst_paise,
      tax.sgst_paise,
      tax.igst_paise,
      tax.place_of_supply_code,
      tax.supplier_address,
      tax.recipient_name,
      tax.recipient_address,
      tax.recipient_gstin,
    ],
  );
}

export async function findReceiptTax(db: Queryable, paymentId: number): Promise<StoredTax | undefined> {
  const [row] = await db.query<StoredTax>(
    `SELECT gstin, state_code, sac, rate_basis_points, taxable_paise::float8 AS taxable_paise,
            cgst_paise::float8 AS cgst_paise, sgst_paise::float8 AS sgst_paise, igst_paise::float8 AS igst_paise,
            coalesce(supply_state_code, state_code) AS place_of_supply_code,
            supplier_address, recipient_name, recipient_address, recipient_gstin
       FROM fee_receipt_taxes WHERE payment_id = $1`,
    [paymentId],
  );
  return row;
}

type CreditFigures = Pick<ReceiptCreditNote, 'taxable_paise' | 'cgst_paise' | 'sgst_paise' | 'igst_paise'>;

export async function insertCreditNote(
  tx: Queryable,
  note: { paymentId: number; reversalId: number; number: string; issuedOn: string } & CreditFigures,
): Promise<void> {
  await tx.query(
    `INSERT INTO fee_credit_notes (payment_id, credit_note_number, reversal_id, issued_on, taxable_paise, cgst_paise,
                                   sgst_paise, igst_paise)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      note.paymentId,
      note.number,
      note.reversalId,
      note.issuedOn,
      note.taxable_paise,
      note.cgst_paise,
      note.sgst_paise,
      note.igst_paise,
    ],
  );
}

/** The payment's credit note with its reversal's reason, or undefined. */
export async function findCreditNote(db: Queryable, paymentId: number): Promise<ReceiptCreditNote | undefined> {
  const [row] = await db.query<ReceiptCreditNote>(
    `SELECT c.credit_note_number AS number, c.issued_on, r.description AS reason,
            c.taxable_paise::float8 AS taxable_paise, c.cgst_paise::float8 AS cgst_paise,
            c.sgst_paise::float8 AS sgst_paise, c.igst_paise::float8 AS igst_paise
       FROM fee_credit_notes c JOIN ledger_transactions r ON r.id = c.reversal_id
      WHERE c.payment_id = $1`,
    [paymentId],
  );
  return row;
}

/** A family's state for the place of supply, or null: the centre's own. */
export async function readFamilyStateCode(db: Queryable, familyId: number): Promise<string | null> {
  const [row] = await db.query<{ state_code: string }>(
    'SELECT state_code FROM fee_family_states WHERE family_id = $1',
    [familyId],
  );
  return row?.state_code ?? null;
}

/** Sets a family's state (null: the centre's own, no row). Answers false for no such family. */
export async function writeFamilyStateCode(
  tx: Queryable,
  familyId: number,
  stateCode: string | null,
): Promise<boolean> {
  const [family] = await tx.query<{ id: number }>('SELECT id FROM fee_families WHERE id = $1 FOR UPDATE', [familyId]);
  if (!family) return false;
  if (stateCode === null) {
    await tx.query('DELETE FROM fee_family_states WHERE family_id = $1', [familyId]);
  } else {
    await tx.query(
      `INSERT INTO fee_family_states (family_id, state_code) VALUES ($1, $2)
       ON CONFLICT (family_id) DO UPDATE SET state_code = $2, updated_at = now()
       WHERE fee_family_states.state_code IS DISTINCT FROM $2`,
      [familyId, stateCode],
    );
  }
  return true;
}

export interface FamilyGstDetailsRow {
  billing_name: string | null;
  billing_address: string | null;
  billing_gstin: string | null;
}

/** A family's billing details for its tax invoices (ADR 065), nulls when none were set. */
export async function readFamilyGstDetails(db: Queryable, familyId: number): Promise<FamilyGstDetailsRow> {
  const [row] = await db.query<FamilyGstDetailsRow>(
    'SELECT billing_name, billing_address, billing_gstin FROM fee_family_gst_details WHERE family_id = $1',
    [familyId],
  );
  return row ?? { billing_name: null, billing_address: null, billing_gstin: null };
}

/**
 * Sets a family's billing details (all null: no row). The caller holds the family (writeFamilyStateCode
 * locks it first). Writes only what changed, so saving the same details leaves no audit row.
 */
export async function writeFamilyGstDetails(tx: Queryable, familyId: number, details: FamilyGstDetailsRow) {
  if (details.billing_name === null && details.billing_address === null && details.billing_gstin === null) {
    await tx.query('DELETE FROM fee_family_gst_details WHERE family_id = $1', [familyId]);
    return;
  }
  await tx.query(
    `INSERT INTO fee_family_gst_details (family_id, billing_name, billing_address, billing_gstin) VALUES ($1, $2, $3, $4)
     ON CONFLICT (family_id) DO UPDATE SET billing_name = $2, billing_address = $3, billing_gstin = $4, updated_at = now()
     WHERE (fee_family_gst_details.billing_name, fee_family_gst_details.billing_address,
            fee_family_gst_details.billing_gstin) IS DISTINCT FROM ($2, $3, $4)`,
    [familyId, details.billing_name, details.billing_address, details.billing_gstin],
  );
}

/** The parent's name as the family's records give it now (the newest record still attending first), or null. */
export async function readFamilyParentName(db: Queryable, familyId: number): Promise<string | null> {
  const [row] = await db.query<{ parent_name: string }>(
    `SELECT s.parent_name FROM fee_families f JOIN students s ON s.parent_phone = f.phone
      WHERE f.id = $1 AND s.parent_name <> ''
      ORDER BY s.left_on IS NULL DESC, s.created_at DESC, s.id DESC LIMIT 1`,
    [familyId],
  );
  return row?.parent_name ?? null;
}
