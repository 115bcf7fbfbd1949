import {
  childAttendanceSchema,
  DELIVERY_STATUSES,
  deliveryReceiptSchema,
  errorSchema,
  feeReminderReplyRequestSchema,
  idParamsSchema,
  parentAccessIssuedSchema,
  parentAccessStatusSchema,
  parentInboxQuerySchema,
  parentInboxSchema,
  parentLanguageChoiceSchema,
  parentLoginResponseSchema,
  parentLoginSchema,
  parentMessageSchema,
  parentMessagesShownResultSchema,
  parentMessagesShownSchema,
  parentProfileSchema,
  parentReplyRequestSchema,
  parentWhatsappSchema,
  queryNumberSchema,
  updateParentWhatsappSchema,
} from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentParent, currentUser, parentOnly } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { logSignIn } from '../auth';
import { getFamilyLanguage, getParentAccess, issueParentAccess, setParentLanguage } from '../families';
import { readWrittenPhone } from '../settings';
import {
  CHILD_ATTENDANCE_DEFAULT_DAYS,
  CHILD_ATTENDANCE_MAX_DAYS,
  confirmReceipt,
  getChildAttendance,
  getInbox,
  getParentProfile,
  getWhatsappChoice,
  messagesShown,
  parentLogin,
  readMessage,
  replyToAlert,
  replyToFeeReminder,
  setWhatsappChoice,
} from './service';

const staffTags = ['parent access'];
const parentTags = ['parent'];

const childAttendanceQuerySchema = z.object({
  days: queryNumberSchema({ min: 1, max: CHILD_ATTENDANCE_MAX_DAYS, byDefault: CHILD_ATTENDANCE_DEFAULT_DAYS }),
});

const deliveryReceiptResultSchema = z.object({
  message_id: z.number().int(),
  delivery_status: z.enum(DELIVERY_STATUSES),
});

export function registerParentRoutes(app: ZodApp, ctx: AppContext): void {
  // ---- Staff: both roles issue a family's first code (at the door); only admins replace one (ADR 018) ----

  app.get(
    '/students/:id/parent-access',
    {
      schema: {
        tags: staffTags,
        summary: "The state of this student's parent's app access (never the code)",
        params: idParamsSchema,
        response: { 200: parentAccessStatusSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => getParentAccess(ctx, currentUser(request), request.params.id),
  );

  app.post(
    '/students/:id/parent-access',
    {
      schema: {
        tags: staffTags,
        summary:
          "Issue an access code for this student's parent phone (shown once). Replacing an existing code is for admins (403 for a teacher): it signs that parent's devices out and tells them",
        params: idParamsSchema,
        response: {
          201: parentAccessIssuedSchema,
          403: errorSchema,
          404: errorSchema,
          409: errorSchema,
          422: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const issued = await issueParentAccess(ctx, currentUser(request), request.params.id);
      return reply.status(201).send(issued);
    },
  );

  // ---- Parents ----

  app.post(
    '/parent/login',
    {
      config: { isPublic: true },
      schema: {
        tags: parentTags,
        summary: 'Parent sign-in with the phone on record and the access code from the centre',
        description: 'The right code for a family none of whose children attends any more (every one left): 403.',
        security: [],
        body: parentLoginSchema,
        response: {
          200: parentLoginResponseSchema,
          401: errorSchema,
          403: errorSchema,
          422: errorSchema,
          429: errorSchema,
        },
      },
    },
    async (request) => {
      // Read as the centre reads the number it has on record, so "98123 45670" finds +919812345670.
      const phone = await readWrittenPhone(ctx.db, 'phone', request.body.phone, 'your');
      return logSignIn(ctx.db, request, 'parent', phone, () => parentLogin(ctx, phone, request.body.code, request.ip));
    },
  );

  app.get(
    '/parent/me',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: 'The signed-in parent and their children',
        response: { 200: parentProfileSchema },
      },
    },
    async (request) => getParentProfile(ctx, currentParent(request).phone),
  );

  app.get(
    '/parent/messages',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: "The parent's messages, newest first, with the number unread",
        querystring: parentInboxQuerySchema,
        response: { 200: parentInboxSchema, 422: errorSchema },
      },
    },
    async (request) => getInbox(ctx, currentParent(request).phone, request.query.limit, request.query.offset),
  );

  app.post(
    '/parent/messages/:id/read',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: 'Mark one of your messages read (and so delivered)',
        params: idParamsSchema,
        response: { 200: parentMessageSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => readMessage(ctx, currentParent(request).phone, request.params.id),
  );

  app.post(
    '/parent/messages/shown',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: 'The inbox showed these messages on screen: each counts as delivered, whatever its notification did',
        body: parentMessagesShownSchema,
        response: { 200: parentMessagesShownResultSchema, 422: errorSchema },
      },
    },
    async (request) => messagesShown(ctx, currentParent(request).phone, request.body.ids),
  );

  app.post(
    '/parent/messages/:id/reply',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: 'Answer an absence or late alert with one tap (Sick, Family reason, Coming late, Please call me)',
        params: idParamsSchema,
        body: parentReplyRequestSchema,
        response: { 200: parentMessageSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => replyToAlert(ctx, currentParent(request).phone, request.params.id, request.body.reply),
  );

  app.post(
    '/parent/messages/:id/fee-reply',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: 'Answer a fee reminder once: Paid already (with the reference), Will pay on a day, or Please call me',
        params: idParamsSchema,
        body: feeReminderReplyRequestSchema,
        response: { 200: parentMessageSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => replyToFeeReminder(ctx, currentParent(request).phone, request.params.id, request.body),
  );

  app.get(
    '/parent/whatsapp',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: 'Whether your family gets WhatsApp messages from the centre',
        response: { 200: parentWhatsappSchema },
      },
    },
    async (request) => getWhatsappChoice(ctx, currentParent(request).phone),
  );

  app.put(
    '/parent/whatsapp',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: 'Turn WhatsApp messages from the centre on or off for your family',
        body: updateParentWhatsappSchema,
        response: { 200: parentWhatsappSchema, 422: errorSchema },
      },
    },
    async (request) => setWhatsappChoice(ctx, currentParent(request).phone, request.body.opted_in),
  );

  app.get(
    '/parent/language',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: "The language your family reads the centre's messages in",
        response: { 200: parentLanguageChoiceSchema },
      },
    },
    async (request) => getFamilyLanguage(ctx, currentParent(request).phone),
  );

  app.put(
    '/parent/language',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: "Choose the language your family reads the centre's messages in",
        body: parentLanguageChoiceSchema,
        response: { 200: parentLanguageChoiceSchema, 422: errorSchema },
      },
    },
    async (request) => setParentLanguage(ctx, currentParent(request).phone, request.body.language),
  );

  app.get(
    '/parent/children/:id/attendance',
    {
      config: parentOnly,
      schema: {
        tags: parentTags,
        summary: "One of your children's approved attendance for the last `days` days (default 30)",
        params: idParamsSchema,
        querystring: childAttendanceQuerySchema,
        response: { 200: childAttendanceSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => getChildAttendance(ctx, currentParent(request).phone, request.params.id, request.query.days),
  );

  app.post(
    '/parent/receipts',
    {
      config: { isPublic: true },
      schema: {
        tags: parentTags,
        summary: "The parent app's service worker confirms that a push arrived (receipt from the push payload)",
        security: [],
        body: deliveryReceiptSchema,
        response: { 200: deliveryReceiptResultSchema, 400: errorSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => confirmReceipt(ctx, request.body.receipt),
  );
}
