import { z } from 'zod';
import { isoDateSchema, requiredText, rowIdSchema } from './common';
import { receiptCreditNoteSchema, receiptTaxSchema } from './gst';

/**
 * Fees (issue 29, ADR 051): the ledger's reports, counter payments, receipts and reversals. Money is
 * integer paise on the wire (`amount_paise`, `balance_paise`): a balance > 0 means the family owes,
 * < 0 is its advance. The routes and fields the contract fixes are kept exactly.
 */

/** The most any one amount may be: ₹1 crore. */
export const FEES_MAX_PAISE = 1_000_000_000;

/** An amount a person gives: a positive whole number of paise, at most ₹1 crore. */
export const amountPaiseSchema = z
  .number({ error: 'must be an amount in paise, a whole number (₹12.50 is 1250)' })
  .int('must be a whole number of paise (₹12.50 is 1250)')
  .positive('must be more than 0')
  .max(FEES_MAX_PAISE, 'must be at most 1000000000 paise (₹1 crore)')
  .meta({ example: 125_000 });

/** The ways money is taken at the counter. */
export const COUNTER_PAYMENT_MODES = ['cash', 'upi', 'cheque', 'bank_transfer', 'card'] as const;
export type CounterPaymentMode = (typeof COUNTER_PAYMENT_MODES)[number];
/** Every way money comes in: the counter's, and `online` (the payment gateway). */
export const PAYMENT_MODES = [...COUNTER_PAYMENT_MODES, 'online'] as const;
export type FeePaymentMode = (typeof PAYMENT_MODES)[number];

/** Modes whose payment must carry the payer's reference, so it can be matched with the bank's record. */
export const MODES_NEEDING_REFERENCE: readonly CounterPaymentMode[] = ['upi', 'cheque', 'bank_transfer'];
export const PAYMENT_REFERENCE_MAX = 35;

/** How old a payment may be when recorded: the days before today in the centre's zone. */
export const PAYMENT_MAX_AGE_DAYS = 366;

const REFERENCE_RULES: Record<CounterPaymentMode, { pattern: RegExp; hint: string } | null> = {
  // The UPI reference every payer's app shows (UTR/RRN, 12 digits; some apps show a longer id).
  upi: {
    pattern: /^[A-Za-z0-9]{12,35}$/,
    hint: "must be the payer's UPI reference (12 to 35 letters or digits, e.g. 412345678901)",
  },
  cheque: { pattern: /^[0-9]{6}$/, hint: 'must be the cheque number (6 digits)' },
  bank_transfer: {
    pattern: /^[A-Za-z0-9]{6,35}$/,
    hint: 'must be the transfer reference (UTR: 6 to 35 letters or digits)',
  },
  cash: null,
  card: null,
};

export const recordPaymentSchema = z
  .object({
    family_id: rowIdSchema('must be the id of a family (from the dues list or a student)'),
    amount_paise: amountPaiseSchema,
    mode: z.enum(COUNTER_PAYMENT_MODES, { error: 'must be cash, upi, cheque, bank_transfer or card' }),
    received_on: isoDateSchema.describe("the day the money was received, in the centre's zone; not in the future"),
    reference: z
      .string({ error: 'must be text' })
      .trim()
      .max(PAYMENT_REFERENCE_MAX, `must be at most ${PAYMENT_REFERENCE_MAX} characters`)
      .nullish()
      .transform((value) => (value ? value : null))
      .describe("the payer's reference: required for upi (UPI reference), cheque (number) and bank_transfer (UTR)"),
    client_id: z.uuid({ error: 'must be the id the device gave this payment (a UUID)' }),
  })
  .superRefine((value, context) => {
    const rule = REFERENCE_RULES[value.mode];
    if (value.reference === null) {
      if (rule)
        context.addIssue({
          code: 'custom',
          path: ['reference'],
          message: `is required for ${value.mode} payments: ${rule.hint}`,
        });
      return;
    }
    if (rule && !rule.pattern.test(value.reference))
      context.addIssue({ code: 'custom', path: ['reference'], message: rule.hint });
    if (!rule && !/^[\p{L}\p{N} /-]+$/u.test(value.reference))
      context.addIssue({
        code: 'custom',
        path: ['reference'],
        message: 'may hold letters, digits, spaces, / and - only',
      });
  });
