/**
 * GST on fees (ADR 057). Fees are inclusive of GST (what the family pays is the amount on the plan and
 * the receipt), so a registered centre's tax invoice splits each payment into its taxable value and
 * the tax in it, in integer paise. The place of supply is the family's state when an admin set one,
 * else the centre's (ADR 063): the same state is intra-state, CGST and SGST, half the rate each;
 * another is inter-state, IGST. The figures are fixed with the payment, in its transaction; a
 * reversal of a tax invoice fixes a credit note with them negated, in the reversal's. What Rule 46
 * asks an invoice to name (the centre's address, the family's billing name, address and GSTIN) is
 * fixed with the figures (ADR 065).
 */
import {
  type FeeFamilyGstDetailsInput,
  type feeFamilyGstDetailsInputSchema,
  GST_SAC,
  GST_STATES,
  type GstSettings,
  type GstSettingsInput,
  type gstSettingsInputSchema,
  type ReceiptCreditNote,
  type ReceiptTax,
} from '@tuitiondesk/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/database';
import { NotFoundError, ValidationError } from '../../lib/errors';
import {
  type FamilyGstDetailsRow,
  findCreditNote,
  findReceiptTax,
  type GstSettingsRow,
  insertCreditNote,
  insertReceiptTax,
  readFamilyGstDetails,
  readFamilyParentName,
  readFamilyStateCode,
  readGstSettingsRow,
  writeFamilyGstDetails,
  writeFamilyStateCode,
  writeGstSettingsRow,
} from './gst-repository';

/** A state's name as the GST network spells it, or its code when the list has no such state. */
const stateName = (code: string) => GST_STATES[code] ?? code;

