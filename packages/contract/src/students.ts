import { z } from 'zod';
import {
  classNameSchema,
  clearAllBackupFileSchema,
  deletedCountSchema,
  optionalText,
  parentLanguageSchema,
  phoneSchema,
  requiredText,
} from './common';

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
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Student' });
export type Student = z.infer<typeof studentSchema>;

export const createStudentSchema = z.object({
  full_name: requiredText(200),
  class_name: classNameSchema,
  parent_name: requiredText(200),
  parent_phone: phoneSchema,
  parent_whatsapp_opt_in: z.boolean({ error: 'must be true or false' }).optional(),
  parent_language: parentLanguageSchema.optional(),
});
export type CreateStudentRequest = z.input<typeof createStudentSchema>;

/** The console sends the whole edited object; fields it may not change (id, unique_id) are ignored. */
export const updateStudentSchema = z.object({
  full_name: requiredText(200).optional(),
  class_name: classNameSchema.optional(),
  parent_name: optionalText(200),
  parent_phone: phoneSchema.optional(),
  parent_whatsapp_opt_in: z.boolean({ error: 'must be true or false' }).optional(),
  parent_language: parentLanguageSchema.optional(),
});
export type UpdateStudentRequest = z.input<typeof updateStudentSchema>;

/** `DELETE /students/clear-all`: how many were deleted, and where the backup taken first is. */
export const studentsClearAllSchema = deletedCountSchema.extend({ backup_file: clearAllBackupFileSchema });
export type StudentsClearAllResult = z.infer<typeof studentsClearAllSchema>;

export const classOptionSchema = z.object({ value: z.string(), label: z.string() }).meta({ id: 'ClassOption' });
export type ClassOption = z.infer<typeof classOptionSchema>;

export const studentListQuerySchema = z.object({ class_name: classNameSchema.optional() });
