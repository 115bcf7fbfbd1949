import { z } from 'zod';
import { normaliseClassName, normalisedSchema, pageQuerySchema, requiredText } from './common';

export const DELIVERY_STATUSES = ['sent', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const MESSAGE_TYPES = ['IN_APP', 'WHATSAPP', 'ABSENCE_ALERT'] as const;

export const ALL_PARENTS = 'all_parents';

export const recipientsSchema = normalisedSchema(
  (value) => (value === ALL_PARENTS ? ALL_PARENTS : normaliseClassName(value)),
  'must be all_parents or a class (7, 8, 9 or 10)',
).meta({ type: 'string', enum: [ALL_PARENTS, '7', '8', '9', '10'] });

export const sendToParentsSchema = z.object({
  subject: requiredText(200),
  message: requiredText(5000),
  recipients: recipientsSchema,
});
export type SendToParentsRequest = z.input<typeof sendToParentsSchema>;
/** The request after validation: trimmed texts, `all_parents` or a canonical class name. */
export type SendToParentsBody = z.output<typeof sendToParentsSchema>;

export const sendToParentsResultSchema = z.object({
  message: z.string(),
  recipients_count: z.number().int(),
});
export type SendToParentsResult = z.infer<typeof sendToParentsResultSchema>;

export const communicationSchema = z
  .object({
    id: z.number().int(),
    message_type: z.string(),
    subject: z.string(),
    message: z.string(),
    recipient: z.string(),
    recipient_name: z.string().nullable(),
    sent_at: z.string(),
    sent_by: z.string().nullable(),
    delivery_status: z.string(),
    delivered_at: z.string().nullable(),
    failure_reason: z.string().nullable(),
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
  delivery_status: z.string(),
});
export type SendWhatsappResult = z.infer<typeof sendWhatsappResultSchema>;
