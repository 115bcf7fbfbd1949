import { z } from 'zod';

/**
 * Online payment through Razorpay Payment Links (issue 29, ADR 053): a family's link, and what the
 * webhook answers Razorpay. Money is integer paise; a link is at least ₹1 (100 paise, the least
 * Razorpay takes) and at most ₹1 crore.
 */

/** The most any one amount may be: ₹1 crore. */
export const PAYMENT_LINK_MAX_PAISE = 1_000_000_000;
/** The least Razorpay takes for a link: ₹1. */
export const PAYMENT_LINK_MIN_PAISE = 100;

export const paymentLinkRequestSchema = z
  .object({
    amount_paise: z
      .number({ error: 'must be the amount in paise, a whole number (₹12.50 is 1250)' })
      .int('must be a whole number of paise (₹12.50 is 1250)')
      .positive('must be more than 0')
      .min(PAYMENT_LINK_MIN_PAISE, 'must be at least 100 paise (₹1), the least Razorpay takes')
      .max(PAYMENT_LINK_MAX_PAISE, 'must be at most 1000000000 paise (₹1 crore)')
      .optional()
      .describe("what the link asks for; left out: the family's balance"),
  })
  .describe('A Razorpay Payment Link for a family (all its children)');
export type PaymentLinkRequest = z.infer<typeof paymentLinkRequestSchema>;

export const paymentLinkSchema = z.object({
  link_id: z.string().describe("Razorpay's id of the link (plink_…)"),
  url: z.string().describe('the page the family pays on (rzp.io/i/…)'),
  amount_paise: z.number().int(),
});
export type PaymentLink = z.infer<typeof paymentLinkSchema>;

export const paymentLinkParamsSchema = z.object({
  family_id: z.coerce
    .number({ error: 'must be a family id' })
    .int('must be a family id')
    .positive('must be a family id')
    .max(2_147_483_647, 'must be a family id'),
});

/** What the webhook answers Razorpay once an event is kept (or was kept before). */
export const razorpayWebhookAnswerSchema = z.object({
  received: z.literal(true),
  duplicate: z.boolean().describe('the event id was received before: nothing more was done'),
});
