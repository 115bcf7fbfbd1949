import { z } from 'zod';
import { classNameSchema, clearAllBackupFileSchema, optionalText, requiredText } from './common';
import { writtenPhoneSchema } from './phones';

export const teacherSchema = z
  .object({
    id: z.number().int(),
    unique_id: z.string(),
    /** The teacher's sign-in account. */
    user_id: z.number().int().nullable(),
    username: z.string().nullable(),
    full_name: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string().nullable(),
    phone_number: z.string(),
    subjects: z.array(z.string()),
    classes_assigned: z.array(z.string()),
    qualification: z.string(),
    experience_years: z.number().int(),
    address: z.string(),
    emergency_contact: z.string(),
    /** Their account signs in with an authenticator app too (an admin can reset it). */
    two_factor_enabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Teacher' });
export type Teacher = z.infer<typeof teacherSchema>;

/**
 * Subjects and classes as written; only their shape is checked here. The server matches each against
 * the centre's subjects and classes (ADR 043) and refuses one it does not have with 422 listing them.
 */
const subjectSchema = z.string({ error: 'must be a subject' }).trim().max(200, 'must be at most 200 characters');

export const subjectsSchema = z
  .array(subjectSchema, { error: 'must be a list of subjects' })
  .max(100, 'must list at most 100 subjects');
export const classesAssignedSchema = z
  .array(classNameSchema, { error: 'must be a list of classes' })
  .max(100, 'must list at most 100 classes');

/** Integers, or text holding one; anything else is refused rather than guessed. */
export const experienceYearsSchema = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  z
    .number({ error: 'must be a whole number of years' })
    .int('must be a whole number of years')
    .min(0, 'must not be negative')
    .max(80, 'must be at most 80'),
);

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'is too long')
  .pipe(z.email({ error: 'must be a valid email address' }));

const nullableEmail = z.preprocess((value) => (value === '' ? null : value), emailSchema.nullish());

export const createTeacherSchema = z.object({
  first_name: requiredText(100),
  last_name: requiredText(100),
  email: nullableEmail,
  phone_number: writtenPhoneSchema,
  subjects: subjectsSchema.default([]),
  classes_assigned: classesAssignedSchema.default([]),
  qualification: optionalText(200),
  experience_years: experienceYearsSchema.default(0),
  address: optionalText(1000),
  emergency_contact: optionalText(200),
});
export type CreateTeacherRequest = z.input<typeof createTeacherSchema>;

/** The console sends the whole edited object plus full_name; id, unique_id and full_name are derived, not taken. */
export const updateTeacherSchema = z.object({
  first_name: requiredText(100).optional(),
  last_name: requiredText(100).optional(),
  full_name: optionalText(201),
  email: nullableEmail,
  phone_number: writtenPhoneSchema.optional(),
  subjects: subjectsSchema.optional(),
  classes_assigned: classesAssignedSchema.optional(),
  qualification: optionalText(200),
  experience_years: experienceYearsSchema.optional(),
  address: optionalText(1000),
  emergency_contact: optionalText(200),
});
export type UpdateTeacherRequest = z.input<typeof updateTeacherSchema>;

export const createdTeacherSchema = teacherSchema.extend({
  initial_password: z.string().describe('shown once; it cannot be read again'),
  message: z.string(),
});
export type CreatedTeacher = z.infer<typeof createdTeacherSchema>;

export const teachersClearAllSchema = z.object({
  deleted_count: z.number().int(),
  deleted_teachers: z.number().int(),
  deleted_users: z.number().int(),
  message: z.string(),
  backup_file: clearAllBackupFileSchema,
});
export type TeachersClearAllResult = z.infer<typeof teachersClearAllSchema>;
