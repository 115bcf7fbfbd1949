import { z } from 'zod';
import { queryNumberSchema } from './common';
import { familyStudentSchema, PAYMENT_MODES, statementSchema } from './fees';

/**
 * Fees in the parent app (issue 29, ADR 059): the signed-in parent's own family only, read from the
 * same ledger as the staff statement. Money is integer paise; the app formats it in the family's language.
 */

/** The statement's last entries a parent is shown at first; `entries` asks for more, up to the most. */
export const PARENT_STATEMENT_DEFAULT_ENTRIES = 50;
export const PARENT_STATEMENT_MAX_ENTRIES = 1000;
/** Receipts are listed newest first, at most this many (a family pays a few times a month at most). */
export const PARENT_RECEIPTS_MAX = 200;

export const parentFeesQuerySchema = z.object({
  entries: queryNumberSchema({
    min: 1,
    max: PARENT_STATEMENT_MAX_ENTRIES,
    byDefault: PARENT_STATEMENT_DEFAULT_ENTRIES,
  }).describe("how many of the statement's newest entries to answer"),
});
export type ParentFeesQuery = z.input<typeof parentFeesQuerySchema>;

const statementEntrySchema = statementSchema.shape.entries.element;

export const parentReceiptSummarySchema = z.object({
  payment_id: z.number().int(),
  receipt_number: z.string(),
  date: z.string().describe('the day the money was received'),
  amount_paise: z.number().int(),
  mode: z.enum(PAYMENT_MODES),
  reversed: z.boolean().describe('the payment was reversed (a bounced cheque, a mistake): the receipt stays, marked'),
});
export type ParentReceiptSummary = z.infer<typeof parentReceiptSummarySchema>;

export const parentPayLinkSchema = z
  .object({
    url: z.string().describe("Razorpay's page for the family's link"),
    amount_paise: z.number().int(),
  })
  .meta({ id: 'ParentPayLink' });
export type ParentPayLink = z.infer<typeof parentPayLinkSchema>;

export const parentFeesSchema = z
  .object({
    family_id: z.number().int(),
    balance_paise: z.number().int().describe('> 0 the family owes, < 0 its advance'),
    students: z.array(familyStudentSchema),
    entries: z
      .array(statementEntrySchema)
      .describe("the statement's newest entries, oldest of them first (newest last), with the running balance"),
    earlier_entries: z
      .number()
      .int()
      .describe('how many older entries are left out; ask again with a larger `entries` to see them'),
    receipts: z.array(parentReceiptSummarySchema).describe('newest first'),
    online_payment: z.boolean().describe('whether the centre takes payment online (Razorpay)'),
    can_pay_online: z
      .boolean()
      .describe('online payment is on and the balance is at least ₹1: POST /parent/fees/pay-link gives the link'),
    pay: parentPayLinkSchema
      .nullable()
      .describe(
        "the family's open link for the balance, if one was made already; none is made by this read (POST /parent/fees/pay-link makes it)",
      ),
  })
  .meta({ id: 'ParentFees' });
export type ParentFees = z.infer<typeof parentFeesSchema>;
