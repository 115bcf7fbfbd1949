import { z } from 'zod';
import { familyStudentSchema } from './fees';

/**
 * Fee reminders (issue 29, ADR 061): a schedule of days around each charge's due date, checked
 * against the ledger at the moment of sending, through the delivery cascade (the parent app, then
 * WhatsApp with the pay link, then the send list). A family answers with a quick reply: "Paid
 * already" (with the payer's reference: a match task for the admin), "Will pay on …" (a promise that
 * pauses its reminders until that date) or "Please call me" (the call list).
 */

/** Days from a charge's due date: negative before it, 0 on the day, positive after. */
export const FEE_REMINDER_OFFSET_MIN = -30;
export const FEE_REMINDER_OFFSET_MAX = 90;
export const FEE_REMINDER_OFFSETS_MAX = 8;
export const FEE_REMINDER_DEFAULT_OFFSETS = [-3, 0, 3, 7] as const;
/** The furthest a promise may reach, in days from the centre's today. */
export const FEE_PROMISE_MAX_DAYS = 60;

const offsetMessage = `must be a whole number of days from ${FEE_REMINDER_OFFSET_MIN} to ${FEE_REMINDER_OFFSET_MAX}`;
const hourMessage = 'must be an hour from 0 to 23';

/** GET/PUT /fees/reminders/settings: the schedule, in the centre's time zone. */
export const feeReminderSettingsSchema = z
  .object({
    enabled: z.boolean().describe('reminders are sent by themselves'),
    offsets: z
      .array(z.number().int())
      .describe('days from the due date a reminder goes out (negative before, 0 on the day), ascending'),
    hour: z.number().int().describe("the hour of the day they go out (0–23, the centre's time zone)"),
  })
  .meta({ id: 'FeeReminderSettings' });
export type FeeReminderSettings = z.infer<typeof feeReminderSettingsSchema>;

/** The settings with what the latest round did, as GET and PUT /fees/reminders/settings answer them. */
export const feeReminderScheduleSchema = feeReminderSettingsSchema
  .extend({
    last_run: z
      .object({
        at: z.string().describe('when the round ran (ISO 8601)'),
        sent: z.number().int().describe('families reminded'),
        skipped_paid: z.number().int().describe('families due a reminder who owed nothing by then'),
        skipped_promised: z.number().int().describe('families due a reminder whose promise paused it'),
      })
      .nullable()
      .describe('the latest round; null before the first'),
    whatsapp_template: z
      .boolean()
      .describe('WhatsApp is connected and carries reminders (else a family without the app is on the send list)'),
  })
  .meta({ id: 'FeeReminderSchedule' });
export type FeeReminderSchedule = z.infer<typeof feeReminderScheduleSchema>;

export const updateFeeReminderSettingsSchema = z.object({
  enabled: z.boolean({ error: 'must be true or false' }).optional(),
  offsets: z
    .array(
      z
        .number({ error: offsetMessage })
        .int(offsetMessage)
        .min(FEE_REMINDER_OFFSET_MIN, offsetMessage)
        .max(FEE_REMINDER_OFFSET_MAX, offsetMessage),
      { error: 'must be a list of days' },
    )
    .min(1, 'must list at least one day')
    .max(FEE_REMINDER_OFFSETS_MAX, `must list at most ${FEE_REMINDER_OFFSETS_MAX} days`)
    .refine((days) => new Set(days).size === days.length, 'must not list a day twice')
    .optional(),
  hour: z.number({ error: hourMessage }).int(hourMessage).min(0, hourMessage).max(23, hourMessage).optional(),
});
export type UpdateFeeReminderSettingsRequest = z.input<typeof updateFeeReminderSettingsSchema>;

/** The quick replies a fee reminder offers, in the parent app and as WhatsApp buttons. */
export const FEE_REMINDER_REPLIES = ['paid', 'will_pay', 'call'] as const;
export type FeeReminderReply = (typeof FEE_REMINDER_REPLIES)[number];
export const feeReminderReplyKindSchema = z.enum(FEE_REMINDER_REPLIES, {
  error: 'must be one of paid, will_pay or call',
});

const referenceMessage = 'must be the payment reference, 1 to 35 characters';
const dateMessage = 'must be a date as yyyy-MM-dd';

/** POST /parent/messages/{id}/fee-reply: the family's answer to a reminder, once. */
export const feeReminderReplyRequestSchema = z.discriminatedUnion(
  'reply',
  [
    z.object({
      reply: z.literal('paid'),
      reference: z.string({ error: referenceMessage }).trim().min(1, referenceMessage).max(35, referenceMessage),
    }),
    z.object({
      reply: z.literal('will_pay'),
      date: z
        .string({ error: dateMessage })
        .regex(/^\d{4}-\d{2}-\d{2}$/, dateMessage)
        .describe(`the day the family will pay: from tomorrow to ${FEE_PROMISE_MAX_DAYS} days ahead`),
    }),
    z.object({ reply: z.literal('call') }),
  ],
  { error: 'reply must be one of paid, will_pay or call' },
);
export type FeeReminderReplyRequest = z.input<typeof feeReminderReplyRequestSchema>;

