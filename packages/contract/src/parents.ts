import { z } from 'zod';
import { attendanceStatusSchema } from './attendance';
import {
  bearerTokenFields,
  CROCKFORD_ALPHABET,
  normaliseCrockfordCode,
  PARENT_LANGUAGES,
  pageQuerySchema,
  rowIdSchema,
} from './common';
import { feeReminderAnswerSchema } from './fee-reminders';
import { MESSAGE_KINDS, parentReplySchema } from './messages';
import { writtenPhoneSchema } from './phones';
import { studentSchema } from './students';

/**
 * The parent side. Parents sign in with their phone and an access code that staff issue
 * from the Students screen; a parent token reaches only the `/parent/...` calls below, scoped to the
 * children whose `parent_phone` is that phone.
 */

/** Absence alerts go out for these statuses when an admin approves a record. */
export const ALERT_STATUSES = ['absent', 'late'] as const;

/** Access codes: 8 characters of Crockford base 32 (no I, L, O, U), shown as XXXX-XXXX. */
export const ACCESS_CODE_ALPHABET = CROCKFORD_ALPHABET;
export const ACCESS_CODE_LENGTH = 8;

/** What people type: any case, spaces or dashes, O for 0 and I/L for 1. Undefined when it cannot be a code. */
export function normaliseAccessCode(value: string): string | undefined {
  return normaliseCrockfordCode(value, ACCESS_CODE_LENGTH);
}

/** XXXX-XXXX, for reading aloud and printing (an already formatted code stays as it is). */
export function formatAccessCode(code: string): string {
  const compact = code.replace(/[\s-]/g, '');
  return `${compact.slice(0, 4)}-${compact.slice(4)}`;
}

/** The parent app's sign-in link; the fragment keeps phone and code out of every server log. */
export function parentSignInLink(origin: string, phone: string, code: string): string {
  const params = new URLSearchParams({ phone, code: formatAccessCode(code) });
  return `${origin.replace(/\/$/, '')}/parent/#${params.toString()}`;
}

// ---- A family, as both sides show it ----

/** A child as the family's side shows them: the student's name, code and class. */
export const parentChildSchema = studentSchema
  .pick({ id: true, unique_id: true, full_name: true, class_name: true })
  .meta({ id: 'ParentChild' });
export type ParentChild = z.infer<typeof parentChildSchema>;

/** A family: the parent phone, the parent's name, and the children with that phone. */
export const parentProfileSchema = z
  .object({
    phone: z.string(),
    parent_name: z.string(),
    children: z.array(parentChildSchema),
  })
  .meta({ id: 'ParentProfile' });
export type ParentProfile = z.infer<typeof parentProfileSchema>;

// ---- Staff: parent access (from the Students screen) ----

/** GET /students/{id}/parent-access: the state of that student's parent's access, never the code. */
export const parentAccessStatusSchema = parentProfileSchema
  .extend({
    has_code: z.boolean(),
    issued_at: z.string().nullable(),
    issued_by: z.string().nullable(),
    last_sign_in_at: z.string().nullable(),
    devices_with_notifications: z.number().int(),
    can_replace_code: z
      .boolean()
      .describe('whether the caller may replace an existing code (admins); anyone may issue the first one'),
  })
  .meta({ id: 'ParentAccessStatus' });
export type ParentAccessStatus = z.infer<typeof parentAccessStatusSchema>;

/**
 * POST /students/{id}/parent-access: issues the family's first code (either role) or replaces the
 * code (admins only: a teacher gets 403). Shown once.
 */
export const parentAccessIssuedSchema = parentAccessStatusSchema
  .extend({
    code: z.string().describe('the new access code, XXXX-XXXX; it is not stored and cannot be shown again'),
    message: z.string(),
    share_text: z
      .string()
      .describe(
        "in the family's language, for a WhatsApp click-to-chat message (the sign-in link goes after it), as a class's codes have",
      ),
  })
  .meta({ id: 'ParentAccessIssued' });
export type ParentAccessIssued = z.infer<typeof parentAccessIssuedSchema>;

// ---- Centre settings ----

export const centreSettingsSchema = z
  .object({
    absence_alerts: z.boolean().describe('send parents a message when an absent or late record is approved'),
  })
  .meta({ id: 'CentreSettings' });
export type CentreSettings = z.infer<typeof centreSettingsSchema>;
export const updateCentreSettingsSchema = z.object({
  absence_alerts: z.boolean({ error: 'must be true or false' }),
});

// ---- Parent API ----

export const parentLoginSchema = z.object({
  phone: writtenPhoneSchema,
  code: z.string({ error: 'is required' }).trim().min(1, 'is required').max(32, 'is too long'),
});
export type ParentLoginRequest = z.input<typeof parentLoginSchema>;