export type RecordPayment = z.input<typeof recordPaymentSchema>;

export const allocationSchema = z.object({
  student_id: z
    .number()
    .int()
    .nullable()
    .describe('the child whose charges it paid; null: kept as the family’s advance'),
  amount_paise: z.number().int(),
});
export type Allocation = z.infer<typeof allocationSchema>;

export const recordedPaymentSchema = z
  .object({
    payment_id: z.number().int(),
    receipt_number: z.string().describe('unique in its financial year, gapless, e.g. R/2026-27/000123'),
    allocations: z.array(allocationSchema).describe('oldest charge first; what is beyond the dues is the advance'),
    balance_paise: z.number().int().describe("the family's balance after it: > 0 owes, < 0 advance"),
  })
  .meta({ id: 'RecordedPayment' });
export type RecordedPayment = z.infer<typeof recordedPaymentSchema>;

export const paymentIdParamsSchema = z.object({
  payment_id: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .positive('must be a positive id')
    .max(Number.MAX_SAFE_INTEGER, 'is not a known id'),
});

export const reversePaymentSchema = z.object({
  reason: requiredText(200).describe('why: a bounced cheque, a mistake…'),
});
export type ReversePayment = z.input<typeof reversePaymentSchema>;

export const familyStudentSchema = z.object({
  id: z.number().int(),
  full_name: z.string(),
  class_name: z.string(),
});

/** A receipt as JSON; a GST-registered centre's is a tax invoice with its tax block (ADR 057). */
export const receiptSchema = z
  .object({
    payment_id: z.number().int(),
    receipt_number: z.string(),
    financial_year: z.string().describe('April to March, e.g. 2026-27'),
    centre_name: z.string(),
    family_id: z.number().int(),
    parent_name: z.string(),
    parent_phone: z.string(),
    students: z.array(familyStudentSchema),
    amount_paise: z.number().int(),
    mode: z.enum(PAYMENT_MODES),
    reference: z.string().nullable(),
    received_on: z.string(),
    recorded_by: z.string().nullable().describe('the staff member who recorded it; null for an online payment'),
    allocations: z.array(allocationSchema),
    balance_paise: z.number().int().describe("the family's balance right after this payment"),
    reversed: z.boolean(),
    reversed_on: z.string().nullable(),
    reversal_reason: z.string().nullable(),
    document: z
      .enum(['receipt', 'tax_invoice'])
      .describe('tax_invoice when the centre was GST-registered at the moment of the payment'),
    tax: receiptTaxSchema
      .nullable()
      .describe('the GST in the amount (inclusive), fixed when the payment was recorded; null on a plain receipt'),
    credit_note: receiptCreditNoteSchema
      .nullable()
      .describe('the credit note the reversal of a tax invoice issued; null otherwise (a plain receipt gets none)'),
  })
  .meta({ id: 'FeeReceipt' });
export type Receipt = z.infer<typeof receiptSchema>;

export const familyIdParamsSchema = z.object({
  family_id: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .positive('must be a positive id')
    .max(2_147_483_647, 'is not a known id'),
});

export const studentFamilyParamsSchema = z.object({
  student_id: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .positive('must be a positive id')
    .max(2_147_483_647, 'is not a known id'),
});

