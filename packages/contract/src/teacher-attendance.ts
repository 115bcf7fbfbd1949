import { z } from 'zod';
import {
  isoDateSchema,
  type MarkedCount,
  markedCountSchema,
  markedRecordsSchema,
  optionalText,
  rowIdSchema,
} from './common';

export const TEACHER_ATTENDANCE_STATUSES = ['not_marked', 'present', 'absent', 'half_day', 'on_leave'] as const;
export type TeacherAttendanceStatus = (typeof TEACHER_ATTENDANCE_STATUSES)[number];
export const MARKED_TEACHER_STATUSES = ['present', 'absent', 'half_day', 'on_leave'] as const;

export const teacherAttendanceEntrySchema = z.object({
  teacher_id: z.number().int(),
  teacher_unique_id: z.string(),
  teacher_name: z.string(),
  phone_number: z.string(),
  status: z.enum(TEACHER_ATTENDANCE_STATUSES),
  remarks: z.string().nullable(),
  check_in_time: z.string().nullable(),
  check_out_time: z.string().nullable(),
  is_locked: z.boolean(),
});
export type TeacherAttendanceEntry = z.infer<typeof teacherAttendanceEntrySchema>;

export const teacherAttendanceDaySchema = z
  .object({
    date: z.string(),
    total_teachers: z.number().int(),
    marked_attendance: z.number().int(),
    pending_count: z.number().int(),
    is_locked: z.boolean(),
    locked_at: z.string().nullable(),
    locked_by: z.string().nullable(),
    teachers: z.array(teacherAttendanceEntrySchema),
  })
  .meta({ id: 'TeacherAttendanceDay' });
export type TeacherAttendanceDay = z.infer<typeof teacherAttendanceDaySchema>;

export const dateParamsSchema = z.object({ date: isoDateSchema });

const clockTimeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be a time written HH:mm')
  .nullish()
  .transform((value) => value ?? null);

export const markTeacherAttendanceSchema = z.object({
  date: isoDateSchema,
  teacher_records: markedRecordsSchema(
    z.object({
      teacher_id: rowIdSchema('must be a teacher id'),
      status: z.enum(MARKED_TEACHER_STATUSES, { error: 'must be one of present, absent, half_day or on_leave' }),
      remarks: optionalText(500),
      check_in_time: clockTimeSchema,
      check_out_time: clockTimeSchema,
    }),
    'teacher record',
    2000,
  ),
});
export type MarkTeacherAttendanceRequest = z.input<typeof markTeacherAttendanceSchema>;

export const markTeacherAttendanceResultSchema = markedCountSchema;
export type MarkTeacherAttendanceResult = MarkedCount;

export const updateTeacherRemarksSchema = z.object({
  teacher_id: rowIdSchema('must be a teacher id'),
  date: isoDateSchema,
  remarks: z
    .string({ error: 'must be text' })
    .trim()
    .max(500, 'must be at most 500 characters')
    .nullable()
    .transform((value) => value ?? ''),
});
export type UpdateTeacherRemarksRequest = z.input<typeof updateTeacherRemarksSchema>;

export const lockTeacherAttendanceResultSchema = z.object({
  date: z.string(),
  is_locked: z.literal(true),
  locked_count: z.number().int(),
  message: z.string(),
});
export type LockTeacherAttendanceResult = z.infer<typeof lockTeacherAttendanceResultSchema>;
