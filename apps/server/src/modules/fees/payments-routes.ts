import {
  ageingSchema,
  collectionsQuerySchema,
  collectionsSchema,
  duesSchema,
  errorSchema,
  familyIdParamsSchema,
  feeFamilySchema,
  paymentIdParamsSchema,
  receiptQuerySchema,
  receiptSchema,
  recordedPaymentSchema,
  recordPaymentSchema,
  reversePaymentSchema,
  statementSchema,
  studentFamilyParamsSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { sendVersioned } from '../../lib/versioned-answer';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { familyOfStudent, getFeeFamily } from './fee-families';
import { registerGstRoutes } from './gst-routes';
import { recordCounterPayment, reversePayment } from './payments-service';
import { enableReceiptDelivery } from './receipt-delivery';
import { answerReceipt } from './receipt-reply';
import { getReceipt, getReceiptPdf } from './receipts';
import { getAgeing, getCollections, getDues, getStatement } from './reports';

/**
 * The fee reports are versioned answers (ADR 024, migration 0037): built once per version of the
 * ledger and the students (names, classes, phones) and per day (days overdue), a 304 when unchanged.
 */
const FEES_AND_FAMILIES = { kinds: ['fees', 'students'] } as const;

const tags = ['fees'];

/** The ledger's routes (ADR 051): counter payments, receipts, reversals, families and the reports. Admins only. */
export function registerFeeRoutes(app: ZodApp, ctx: AppContext): void {
  enableReceiptDelivery(ctx);
  app.post(
    '/fees/payments',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Record money received at the counter, allocated oldest charge first; the rest is the advance',
        description:
          'client_id is a UUID the client makes: the same client_id again answers the first result (200) and records nothing more; with other content it is 422. reference is required for upi (the UPI reference), cheque (its number) and bank_transfer (the UTR). received_on is not in the future nor more than a year ago.',
        body: recordPaymentSchema,
        response: { 200: recordedPaymentSchema, 201: recordedPaymentSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request, reply) => {
      const { answer, created } = await recordCounterPayment(ctx, currentUser(request), request.body);
      return reply.code(created ? 201 : 200).send(answer);
    },
  );

  app.post(
    '/fees/payments/:payment_id/reverse',
    {
      config: adminOnly,
      schema: {
        tags,
        summary:
          'Reverse a payment (a bounced cheque, a mistake): the receipt stays, marked reversed; the family owes it again',
        params: paymentIdParamsSchema,
        body: reversePaymentSchema,
        response: { 200: receiptSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => reversePayment(ctx, currentUser(request), request.params.payment_id, request.body.reason),
  );

  app.get(
    '/fees/receipts/:payment_id',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "A payment's receipt: JSON, or with `Accept: application/pdf` the printable PDF",
        description:
          "A GST-registered centre's receipt is a tax invoice (document, tax). The PDF is in the family's language, or in `lang` (en, hi, mr, ta, bn, ur); it is sent as an attachment named after the receipt number (R-2026-27-000123.pdf).",
        produces: ['application/json', 'application/pdf'],
        params: paymentIdParamsSchema,
        querystring: receiptQuerySchema,
        response: { 200: receiptSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request, reply) =>
      answerReceipt(request, reply, {
        pdf: () => getReceiptPdf(ctx.db, request.params.payment_id, request.query.lang),
        json: () => getReceipt(ctx.db, request.params.payment_id),
      }),
  );

  registerGstRoutes(app, ctx);

  app.get(
    '/fees/students/:student_id/family',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "A student's fee family (its id, parent, children and balance), made on first use",
        params: studentFamilyParamsSchema,
        response: { 200: feeFamilySchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => {
      const familyId = await ctx.db.transaction((tx) => familyOfStudent(tx, request.params.student_id));
      return getFeeFamily(ctx.db, familyId);
    },
  );

  app.get(
    '/fees/families/:family_id',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'A fee family: its parent, children and balance (> 0 owes, < 0 advance)',
        params: familyIdParamsSchema,
        response: { 200: feeFamilySchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, FEES_AND_FAMILIES, async () =>
        JSON.stringify(await getFeeFamily(ctx.db, request.params.family_id)),
      ),
  );

  app.get(
    '/fees/families/:family_id/statement',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "A family's statement, oldest first, with the running balance",
        params: familyIdParamsSchema,
        response: { 200: statementSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, FEES_AND_FAMILIES, async () =>
        JSON.stringify(await getStatement(ctx.db, request.params.family_id)),
      ),
  );

  app.get(
    '/fees/dues',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Families that owe, oldest debt first',
        response: { 200: duesSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, FEES_AND_FAMILIES, async () => JSON.stringify(await getDues(ctx.db))),
  );

  app.get(
    '/fees/ageing',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'What families owe by days past the due date: 0-30, 31-60, 61-90, 90+',
        response: { 200: ageingSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, { kinds: ['fees'] }, async () => JSON.stringify(await getAgeing(ctx.db))),
  );

  app.get(
    '/fees/collections',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Money collected in a period (period=today or month, or from and to), by mode and by staff member',
        querystring: collectionsQuerySchema,
        response: { 200: collectionsSchema, 422: errorSchema },
      },
    },
    async (request, reply) =>
      // Who recorded each payment is named from the staff accounts.
      sendVersioned(ctx, request, reply, { kinds: ['fees', 'accounts'] }, async () =>
        JSON.stringify(await getCollections(ctx.db, request.query)),
      ),
  );
}