export const feeFamilySchema = z
  .object({
    family_id: z.number().int(),
    parent_name: z.string(),
    parent_phone: z.string(),
    students: z.array(familyStudentSchema),
    balance_paise: z.number().int(),
    state_code: z
      .string()
      .nullable()
      .describe("the family's state for GST's place of supply; null: the centre's own (ADR 063)"),
    state_name: z.string().nullable(),
    billing_name: z
      .string()
      .nullable()
      .describe("the name its tax invoices are billed to; null: the parent's name (ADR 065)"),
    billing_address: z.string().nullable().describe('the postal address its tax invoices carry; null: none'),
    billing_gstin: z.string().nullable().describe("the payer's GSTIN when it is a registered business"),
  })
  .meta({ id: 'FeeFamily' });
export type FeeFamily = z.infer<typeof feeFamilySchema>;

export const dueSchema = z.object({
  family_id: z.number().int(),
  parent_name: z.string(),
  parent_phone: z.string(),
  students: z.array(familyStudentSchema),
  balance_paise: z.number().int(),
  oldest_due_date: z.string().describe('the due date of the oldest charge not yet paid'),
  days_overdue: z.number().int().describe('days since oldest_due_date; 0 while it is not yet due'),
});
export const duesSchema = z.array(dueSchema).meta({ id: 'FeeDues' });
export type Due = z.infer<typeof dueSchema>;

export const LEDGER_KINDS = [
  'charge',
  'discount',
  'late_fee',
  'payment',
  'reversal',
  'refund',
  'gateway_fee',
  'correction',
] as const;

export const statementSchema = z
  .object({
    family_id: z.number().int(),
    balance_paise: z.number().int(),
    entries: z.array(
      z.object({
        date: z.string(),
        kind: z.enum(LEDGER_KINDS),
        description: z.string(),
        student_id: z.number().int().nullable(),
        debit_paise: z.number().int(),
        credit_paise: z.number().int(),
        balance_paise: z.number().int().describe('the running balance after this entry'),
        payment_id: z
          .number()
          .int()
          .nullable()
          .describe('the payment (its receipt) a payment entry records or a reversal entry reverses; else null'),
      }),
    ),
  })
  .meta({ id: 'FeeStatement' });
export type Statement = z.infer<typeof statementSchema>;

export const AGEING_BUCKETS = ['0-30', '31-60', '61-90', '90+'] as const;
export const ageingSchema = z
  .object({
    as_of: z.string(),
    buckets: z.array(
      z.object({
        bucket: z.enum(AGEING_BUCKETS),
        amount_paise: z.number().int(),
        families: z.number().int().describe('families with some of their dues in this bucket'),
      }),
    ),
    total_paise: z.number().int(),
    families: z.number().int().describe('families that owe'),
    overdue_paise: z
      .number()
      .int()
      .describe('what is owed past its due date (the 0-30 bucket holds charges not yet due as well)'),
    overdue_families: z.number().int().describe('families with something owed past its due date'),
  })
  .meta({ id: 'FeeAgeing' });
export type Ageing = z.infer<typeof ageingSchema>;

export const collectionsQuerySchema = z.object({
  period: z
    .enum(['today', 'month'], { error: 'must be today or month' })
    .optional()
    .describe("today, or this month so far, in the centre's zone; instead of from and to"),
  from: isoDateSchema.optional().describe('the first day (default today)'),
  to: isoDateSchema.optional().describe('the last day (default from)'),
});
export type CollectionsQuery = z.input<typeof collectionsQuerySchema>;

const collectedFields = {
  amount_paise: z.number().int().describe('received, less what was reversed in the period'),
  payments: z.number().int(),
  reversals: z.number().int(),
};
export const collectionsSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    ...collectedFields,
    by_mode: z.array(z.object({ mode: z.enum(PAYMENT_MODES), ...collectedFields })),
    by_staff: z.array(
      z.object({ user_id: z.number().int().nullable(), name: z.string().nullable(), ...collectedFields }),
    ),
  })
  .meta({ id: 'FeeCollections' });
export type Collections = z.infer<typeof collectionsSchema>;