export const parentLoginResponseSchema = z.object({
  ...bearerTokenFields,
  expires_in: z.number().int(),
  parent: parentProfileSchema,
});
export type ParentLoginResponse = z.infer<typeof parentLoginResponseSchema>;

export const parentMessageSchema = z
  .object({
    id: z.number().int(),
    message_type: z.string(),
    kind: z.enum(MESSAGE_KINDS),
    subject: z.string(),
    message: z.string(),
    sent_at: z.string(),
    sent_by: z.string().nullable(),
    student_id: z.number().int().nullable(),
    read_at: z.string().nullable(),
    reply: parentReplySchema.nullable().describe('the reply the parent gave to this alert'),
    can_reply: z.boolean().describe('an absence or late alert not yet answered: the app offers the one-tap replies'),
    fee_answer: feeReminderAnswerSchema.nullable().describe("the family's answer to this fee reminder"),
    can_fee_reply: z
      .boolean()
      .describe('a fee reminder not yet answered: the app offers Paid already, Will pay on … and Please call me'),
  })
  .meta({ id: 'ParentMessage' });
export const parentReplyRequestSchema = z.object({ reply: parentReplySchema });

/** The family's WhatsApp consent, as the parent app's settings show and change it. */
export const parentWhatsappSchema = z.object({
  opted_in: z.boolean(),
  available: z.boolean().describe('the centre sends WhatsApp messages (it is configured)'),
});
export type ParentWhatsapp = z.infer<typeof parentWhatsappSchema>;
export const updateParentWhatsappSchema = z.object({ opted_in: z.boolean({ error: 'must be true or false' }) });
/** The language the family reads the centre's messages in (its parent_language, on every child's record). */
export const parentLanguageChoiceSchema = z.object({
  language: z
    .enum(PARENT_LANGUAGES, { error: `must be one of ${PARENT_LANGUAGES.join(', ')}` })
    .describe("the family's language: en, hi, mr, ta, bn or ur"),
});
export type ParentLanguageChoice = z.infer<typeof parentLanguageChoiceSchema>;
export type ParentMessage = z.infer<typeof parentMessageSchema>;
export const parentInboxSchema = z.object({
  messages: z.array(parentMessageSchema),
  unread_count: z.number().int(),
});
export type ParentInbox = z.infer<typeof parentInboxSchema>;

export const parentInboxQuerySchema = pageQuerySchema({ maxLimit: 200, defaultLimit: 50 });

/**
 * The parent app's inbox showed these messages on screen: each of the family's among them counts as
 * delivered (ADR 044), whatever its push did. Ids that are not the family's are left alone.
 */
export const parentMessagesShownSchema = z.object({
  ids: z
    .array(rowIdSchema('must be a message id'), { error: 'must be a list of message ids' })
    .min(1, 'must list at least one message id')
    .max(200, 'must list at most 200 message ids'),
});
export type ParentMessagesShown = z.infer<typeof parentMessagesShownSchema>;
export const parentMessagesShownResultSchema = z.object({
  delivered: z.number().int().describe('messages of the family among ids that were not known delivered or read before'),
});

export const childAttendanceDaySchema = z.object({
  date: z.string(),
  status: attendanceStatusSchema,
  remarks: z.string().nullable(),
});
export const childAttendanceSchema = z
  .object({
    child: parentChildSchema,
    from_date: z.string(),
    to_date: z.string(),
    days: z.array(childAttendanceDaySchema).describe('approved records only, newest first'),
    totals: z.object({
      present: z.number().int(),
      absent: z.number().int(),
      late: z.number().int(),
      leave: z.number().int(),
    }),
  })
  .meta({ id: 'ChildAttendance' });
export type ChildAttendance = z.infer<typeof childAttendanceSchema>;

/** Web Push: the VAPID public key, and a browser's PushSubscription.toJSON(). */
export const pushPublicKeySchema = z.object({ public_key: z.string() });
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .string({ error: 'is required' })
    .max(2048, 'is too long')
    .refine((value) => /^https?:\/\//.test(value) && URL.canParse(value), 'must be an https URL'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: z
      .string({ error: 'is required' })
      .regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/, 'must be a base64url P-256 public key'),
    auth: z
      .string({ error: 'is required' })
      .regex(/^[A-Za-z0-9_-]{16,24}={0,2}$/, 'must be a base64url 16-byte secret'),
  }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionSchema>;
export const pushUnsubscribeSchema = z.object({ endpoint: z.string({ error: 'is required' }).max(2048) });

/**
 * What the service worker receives in a push (encrypted end to end). `receipt` lets it confirm
 * delivery of that one message without the parent token: POST /parent/receipts {receipt}.
 */
export const pushPayloadSchema = z.object({
  message_id: z.number().int(),
  title: z.string(),
  body: z.string(),
  sent_at: z.string(),
  receipt: z.string(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
export const deliveryReceiptSchema = z.object({ receipt: z.string({ error: 'is required' }).min(1).max(2048) });
