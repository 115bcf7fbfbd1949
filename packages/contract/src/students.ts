import { z } from 'zod';
import {
  classNameSchema,
  clearAllBackupFileSchema,
  deletedCountSchema,
  optionalText,
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
});
export type CreateStudentRequest = z.input<typeof createStudentSchema>;

/** The console sends the whole edited object; fields it may not change (id, unique_id) are ignored. */
export const updateStudentSchema = z.object({
  full_name: requiredText(200).optional(),
  class_name: classNameSchema.optional(),
  parent_name: optionalText(200),
  parent_phone: phoneSchema.optional(),
});
export type UpdateStudentRequest = z.input<typeof updateStudentSchema>;

/** `DELETE /students/clear-all`: how many were deleted, and where the backup taken first is. */
export const studentsClearAllSchema = deletedCountSchema.extend({ backup_file: clearAllBackupFileSchema });
export type StudentsClearAllResult = z.infer<typeof studentsClearAllSchema>;

export const classOptionSchema = z.object({ value: z.string(), label: z.string() }).meta({ id: 'ClassOption' });
export type ClassOption = z.infer<typeof classOptionSchema>;

export const studentListQuerySchema = z.object({ class_name: classNameSchema.optional() });
