import { z } from 'zod';
import {
  classNameSchema,
  clearAllBackupFileSchema,
  deletedCountSchema,
  isoDateSchema,
  optionalText,
  parentLanguageSchema,
  requiredText,
} from './common';
import { writtenPhoneSchema } from './phones';

export const studentSchema = z
  .object({
    id: z.number().int(),
    unique_id: z.string(),
    full_name: z.string(),
    class_name: z.string(),
    parent_name: z.string(),
    parent_phone: z.string(),
    parent_whatsapp_opt_in: z
      .boolean()
      .describe('the family agreed to WhatsApp messages; the same on every record with this parent phone'),
    parent_language: parentLanguageSchema,
    parent_whatsapp_opt_in_changed_at: z.string().nullable().describe('when the opt-in was last given or withdrawn'),
    parent_whatsapp_opt_in_changed_by: z
      .string()
      .nullable()
      .describe('who gave or withdrew it (a name, or the parent)'),
    left_on: z
      .string()
      .nullable()
      .describe('the day the student left the centre (yyyy-MM-dd), null while they attend; restoring clears it'),
    scrubbed_at: z
      .string()
      .nullable()
      .describe(
        "when the student's personal data was removed, scrub_left_after_months after they left (then the name is a label and the parent fields are empty); such a student cannot be restored",
      ),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Student' });
export type Student = z.infer<typeof studentSchema>;

export const createStudentSchema = z.object({
  full_name: requiredText(200),
  class_name: classNameSchema,
  parent_name: requiredText(200),
  parent_phone: writtenPhoneSchema,
  parent_whatsapp_opt_in: z.boolean({ error: 'must be true or false' }).optional(),
  parent_language: parentLanguageSchema.optional(),
});
export type CreateStudentRequest = z.input<typeof createStudentSchema>;

/** The console sends the whole edited object; fields it may not change (id, unique_id) are ignored. */
export const updateStudentSchema = z.object({
  full_name: requiredText(200).optional(),
  class_name: classNameSchema.optional(),
  parent_name: optionalText(200),
  parent_phone: writtenPhoneSchema.optional(),
  parent_whatsapp_opt_in: z.boolean({ error: 'must be true or false' }).optional(),
  parent_language: parentLanguageSchema.optional(),
});
export type UpdateStudentRequest = z.input<typeof updateStudentSchema>;

/** `DELETE /students/clear-all`: how many were deleted, and where the backup taken first is. */
export const studentsClearAllSchema = deletedCountSchema.extend({ backup_file: clearAllBackupFileSchema });
export type StudentsClearAllResult = z.infer<typeof studentsClearAllSchema>;

export const classOptionSchema = z.object({ value: z.string(), label: z.string() }).meta({ id: 'ClassOption' });
export type ClassOption = z.infer<typeof classOptionSchema>;

/** Which students a list shows: those attending (the default), those who left, or both. */
export const STUDENT_STATUSES = ['current', 'left', 'all'] as const;
export type StudentStatus = (typeof STUDENT_STATUSES)[number];

export const studentListQuerySchema = z.object({
  class_name: classNameSchema.optional(),
  status: z
    .enum(STUDENT_STATUSES, { error: 'must be current, left or all' })
    .optional()
    .describe('current (the default): students attending; left: those who left; all: both'),
});

/** `POST /students/{id}/leave`: the day the student left, today or before (today when left out). */
export const leaveStudentSchema = z.object({
  left_on: isoDateSchema.optional().describe('the day they left, not in the future; today when left out'),
});
export type LeaveStudentRequest = z.input<typeof leaveStudentSchema>;

/** How long after leaving a student's personal data is kept, in months. */
export const SCRUB_LEFT_AFTER_MONTHS_DEFAULT = 24;
export const SCRUB_LEFT_AFTER_MONTHS_MIN = 1;
export const SCRUB_LEFT_AFTER_MONTHS_MAX = 120;
const SCRUB_MONTHS_HINT = `must be a whole number of months from ${SCRUB_LEFT_AFTER_MONTHS_MIN} to ${SCRUB_LEFT_AFTER_MONTHS_MAX}`;

/** GET and PUT /settings/students. */
export const studentSettingsSchema = z
  .object({
    scrub_left_after_months: z
      .number()
      .int()
      .describe(
        "months after a student's leaving day when their name and their family's phone and name are removed (a daily job); their attendance stays, anonymous",
      ),
  })
  .meta({ id: 'StudentSettings' });
export type StudentSettings = z.infer<typeof studentSettingsSchema>;

export const updateStudentSettingsSchema = z.object({
  scrub_left_after_months: z
    .number({ error: SCRUB_MONTHS_HINT })
    .int(SCRUB_MONTHS_HINT)
    .min(SCRUB_LEFT_AFTER_MONTHS_MIN, SCRUB_MONTHS_HINT)
    .max(SCRUB_LEFT_AFTER_MONTHS_MAX, SCRUB_MONTHS_HINT),
});
export type UpdateStudentSettingsRequest = z.infer<typeof updateStudentSettingsSchema>;
