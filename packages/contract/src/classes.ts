import { z } from 'zod';
import { optionalText, requiredText, rowIdSchema } from './common';

/**
 * The centre's classes (or batches) and subjects (ADR 043): an admin adds, relabels, reorders,
 * archives and deletes them at `/classes` and `/subjects`; everyone else reads them. A class's `value`
 * is what students and teachers store and never changes; its `label` (with its `section`) is what
 * people see. A new centre has the spec's classes 7–10 and its ten subjects.
 */

/** A class's or subject's value: stored on records and listed in spreadsheet cells, so no comma. */
function valueSchema(max: number) {
  return requiredText(max).refine((value) => !value.includes(','), 'must not contain a comma');
}

const usageFields = {
  students: z.number().int().describe('students (attending or left) in the class'),
  teachers: z.number().int().describe('teachers it is assigned to'),
  attendance_records: z.number().int().describe('attendance records kept under it'),
};

export const centreClassSchema = z
  .object({
    id: z.number().int(),
    value: z.string().describe('what students and teachers store ("7", "11-A", "Morning batch"); never changes'),
    label: z.string().describe('what people see ("Class 7")'),
    section: z.string().nullable().describe('an optional section ("A"), shown after the label'),
    display_label: z.string().describe('the label with its section, as lists and selects show it'),
    sort_order: z.number().int().describe('its place in every list, from 1'),
    archived: z.boolean().describe('archived: existing records keep it, nothing new is put in it'),
    archived_at: z.string().nullable(),
    in_use: z.object(usageFields).describe('what refers to it: a class in use cannot be deleted, only archived'),
  })
  .meta({ id: 'CentreClass' });
export type CentreClass = z.infer<typeof centreClassSchema>;

export const centreSubjectSchema = z
  .object({
    id: z.number().int(),
    value: z.string().describe("what teachers' records store; never changes"),
    label: z.string().describe('what people see'),
    sort_order: z.number().int(),
    archived: z.boolean(),
    archived_at: z.string().nullable(),
    in_use: z.object({ teachers: usageFields.teachers }),
  })
  .meta({ id: 'CentreSubject' });
export type CentreSubject = z.infer<typeof centreSubjectSchema>;

export const createClassSchema = z.object({
  value: valueSchema(40).describe('the name stored on students; "Class 7" and "7th" are read as "7"'),
  label: optionalText(60).describe('shown to people; "Class 11" for a value "11", else the value, when left out'),
  section: optionalText(40),
});
export type CreateClassRequest = z.input<typeof createClassSchema>;

/** A class's label and section; its value stays (every record stores it). */
export const updateClassSchema = z.object({
  label: requiredText(60).optional(),
  section: z
    .string()
    .trim()
    .max(40, 'must be at most 40 characters')
    .nullish()
    .transform((value) => (value === undefined ? undefined : value || null))
    .describe('empty or null removes the section'),
});
export type UpdateClassRequest = z.input<typeof updateClassSchema>;

export const createSubjectSchema = z.object({
  value: valueSchema(60),
  label: optionalText(60).describe('shown to people; the value when left out'),
});
export type CreateSubjectRequest = z.input<typeof createSubjectSchema>;

export const updateSubjectSchema = z.object({ label: requiredText(60) });
export type UpdateSubjectRequest = z.input<typeof updateSubjectSchema>;

/** The new order: every class's (or subject's) id once, archived ones included. */
export const reorderSchema = z.object({
  ids: z
    .array(rowIdSchema('must be an id'), { error: 'must be a list of ids' })
    .min(1, 'must list at least one id')
    .max(1000, 'must list at most 1000 ids'),
});
export type ReorderRequest = z.input<typeof reorderSchema>;

export const centreClassListSchema = z.array(centreClassSchema);
export const centreSubjectListSchema = z.array(centreSubjectSchema);

/** "Class 11 – A": a class's label with its section. */
export function classDisplayLabel(label: string, section: string | null): string {
  return section ? `${label} – ${section}` : label;
}
