import { z } from 'zod';
import { classNameSchema, idSchema, isoDateSchema, PARENT_LANGUAGES, pageQuerySchema, requiredText } from './common';
import { WHATSAPP_TEMPLATE_NAME } from './templates';

/**
 * Where a message stands with the family, never moving backwards: queued (not yet handed to any
 * channel), sent (a channel took it), delivered (it reached the family's device), read (the parent
 * opened it). failed: no channel could take it (with the reason); a later proof of delivery still
 * moves a failed message to delivered or read.
 */
export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** The channel that reached the family (the history's Type icon). */
export const MESSAGE_TYPES = ['IN_APP', 'WHATSAPP'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
/**
 * What a message is: a notice staff sent to parents, an absence or late alert sent on approval, the
 * notice of a changed app access, a one-off WhatsApp message to one parent, or a fee reminder.
 */
export const MESSAGE_KINDS = [
  'notice',
  'absence_alert',
  'late_alert',
  'access_notice',
  'leave_notice',
  'whatsapp',
  'fee_reminder',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
/** The channels a message is tried on: the parent app (Web Push to the family's devices) and WhatsApp. */
export const ATTEMPT_CHANNELS = ['push', 'whatsapp'] as const;
export type AttemptChannel = (typeof ATTEMPT_CHANNELS)[number];

/** The one-tap replies an absence or late alert offers, on WhatsApp and in the parent app. */
export const PARENT_REPLIES = ['sick', 'family', 'late', 'call'] as const;
export type ParentReply = (typeof PARENT_REPLIES)[number];
export const PARENT_REPLY_LABELS: Record<ParentReply, string> = {
  sick: 'Sick',
  family: 'Family reason',
  late: 'Coming late',
  call: 'Please call me',
};
export const parentReplySchema = z.enum(PARENT_REPLIES, { error: 'must be one of sick, family, late or call' });

export const ALL_PARENTS = 'all_parents';

/**
 * `all_parents` or a class as written; the server matches the class against the centre's classes and
 * refuses one it does not teach with 422 listing them (`validation.not_a_recipient`).
 */
export const recipientsSchema = classNameSchema.meta({
  description: "all_parents, or one of the centre's classes (GET /students/classes) by value or label",
});

export const sendToParentsSchema = z.object({
  subject: requiredText(200),
  message: requiredText(5000),
  recipients: recipientsSchema,
  template_id: idSchema
    .optional()
    .describe(
      "the centre template the message started from: each family then gets that template's text in its language",
    ),
});
export type SendToParentsRequest = z.input<typeof sendToParentsSchema>;
/** The request after validation: trimmed texts, `all_parents` or a canonical class name. */
export type SendToParentsBody = z.output<typeof sendToParentsSchema>;

export const sendToParentsResultSchema = z.object({
  message: z.string(),
  recipients_count: z.number().int(),
  in_app_count: z.number().int().describe('families the parent app reaches first (notifications or its inbox)'),
  whatsapp_count: z.number().int().describe('families reached first on WhatsApp'),
  unreachable_count: z
    .number()
    .int()
    .describe('families no channel reaches yet (no parent app, no WhatsApp): they are on the send list'),
  whatsapp_waiting: z
    .number()
    .int()
    .describe("WhatsApp messages over the daily limit on new conversations: they wait for the limit's next window"),
  notice: z
    .string()
    .nullable()
    .describe('what staff should know beyond the count, e.g. messages waiting for the limit'),
});
export type SendToParentsResult = z.infer<typeof sendToParentsResultSchema>;

export const familyCountQuerySchema = z.object({ recipients: recipientsSchema });
/** How many families a message to `recipients` goes to now: the families a send would write to. */
export const familyCountSchema = z.object({
  recipients: z.string().describe('all_parents or the class, as the send takes it'),
  families: z.number().int().describe('distinct parent phones of the students in scope who have not left'),
  in_app: z
    .number()
    .int()
    .describe(
      'of these, families the parent app reaches first (a device with notifications, or signed in to its inbox)',
    ),
  whatsapp: z.number().int().describe('families WhatsApp reaches (opted in, WhatsApp on) and the app does not'),
  no_channel: z
    .number()
    .int()
    .describe('families no channel reaches yet: the send puts them on the send list, to be messaged by hand'),
});
export type FamilyCount = z.infer<typeof familyCountSchema>;

/** One channel tried for a message, with its own status. */
export const messageAttemptSchema = z
  .object({
    channel: z.enum(ATTEMPT_CHANNELS),
    status: z.enum(DELIVERY_STATUSES),
    failure_reason: z.string().nullable(),
    error_code: z.number().int().nullable().describe("the Cloud API's error code, when WhatsApp refused"),
    waiting_reason: z
      .string()
      .nullable()
      .describe('why a queued attempt waits (the push has its time, the daily limit)'),
    created_at: z.string(),
    sent_at: z.string().nullable(),
    delivered_at: z.string().nullable(),
    read_at: z.string().nullable(),
  })
  .meta({ id: 'MessageAttempt' });
export type MessageAttempt = z.infer<typeof messageAttemptSchema>;

export const communicationSchema = z
  .object({
    id: z.number().int(),
    message_type: z.enum(MESSAGE_TYPES).describe('the channel that reached the family, or is trying to'),
    kind: z.enum(MESSAGE_KINDS),
    subject: z.string(),
    message: z.string(),
    recipient: z.string(),
    recipient_name: z.string().nullable(),
    sent_at: z.string(),
    sent_by: z.string().nullable(),
    delivery_status: z.enum(DELIVERY_STATUSES),
    delivered_at: z.string().nullable(),
    failure_reason: z.string().nullable(),
    language: z.enum(PARENT_LANGUAGES),
    reply: parentReplySchema.nullable().describe("the parent's one-tap reply to an alert"),
    attempts: z.array(messageAttemptSchema).describe('every channel tried, oldest first'),
  })
  .meta({ id: 'Communication' });
export type Communication = z.infer<typeof communicationSchema>;

export const communicationHistorySchema = z.array(communicationSchema);

export const historyPageQuerySchema = pageQuerySchema({ maxLimit: 5000, defaultLimit: 500 });

export const sendWhatsappSchema = z
  .object({
    to: z.union([z.string().trim().min(1).max(40), z.number()]).optional(),
    student_id: z
      .union([z.string().trim().min(1).max(40), z.number().int().positive().max(2_147_483_647, 'is not a known id')])
      .optional(),
    message: requiredText(4096),
  })
  .refine((body) => body.to !== undefined || body.student_id !== undefined, {
    message: 'must name a phone number or a student id',
    path: ['to'],
  });
export type SendWhatsappRequest = z.input<typeof sendWhatsappSchema>;
export type SendWhatsappBody = z.output<typeof sendWhatsappSchema>;

export const sendWhatsappResultSchema = z.object({
  message: z.string(),
  id: z.number().int(),
  recipient: z.string(),
  delivery_status: z.enum(DELIVERY_STATUSES),
  sent_as: z
    .enum(['text', 'template'])
    .describe("text inside the 24 hours after the parent last wrote; otherwise the centre's approved notice template"),
});
export type SendWhatsappResult = z.infer<typeof sendWhatsappResultSchema>;

// ---- The send list (and call list): families no channel reached, and families who asked to be called ----

export const CALL_REASONS = ['not_reached', 'call_requested'] as const;
/**
 * Where a message stands with its family, by the one definition the list, the history, the analytics
 * and the dashboard share (ADR 044): read or delivered (a channel proved it; the parent app's inbox
 * showing it counts as delivered), sent_by_hand (staff sent it from their own phone), not_reached
 * (nothing reached the family: no channel took it, or none proved it in time), waiting (a channel has
 * it and there is still time).
 */
export const MESSAGE_REACH = ['read', 'delivered', 'sent_by_hand', 'not_reached', 'waiting'] as const;
export type MessageReach = (typeof MESSAGE_REACH)[number];
export const callListItemSchema = z
  .object({
    message_id: z.number().int(),
    phone: z.string(),
    recipient_name: z.string().nullable(),
    subject: z.string(),
    kind: z.enum(MESSAGE_KINDS),
    sent_at: z.string(),
    reason: z.enum(CALL_REASONS),
    delivery_status: z.enum(DELIVERY_STATUSES),
    failure_reason: z.string().nullable(),
    called_at: z.string().nullable(),
    called_by: z.string().nullable(),
    reach: z.enum(MESSAGE_REACH),
    students: z.string().describe("the family's children who attend, by name"),
    language: z.enum(PARENT_LANGUAGES).describe('the language the text is in: the one the family reads'),
    text: z.string().describe('the message as the family gets it, in its language: centre name, subject and text'),
    whatsapp_link: z
      .string()
      .describe(
        "WhatsApp click-to-chat with the text filled in (https://wa.me/<digits>?text=…), for the staff member's phone",
      ),
    sms_link: z
      .string()
      .describe('an SMS to the family with the text filled in (sms:<+phone>?&body=…): Android and iOS'),
    sent_by_hand_at: z.string().nullable(),
    sent_by_hand_by: z.string().nullable(),
  })
  .meta({ id: 'CallListItem' });
export type CallListItem = z.infer<typeof callListItemSchema>;
export const callListSchema = z.object({
  items: z.array(callListItemSchema).describe('newest first; called ones of the last 7 days stay, ticked'),
  waiting_count: z
    .number()
    .int()
    .describe('families still to do: not reached and not sent by hand, or asking for a call not yet made'),
  not_reached_families: z
    .number()
    .int()
    .describe(
      'families a message of the last 7 days did not reach (the shared definition; the dashboard says the same)',
    ),
  not_reached_minutes: z.number().int(),
});
export type CallList = z.infer<typeof callListSchema>;
export const markCalledSchema = z.object({ called: z.boolean({ error: 'must be true or false' }) });

// ---- Conversations: what parents wrote on WhatsApp, and the centre's answers ----

export const conversationSummarySchema = z
  .object({
    phone: z.string(),
    recipient_name: z.string().nullable(),
    last_text: z.string(),
    last_at: z.string(),
    window_open_until: z
      .string()
      .nullable()
      .describe('24 hours after the parent last wrote: free text may be sent until then'),
  })
  .meta({ id: 'ConversationSummary' });
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;
export const conversationEntrySchema = z.object({
  id: z.string().describe('stable key: in:<inbound id> or out:<message id>'),
  direction: z.enum(['in', 'out']),
  text: z.string(),
  at: z.string(),
  delivery_status: z.enum(DELIVERY_STATUSES).nullable(),
  sent_by: z.string().nullable(),
});
export type ConversationEntry = z.infer<typeof conversationEntrySchema>;
export const conversationSchema = z.object({
  phone: z.string(),
  recipient_name: z.string().nullable(),
  window_open_until: z.string().nullable(),
  entries: z.array(conversationEntrySchema).describe('oldest first, the last 200'),
});
export type Conversation = z.infer<typeof conversationSchema>;
export const conversationParamsSchema = z.object({ phone: z.string().min(2).max(40) });

// ---- Message analytics ----

export const analyticsQuerySchema = z.object({
  from: isoDateSchema.optional().describe('first day, default 29 days before to (30 days in all)'),
  to: isoDateSchema
    .optional()
    .describe("last day, default today in the centre's time zone; not before from, at most 366 days in all"),
});
/** Families (distinct parent phones), not messages: a family messaged twice counts once (ADR 044). */
const reachCounts = {
  families: z.number().int().describe('families messaged'),
  in_app: z.number().int().describe('families reached (delivered or read) through the parent app'),
  whatsapp: z.number().int().describe('families reached (delivered or read) on WhatsApp'),
  delivered: z.number().int().describe('families reached: delivered or read, on any channel'),
  read: z.number().int(),
  replies: z.number().int(),
  sent_by_hand: z.number().int().describe("families a message was sent to by hand, from staff's own phones"),
  not_reached: z
    .number()
    .int()
    .describe('families a message did not reach: nothing delivered or read, not sent by hand (as the send list says)'),
};
export const messageAnalyticsSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    totals: z.object(reachCounts),
    sends: z.array(
      z.object({
        id: z.number().int(),
        kind: z.enum(MESSAGE_KINDS),
        subject: z.string(),
        recipients: z.string(),
        sent_at: z.string(),
        sent_by: z.string().nullable(),
        ...reachCounts,
      }),
    ),
    days: z.array(z.object({ date: z.string(), ...reachCounts })),
    whatsapp_cost: z.object({
      month: z.string().describe('yyyy-MM, the current month'),
      template_messages: z.number().int().describe('WhatsApp template messages sent this month (each is charged)'),
      price_per_message: z
        .number()
        .describe("Meta's price of a utility template message in India, in INR: 0.115 from 1 January 2026"),
      currency: z.literal('INR'),
      estimate: z
        .number()
        .describe('template_messages × price_per_message, rounded to the paisa; GST and any BSP fee extra'),
    }),
  })
  .meta({ id: 'MessageAnalytics' });
export type MessageAnalytics = z.infer<typeof messageAnalyticsSchema>;

// ---- Centre settings for messages ----

export const messagingSettingsSchema = z
  .object({
    centre_name: z.string().describe('the name parents see in messages ({centre_name})'),
    whatsapp_fallback_minutes: z
      .number()
      .int()
      .describe('how long a push has to be confirmed before the message goes again on WhatsApp; 0 = at once'),
    not_reached_minutes: z.number().int().describe('after how long a family no channel reached goes on the call list'),
    whatsapp_notice_template: z
      .string()
      .describe(
        'the approved WhatsApp template that carries what staff type (parameters: centre name, subject, message)',
      ),
    whatsapp: z.object({
      configured: z.boolean(),
      daily_limit: z.number().int().describe('new conversations WhatsApp allows in 24 hours'),
      used_today: z.number().int().describe('families sent a template in the last 24 hours'),
    }),
  })
  .meta({ id: 'MessagingSettings' });
export type MessagingSettings = z.infer<typeof messagingSettingsSchema>;
export const updateMessagingSettingsSchema = z.object({
  centre_name: requiredText(100),
  whatsapp_fallback_minutes: z
    .number({ error: 'must be a whole number of minutes' })
    .int('must be a whole number of minutes')
    .min(0, 'must be 0 (at once) or more')
    .max(1440, 'must be at most 1440 (a day)'),
  not_reached_minutes: z
    .number({ error: 'must be a whole number of minutes' })
    .int('must be a whole number of minutes')
    .min(1, 'must be at least 1')
    .max(1440, 'must be at most 1440 (a day)'),
  whatsapp_notice_template: z
    .string({ error: 'must be the approved template name: lowercase letters, digits and _' })
    .trim()
    .regex(WHATSAPP_TEMPLATE_NAME, 'must be the approved template name: lowercase letters, digits and _')
    .optional()
    .describe('left out: stays as it is'),
});
export type UpdateMessagingSettings = z.infer<typeof updateMessagingSettingsSchema>;