/** `numerator / denominator` rounded half up, for non-negative integers. */
function roundedQuotient(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/**
 * The tax inside an amount that includes it. Intra-state: each half of the rate is worked out from the
 * amount and rounded to the paisa (half up), so CGST and SGST are equal as the invoice's equal rates
 * say, and the taxable value is what is left: the three always add up to the amount. Inter-state: the
 * taxable value is rounded and IGST is the rest.
 */
export function splitInclusiveAmount(
  amountPaise: number,
  rateBasisPoints: number,
  interState = false,
): Pick<ReceiptTax, 'taxable_paise' | 'cgst_paise' | 'sgst_paise' | 'igst_paise'> {
  if (interState) {
    const taxable = roundedQuotient(amountPaise * 10_000, 10_000 + rateBasisPoints);
    return { taxable_paise: taxable, cgst_paise: 0, sgst_paise: 0, igst_paise: amountPaise - taxable };
  }
  const half = roundedQuotient(amountPaise * rateBasisPoints, 2 * (10_000 + rateBasisPoints));
  return { taxable_paise: amountPaise - 2 * half, cgst_paise: half, sgst_paise: half, igst_paise: 0 };
}

function settingsOf(row: GstSettingsRow): GstSettings {
  const stateCode = row.gstin ? row.gstin.slice(0, 2) : null;
  return {
    registered: row.registered,
    gstin: row.gstin,
    state_code: stateCode,
    state_name: stateCode ? (GST_STATES[stateCode] ?? null) : null,
    sac: GST_SAC,
    rate_basis_points: Number(row.rate_basis_points),
    prices_include_gst: true,
    address: row.address,
  };
}

export async function getGstSettings(db: Queryable): Promise<GstSettings> {
  return settingsOf(await readGstSettingsRow(db));
}

/** An unregistered centre may keep its GSTIN typed in (it is shown again when registering). */
export async function updateGstSettings(
  tx: Queryable,
  input: z.output<typeof gstSettingsInputSchema> | GstSettingsInput,
): Promise<GstSettings> {
  const body = input as z.output<typeof gstSettingsInputSchema>;
  const row: GstSettingsRow = {
    registered: body.registered,
    gstin: body.gstin,
    rate_basis_points: body.rate_basis_points,
    address: body.address ?? null,
  };
  await readGstSettingsRow(tx, true);
  await writeGstSettingsRow(tx, row);
  return settingsOf(row);
}

/**
 * In the payment's transaction: a registered centre's tax figures for the payment, as the settings
 * and the family's state are now. Nothing for an unregistered centre (a plain receipt).
 */
export async function fixReceiptTax(
  tx: Queryable,
  payment: { paymentId: number; familyId: number; amountPaise: number },
): Promise<void> {
  const settings = await readGstSettingsRow(tx);
  if (!settings.registered || !settings.gstin) return;
  const rate = Number(settings.rate_basis_points);
  const centreState = settings.gstin.slice(0, 2);
  const supplyState = (await readFamilyStateCode(tx, payment.familyId)) ?? centreState;
  const billing = await readFamilyGstDetails(tx, payment.familyId);
  await insertReceiptTax(tx, payment.paymentId, {
    supplier_address: settings.address,
    recipient_name: billing.billing_name ?? (await readFamilyParentName(tx, payment.familyId)),
    recipient_address: billing.billing_address,
    recipient_gstin: billing.billing_gstin,
    gstin: settings.gstin,
    state_code: centreState,
    sac: GST_SAC,
    rate_basis_points: rate,
    place_of_supply_code: supplyState,
    ...splitInclusiveAmount(payment.amountPaise, rate, supplyState !== centreState),
  });
}

/**
 * A family's GST details: its state for the place of supply and its name (nulls: the centre's own), and
 * the billing name, address and GSTIN its tax invoices carry (nulls: none set).
 */
export async function familyGstDetails(
  db: Queryable,
  familyId: number,
): Promise<{ state_code: string | null; state_name: string | null } & FamilyGstDetailsRow> {
  const code = await readFamilyStateCode(db, familyId);
  return {
    state_code: code,
    state_name: code === null ? null : stateName(code),
    ...(await readFamilyGstDetails(db, familyId)),
  };
}

/** An admin sets the family's state (null: the centre's own); 404 for no such family. */
export async function setFamilyState(tx: Queryable, familyId: number, stateCode: string | null): Promise<void> {
  if (!(await writeFamilyStateCode(tx, familyId, stateCode))) {
    throw new NotFoundError('fees.family_not_found', { id: familyId });
  }
}

/**
 * `PUT …/state` alone (ADR 063): a family whose payer has a GSTIN keeps that GSTIN's state as its
 * place of supply (ADR 065), so another state is refused; the GST details dialog changes both at once.
 */
export async function changeFamilyState(tx: Queryable, familyId: number, stateCode: string | null): Promise<void> {
  const { billing_gstin: gstin } = await readFamilyGstDetails(tx, familyId);
  const centreState = (await readGstSettingsRow(tx)).gstin?.slice(0, 2) ?? null;
  const gstinState = gstin?.slice(0, 2);
  if (gstinState && gstinState !== (stateCode ?? centreState)) {
    throw new ValidationError('state_code', 'validation.custom', {
      message: `must be ${stateName(gstinState)} (${gstinState}), the state of the family's GSTIN ${gstin}: change both in its GST details`,
    });
  }
  await setFamilyState(tx, familyId, stateCode);
}

/**
 * An admin sets a family's GST details at once (ADR 065): its state and its billing name, address and
 * GSTIN; 404 for no such family, nothing written. A registered payer's place of supply is the state
 * of its GSTIN: with no state chosen, the GSTIN's is taken (none when it is the centre's own).
 */
export async function setFamilyGstDetails(
  tx: Queryable,
  familyId: number,
  input: z.output<typeof feeFamilyGstDetailsInputSchema> | FeeFamilyGstDetailsInput,
): Promise<void> {
  const body = input as z.output<typeof feeFamilyGstDetailsInputSchema>;
  const centreState = (await readGstSettingsRow(tx)).gstin?.slice(0, 2) ?? null;
  const gstinState = body.billing_gstin?.slice(0, 2) ?? null;
  const state = body.state_code ?? (gstinState === centreState ? null : gstinState);
  await setFamilyState(tx, familyId, state);
  await writeFamilyGstDetails(tx, familyId, {
    billing_name: body.billing_name ?? null,
    billing_address: body.billing_address ?? null,
    billing_gstin: body.billing_gstin ?? null,
  });
}

/** A receipt's tax block as fixed at payment, or null for a plain receipt. */
export async function receiptTax(db: Queryable, paymentId: number): Promise<ReceiptTax | null> {
  const stored = await findReceiptTax(db, paymentId);
  if (!stored) return null;
  return {
    ...stored,
    rate_basis_points: Number(stored.rate_basis_points),
    state_name: stateName(stored.state_code),
    place_of_supply_name: stateName(stored.place_of_supply_code),
    reverse_charge: false,
  };
}

/**
 * In the reversal's transaction: the credit note against the payment's tax invoice, numbered `number`
 * (taken by the caller from the year's series), its figures the invoice's negated. Answers false, and
 * takes nothing, for a plain receipt: it has no tax to credit. `number` is asked for only when needed.
 */
export async function fixCreditNote(
  tx: Queryable,
  note: { paymentId: number; reversalId: number; issuedOn: string },
  takeNumber: () => Promise<string>,
): Promise<boolean> {
  const tax = await findReceiptTax(tx, note.paymentId);
  if (!tax) return false;
  // 0 - x, not -x: a zero figure stays 0, never -0.
  await insertCreditNote(tx, {
    ...note,
    number: await takeNumber(),
    taxable_paise: 0 - Number(tax.taxable_paise),
    cgst_paise: 0 - Number(tax.cgst_paise),
    sgst_paise: 0 - Number(tax.sgst_paise),
    igst_paise: 0 - Number(tax.igst_paise),
  });
  return true;
}

/** A reversed tax invoice's credit note, or null (not reversed, or a plain receipt). */
export async function receiptCreditNote(db: Queryable, paymentId: number): Promise<ReceiptCreditNote | null> {
  const stored = await findCreditNote(db, paymentId);
  return stored ? { ...stored, reason: stored.reason ?? '' } : null;
}
