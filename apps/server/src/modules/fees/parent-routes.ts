import {
  errorSchema,
  type ParentPayLink,
  parentFeesQuerySchema,
  parentFeesSchema,
  parentPayLinkSchema,
  paymentIdParamsSchema,
  receiptQuerySchema,
  receiptSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import type { ActivityActor } from '../../lib/activity-log';
import { currentParent, parentOnly } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { familyDetails } from './fee-families';
import { getParentFees, getParentReceipt, getParentReceiptPdf, parentFamilyId } from './parent-fees';
import { answerReceipt } from './receipt-reply';

const tags = ['parent'];

/**
 * The family's Razorpay links, which live in the payment-gateway module. That module reads fees (a
 * payment is recorded through fees), so fees cannot import it back (the modules form layers, ADR
 * 040): the app hands them in when it registers these routes (ADR 059).
 */
export interface ParentPayLinks {
  /** The family's open link for exactly this amount, if one was made; never makes one. */
  open(db: Queryable, familyId: number, amountPaise: number): Promise<ParentPayLink | undefined>;
  /** The family's link for its balance: the open one again, or one made now (ADR 053's one-per-family rule). */
  make(ctx: AppContext, actor: ActivityActor, familyId: number): Promise<ParentPayLink>;
}

/** Fees in the parent app (ADR 059): a parent token only (a staff token gets 403), their own family only. */
export function registerParentFeeRoutes(app: ZodApp, ctx: AppContext, links: ParentPayLinks): void {
  app.get(
    '/parent/fees',
    {
      config: parentOnly,
      schema: {
        tags,
        summary: "The family's fees: balance, the statement's newest entries, receipts, and whether it can pay online",
        description:
          "Read from the ledger the staff statement reads. `pay` is the family's open Razorpay link for the balance if one was made already; this read never makes one: POST /parent/fees/pay-link does, when the parent taps Pay. A family with nothing in the ledger yet answers a balance of 0 and empty lists.",
        querystring: parentFeesQuerySchema,
        response: { 200: parentFeesSchema, 422: errorSchema },
      },
    },
    async (request) =>
      getParentFees(ctx.db, currentParent(request).phone, {
        entries: request.query.entries,
        online: ctx.config.razorpay !== undefined,
        openLink: links.open,
      }),
  );

  app.post(
    '/parent/fees/pay-link',
    {
      config: parentOnly,
      schema: {
        tags,
        summary: "The family's Razorpay link for its whole balance, made when the parent taps Pay",
        description:
          "The family's open link for the balance is answered again (one link per family, ADR 053); only when there is none is Razorpay asked for one. Online payment off: 409. Nothing owed (or under ₹1): 422. Razorpay unreachable: 503 and nothing kept.",
        response: {
          200: parentPayLinkSchema,
          409: errorSchema,
          422: errorSchema,
          502: errorSchema,
          503: errorSchema,
        },
      },
    },
    async (request) => {
      const familyId = await parentFamilyId(ctx.db, currentParent(request).phone);
      const { parent_name } = await familyDetails(ctx.db, familyId);
      // The parent has no staff account: the activity feed names them as the other parent actions do.
      const actor: ActivityActor = { id: null, full_name: `${parent_name} (parent)`, text_name: parent_name };
      const link = await links.make(ctx, actor, familyId);
      return { url: link.url, amount_paise: link.amount_paise };
    },
  );

  app.get(
    '/parent/fees/receipts/:payment_id',
    {
      config: parentOnly,
      schema: {
        tags,
        summary:
          "A receipt of the family's own: JSON, or with `Accept: application/pdf` the PDF staff print; another family's payment is 404",
        description:
          "The PDF is in the family's language, or in `lang` (en, hi, mr, ta, bn, ur), named after the receipt number (R-2026-27-000123.pdf).",
        produces: ['application/json', 'application/pdf'],
        params: paymentIdParamsSchema,
        querystring: receiptQuerySchema,
        response: { 200: receiptSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request, reply) => {
      const phone = currentParent(request).phone;
      return answerReceipt(request, reply, {
        pdf: () => getParentReceiptPdf(ctx.db, phone, request.params.payment_id, request.query.lang),
        json: () => getParentReceipt(ctx.db, phone, request.params.payment_id),
      });
    },
  );
}