/** A family's answer to a reminder, as the parent app and the console show it. */
export const feeReminderAnswerSchema = z
  .object({
    reply: feeReminderReplyKindSchema,
    reference: z.string().nullable().describe('the reference a family that paid already gave'),
    date: z.string().nullable().describe('the day a family promised to pay (yyyy-MM-dd)'),
    at: z.string().describe('when the family answered (ISO 8601)'),
  })
  .meta({ id: 'FeeReminderAnswer' });
export type FeeReminderAnswer = z.infer<typeof feeReminderAnswerSchema>;

export const FEE_MATCH_TASK_STATUSES = ['open', 'matched', 'dismissed'] as const;
export type FeeMatchTaskStatus = (typeof FEE_MATCH_TASK_STATUSES)[number];

/** A payment of the family the admin may match a "Paid already" to. */
export const feeMatchCandidateSchema = z.object({
  payment_id: z.number().int(),
  receipt_number: z.string(),
  amount_paise: z.number().int(),
  mode: z.string(),
  reference: z.string().nullable(),
  received_on: z.string(),
  same_reference: z.boolean().describe("the payment's reference is the one the family gave"),
});
export type FeeMatchCandidate = z.infer<typeof feeMatchCandidateSchema>;

/** A family said "Paid already": the admin finds the money and matches it, or dismisses the claim. */
export const feeMatchTaskSchema = z
  .object({
    id: z.number().int(),
    family_id: z.number().int(),
    parent_name: z.string(),
    parent_phone: z.string(),
    students: z.array(familyStudentSchema),
    reference: z.string().nullable().describe('what the family gave; null while WhatsApp still waits for it'),
    via: z.enum(['parent_app', 'whatsapp']),
    claimed_at: z.string(),
    balance_paise: z.number().int().describe("the family's balance now"),
    status: z.enum(FEE_MATCH_TASK_STATUSES),
    payment_id: z.number().int().nullable(),
    receipt_number: z.string().nullable(),
    resolved_by: z.string().nullable(),
    resolved_at: z.string().nullable(),
    note: z.string().nullable(),
    candidates: z.array(feeMatchCandidateSchema).describe("the family's payments of the last 60 days, newest first"),
  })
  .meta({ id: 'FeeMatchTask' });
export type FeeMatchTask = z.infer<typeof feeMatchTaskSchema>;

export const feeMatchTasksQuerySchema = z.object({
  status: z.enum(['open', 'done'], { error: 'must be open or done' }).default('open'),
});
export const feeMatchTasksSchema = z
  .object({
    tasks: z.array(feeMatchTaskSchema).describe('open: oldest first; done: newest first, at most 100'),
    open_count: z.number().int(),
  })
  .meta({ id: 'FeeMatchTasks' });
export type FeeMatchTasks = z.infer<typeof feeMatchTasksSchema>;

export const matchFeeTaskSchema = z.object({
  payment_id: z.number({ error: 'must be a payment id' }).int('must be a payment id').positive('must be a payment id'),
});
export type MatchFeeTaskRequest = z.input<typeof matchFeeTaskSchema>;

const noteMessage = 'must say why, 1 to 200 characters';
export const dismissFeeTaskSchema = z.object({
  note: z.string({ error: noteMessage }).trim().min(1, noteMessage).max(200, noteMessage),
});
export type DismissFeeTaskRequest = z.input<typeof dismissFeeTaskSchema>;

/** GET /fees/promises: families whose promise pauses their reminders today, soonest first. */
export const feePromiseSchema = z
  .object({
    family_id: z.number().int(),
    parent_name: z.string(),
    parent_phone: z.string(),
    promised_on: z.string().describe('yyyy-MM-dd; reminders resume the day after'),
    made_at: z.string(),
    via: z.enum(['parent_app', 'whatsapp']),
    balance_paise: z.number().int(),
  })
  .meta({ id: 'FeePromise' });
export type FeePromise = z.infer<typeof feePromiseSchema>;
export const feePromisesSchema = z.object({ promises: z.array(feePromiseSchema) }).meta({ id: 'FeePromises' });
export type FeePromises = z.infer<typeof feePromisesSchema>;

/** POST /fees/reminders/run: what the round just run did (also kept as the schedule's `last_run`). */
export const feeReminderRunSchema = z
  .object({
    at: z.string().describe('when the round ran (ISO 8601)'),
    sent: z.number().int().describe('families reminded'),
    skipped_paid: z.number().int().describe('families due a reminder who owed nothing by then'),
    skipped_promised: z.number().int().describe('families due a reminder whose promise paused it'),
  })
  .meta({ id: 'FeeReminderRun' });
export type FeeReminderRun = z.infer<typeof feeReminderRunSchema>;
