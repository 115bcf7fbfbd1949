import { z } from 'zod';
import { textWordsSchema } from './attendance';

/**
 * Who marks which attendance (ADR 019): a teacher marks the classes assigned to them, for
 * today and a few days back; admins mark any class on any past day. Two centre settings shape it.
 */

/** How far back a teacher may mark, in days before today: 0 is today only. */
export const TEACHER_MARK_DAYS_BACK_DEFAULT = 2;
export const TEACHER_MARK_DAYS_BACK_MAX = 31;

const DAYS_BACK_HINT = `must be a whole number from 0 to ${TEACHER_MARK_DAYS_BACK_MAX}`;

/** GET and PUT /settings/marking. */
export const markingRulesSchema = z
  .object({
    teacher_mark_days_back: z
      .number()
      .int()
      .describe('a teacher marks today and this many days before it; admins mark any past day'),
    teachers_mark_any_class: z
      .boolean()
      .describe('every teacher may mark every class, not only the classes assigned to them'),
  })
  .meta({ id: 'MarkingRules' });
export type MarkingRules = z.infer<typeof markingRulesSchema>;

export const updateMarkingRulesSchema = z.object({
  teacher_mark_days_back: z
    .number({ error: DAYS_BACK_HINT })
    .int(DAYS_BACK_HINT)
    .min(0, DAYS_BACK_HINT)
    .max(TEACHER_MARK_DAYS_BACK_MAX, DAYS_BACK_HINT),
  teachers_mark_any_class: z.boolean({ error: 'must be true or false' }),
});
export type UpdateMarkingRulesRequest = z.infer<typeof updateMarkingRulesSchema>;

/** GET /attendance/marking-scope: what the caller may mark, so the console offers only that. */
export const markingScopeSchema = z
  .object({
    restricted: z
      .boolean()
      .describe('true for a teacher: only the classes and dates below; false for an admin: any class, any past day'),
    classes: z.array(z.string()).describe("the classes the caller may mark (their values), in the centre's order"),
    any_class: z.boolean().describe('the centre lets every teacher mark every class'),
    days_back: z.number().int().describe("the centre's setting: a teacher marks today and this many days before"),
    earliest_date: z.string().nullable().describe('the first day the caller may mark (yyyy-MM-dd); null: no limit'),
    today: z.string().describe("today in the centre's time zone (yyyy-MM-dd): the last day anyone may mark"),
    cannot_mark_reason: z
      .string()
      .nullable()
      .describe('why the caller can mark nothing at all (no class assigned), or null'),
    cannot_mark: textWordsSchema
      .nullable()
      .optional()
      .describe('cannot_mark_reason as a code and params a client can translate, or null (absent from older answers)'),
  })
  .meta({ id: 'MarkingScope' });
export type MarkingScope = z.infer<typeof markingScopeSchema>;
