/**
 * GST on fees (issue 29, ADR 057): whether the centre is registered, its GSTIN, and the rate. A
 * registered centre's receipts are tax invoices under SAC 999293 (commercial training and coaching),
 * the fee being inclusive of GST; an unregistered centre's are plain receipts with no tax lines.
 * Rates are basis points on the wire (1800 = 18 %), as money is paise: never a float.
 */
import { z } from 'zod';

/** Commercial training and coaching services: fixed, shown on every tax invoice. */
export const GST_SAC = '999293';
/**
 * Rule 46: a tax invoice of ₹50,000 or more to an unregistered recipient carries its address and
 * state; the console asks for them before such a payment is recorded (ADR 065).
 */
export const GST_DETAILS_NEEDED_FROM_PAISE = 5_000_000;
/** 18 %, the rate coaching has had since 2017 and kept under the 2025 slabs. */
export const GST_DEFAULT_RATE_BASIS_POINTS = 1800;
/** The highest slab (40 %). */
export const GST_MAX_RATE_BASIS_POINTS = 4000;

/** State and union territory codes, the GSTIN's first two digits, with their names (for "place of supply"). */
export const GST_STATES: Readonly<Record<string, string>> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
  '97': 'Other Territory',
};

const GSTIN_SHAPE = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The GSTIN's 15th character, from the first fourteen: the GST network's mod-36 check (Luhn over base
 * 36: every second character's value doubled, the two base-36 digits of each product added).
 */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let index = 0; index < 14; index += 1) {
    const value = BASE36.indexOf(first14[index] ?? '');
    const product = value * (index % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return BASE36[(36 - (sum % 36)) % 36] as string;
}

/** What is wrong with a GSTIN (already upper-cased), or null when it is a valid one. */
export function gstinProblem(gstin: string): string | null {
  if (gstin.length !== 15) return 'must be 15 characters, e.g. 27AAPFU0939F1ZV';
  if (!GSTIN_SHAPE.test(gstin)) {
    return 'must be 2 digits of the state, the 10-character PAN, the entity number, Z and a check character, e.g. 27AAPFU0939F1ZV';
  }
  if (GST_STATES[gstin.slice(0, 2)] === undefined) return `starts with ${gstin.slice(0, 2)}, which is no state code`;
  if (gstinCheckCharacter(gstin.slice(0, 14)) !== gstin[14]) {
    return 'has a wrong last character (the check character): copy it again from the registration certificate';
  }
  return null;
}

export const gstinSchema = z
  .string({ error: 'must be text' })
  .trim()
  .transform((value) => value.toUpperCase().replace(/\s/g, ''))
  .superRefine((value, context) => {
    const problem = gstinProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .meta({ example: '27AAPFU0939F1ZV' });

export const gstRateSchema = z
  .number({ error: 'must be the rate in basis points, a whole number (18 % is 1800)' })
  .int('must be a whole number of basis points (18 % is 1800)')
  .positive('must be more than 0')
  .max(GST_MAX_RATE_BASIS_POINTS, `must be at most ${GST_MAX_RATE_BASIS_POINTS} (40 %)`);

/** The longest address a tax invoice prints (one line, parts separated by commas). */
export const GST_ADDRESS_MAX_LENGTH = 300;
/** The longest billing name. */
export const GST_BILLING_NAME_MAX_LENGTH = 120;

/**
 * A line of a tax invoice typed by an admin: an address or a name. Lines typed on several rows are
 * joined with ", " (the invoice prints one line); blank is none (null).
 */
const invoiceLineSchema = (max: number) =>
  z
    .string({ error: 'must be text' })
    .transform((value) =>
      value
        .split(/\r?\n/)
        .map((part) => part.trim().replace(/\s+/g, ' ').replace(/,$/, ''))
        .filter(Boolean)
        .join(', '),
    )
    .pipe(z.string().max(max, `must be at most ${max} characters`))
    .nullish()
    .transform((value) => value || null);

/**
 * What an admin sets: registered or not, the GSTIN and the centre's address (both required when
 * registered: Rule 46 puts the supplier's address on every tax invoice, ADR 065) and the rate.
 */
export const gstSettingsInputSchema = z
  .object({
    registered: z.boolean({ error: 'must be true or false' }),
    gstin: gstinSchema.nullish().transform((value) => value || null),
    rate_basis_points: gstRateSchema.default(GST_DEFAULT_RATE_BASIS_POINTS),
    address: invoiceLineSchema(GST_ADDRESS_MAX_LENGTH).describe(
      "the centre's address as on its GST registration, printed on every tax invoice",
    ),
  })
  .superRefine((value, context) => {
    if (value.registered && value.gstin === null) {
      context.addIssue({
        code: 'custom',
        path: ['gstin'],
        message: 'is required for a registered centre: enter the 15-character GSTIN',
      });
    }
    if (value.registered && value.address === null) {
      context.addIssue({
        code: 'custom',
        path: ['address'],
        message: "is required for a registered centre: enter the centre's address as on its GST registration",
      });
    }
  });
export type GstSettingsInput = z.input<typeof gstSettingsInputSchema>;

export const gstSettingsSchema = z
  .object({
    registered: z.boolean(),
    gstin: z.string().nullable(),
    state_code: z.string().nullable().describe("the GSTIN's first two digits: the centre's state"),
    state_name: z.string().nullable(),
    sac: z.literal(GST_SAC),
    rate_basis_points: z.number().int(),
    prices_include_gst: z.literal(true).describe('fees are amounts the family pays, GST included'),
    address: z
      .string()
      .nullable()
      .describe("the centre's address on its tax invoices; null on a centre registered before ADR 065 asked for it"),
  })
  .meta({ id: 'GstSettings' });
export type GstSettings = z.infer<typeof gstSettingsSchema>;

/** A state's code, as on a GSTIN: one of GST_STATES. */
export const gstStateCodeSchema = z
  .string({ error: 'must be a state code' })
  .refine((code) => GST_STATES[code] !== undefined, {
    message: 'must be a state code of two digits, e.g. 27 for Maharashtra',
  });

/**
 * A family's state, for GST's place of supply (ADR 063): null is the centre's own state. A family
 * outside the centre's state is billed IGST instead of CGST and SGST, from its next payment on.
 */
export const feeFamilyStateInputSchema = z.object({ state_code: gstStateCodeSchema.nullable() });
export type FeeFamilyStateInput = z.infer<typeof feeFamilyStateInputSchema>;

/**
 * A family's GST details (ADR 065), set together in one dialog: its state (the place of supply, as
 * `PUT …/state` sets it), the name and postal address its tax invoices are billed to, and the GSTIN
 * of a payer that is a GST-registered business. A blank name bills the parent's name. A GSTIN's first
 * two digits are its state: the family's state must be that one (or null, which then takes it).
 */
export const feeFamilyGstDetailsInputSchema = z
  .object({
    state_code: gstStateCodeSchema.nullable(),
    billing_name: invoiceLineSchema(GST_BILLING_NAME_MAX_LENGTH),
    billing_address: invoiceLineSchema(GST_ADDRESS_MAX_LENGTH),
    billing_gstin: gstinSchema.nullish().transform((value) => value || null),
  })
  .superRefine((value, context) => {
    const gstinState = value.billing_gstin?.slice(0, 2);
    if (gstinState && value.state_code !== null && value.state_code !== gstinState) {
      context.addIssue({
        code: 'custom',
        path: ['billing_gstin'],
        message: `is registered in ${GST_STATES[gstinState] ?? gstinState} (${gstinState}): choose that state as the family's state, or correct the GSTIN`,
      });
    }
  });
export type FeeFamilyGstDetailsInput = z.input<typeof feeFamilyGstDetailsInputSchema>;

/** A tax invoice's tax block, fixed when the payment was recorded. */
export const receiptTaxSchema = z
  .object({
    gstin: z.string(),
    state_code: z.string(),
    state_name: z.string(),
    sac: z.string(),
    rate_basis_points: z.number().int(),
    taxable_paise: z.number().int(),
    cgst_paise: z.number().int(),
    sgst_paise: z.number().int(),
    igst_paise: z.number().int(),
    place_of_supply_code: z
      .string()
      .describe(
        "the state of supply: the family's when it was set, else the centre's (IGST when it is not the centre's)",
      ),
    place_of_supply_name: z.string(),
    supplier_address: z
      .string()
      .nullable()
      .describe("the centre's address when the invoice was issued; null on invoices issued before ADR 065"),
    recipient_name: z
      .string()
      .nullable()
      .describe("who the invoice is billed to, as it was issued: the family's billing name, else the parent's"),
    recipient_address: z.string().nullable().describe("the family's billing address when the invoice was issued"),
    recipient_gstin: z.string().nullable().describe("the payer's GSTIN when it is a registered business"),
    reverse_charge: z.literal(false).describe('tuition fees are never under reverse charge: the invoice says "No"'),
  })
  .meta({ id: 'ReceiptTax' });
export type ReceiptTax = z.infer<typeof receiptTaxSchema>;

/**
 * The credit note a reversed tax invoice carries (Section 34): its own gapless series per financial
 * year (`CN/2026-27/00001`, at most 16 characters), the invoice's tax figures negated.
 */
export const receiptCreditNoteSchema = z
  .object({
    number: z.string().describe('unique in its financial year, gapless, e.g. CN/2026-27/00001'),
    issued_on: z.string().describe('the day of the reversal that issued it'),
    reason: z.string().describe("the reversal's reason"),
    taxable_paise: z.number().int().describe("the invoice's taxable value, negated"),
    cgst_paise: z.number().int(),
    sgst_paise: z.number().int(),
    igst_paise: z.number().int(),
  })
  .meta({ id: 'ReceiptCreditNote' });
export type ReceiptCreditNote = z.infer<typeof receiptCreditNoteSchema>;

/** The languages a receipt PDF is made in (`?lang=`), the parent app's. */
export const RECEIPT_LANGUAGES = ['en', 'hi', 'mr', 'ta', 'bn', 'ur'] as const;
export const receiptQuerySchema = z.object({
  lang: z.enum(RECEIPT_LANGUAGES, { error: 'must be one of en, hi, mr, ta, bn, ur' }).optional(),
});
