/**
 * The demo's words, kept as data in content.json: the communities families are drawn from, the
 * teachers (few, written out by hand, since people look at them), the messages sent to parents and
 * the remarks marks come with. Checked here once, so the generator works with typed values.
 */
import { CLASS_NAMES, parentLanguageSchema, SUBJECTS } from '@tuitiondesk/contract';
import { z } from 'zod';
import content from './content.json' with { type: 'json' };

const names = z.array(z.string().min(1)).min(1);
const remarks = z.array(z.string().min(1).nullable()).min(1);
const className = z.enum(CLASS_NAMES);

const contentSchema = z.object({
  /** Families are drawn from communities, so a first name goes with a surname that fits it. */
  communities: z.array(
    z.object({
      weight: z.number().positive(),
      surnames: names,
      boys: names,
      girls: names,
      fathers: names,
      mothers: names,
      /** Where mothers are named with another surname than the family's (Kaur). */
      mother_surname: z.string().optional(),
      /** The languages its families read messages in, each as likely as its weight. */
      languages: z
        .partialRecord(parentLanguageSchema, z.number().positive())
        .refine((weights) => Object.keys(weights).length > 0, 'must name a language'),
    }),
  ),
  /** Shares of families: on WhatsApp now, who opted out with a STOP reply, whose consent came with the import. */
  families: z.object({
    whatsapp_opted_in: z.number().min(0).max(1),
    whatsapp_stopped: z.number().min(0).max(1),
    consent_at_import: z.number().min(0).max(1),
  }),
  teachers: z.array(
    z.object({
      first_name: z.string(),
      last_name: z.string(),
      email: z.string(),
      phone_number: z.string(),
      subjects: z.array(z.enum(SUBJECTS)),
      classes_assigned: z.array(className),
      qualification: z.string(),
      experience_years: z.number().int(),
      address: z.string(),
      emergency_contact: z.string(),
      joined_days_ago: z.number().int().positive(),
    }),
  ),
  sends: z.array(
    z.object({
      days_ago: z.number().int().min(0),
      hours: z.number().int(),
      minutes: z.number().int(),
      /** Null: every parent. */
      class_name: className.nullable(),
      /** Index into `teachers`, or null for the admin. */
      sent_by: z.number().int().nullable(),
      subject: z.string(),
      message: z.string(),
    }),
  ),
  student_remarks: z.object({ late: remarks, absent: remarks, leave: remarks }),
  teacher_remarks: z.object({ half_day: remarks, on_leave: remarks, absent: remarks }),
  failure_reasons: names,
});

export type Community = z.infer<typeof contentSchema>['communities'][number];
export type TeacherSpec = z.infer<typeof contentSchema>['teachers'][number];
export type SendSpec = z.infer<typeof contentSchema>['sends'][number];

export const DEMO_CONTENT = contentSchema.parse(content);
