import { z } from 'zod';
import {
  classNameSchema,
  isoDateSchema,
  type MarkedCount,
  markedCountSchema,
  markedRecordsSchema,
  optionalText,
  queryNumberSchema,
  rowIdSchema,
  studentRecordFields,
} from './common';
import { rosterLeaveSchema } from './leave';

export const ATTENDANCE_STATUSES = ['present', 'absent', 'late', 'leave'] as const;
export const attendanceStatusSchema = z.enum(ATTENDANCE_STATUSES, {
  error: 'must be one of present, absent, late or leave',
});
export type AttendanceStatus = z.infer<typeof attendanceStatusSchema>;

export const attendanceRecordSchema = z
  .object({
    ...studentRecordFields,
    date: z.string(),
    status: attendanceStatusSchema,
    remarks: z.string().nullable(),
    parent_reason: z
      .string()
      .nullable()
      .describe(
        "the parent's one-tap reply to the absence or late alert (Sick, Family reason, Coming late, Please call me)",
      ),
    parent_phone: z.string(),
    marked_at: z.string(),
    marked_by: z.string(),
    approved_by: z.string().nullable(),
    approved_at: z.string().nullable(),
  })
  .meta({ id: 'AttendanceRecord' });
export type AttendanceRecord = z.infer<typeof attendanceRecordSchema>;

export const rosterQuerySchema = z.object({
  class_name: classNameSchema,
  date: isoDateSchema.optional(),
});

export const rosterEntrySchema = z.object({
  student_id: z.number().int(),
  student_unique_id: z.string(),
  student_name: z.string(),
  parent_phone: z.string(),
  attendance_id: z.number().int().nullable(),
  status: attendanceStatusSchema.nullable(),
  remarks: z.string().nullable(),
  marked_by: z.string().nullable(),
  marked_at: z.string().nullable(),
  is_approved: z.boolean(),
  leave: rosterLeaveSchema
    .nullable()
    .describe("the parent's leave request covering this date, waiting or approved (approved first), or null"),
});
export type RosterEntry = z.infer<typeof rosterEntrySchema>;

/**
 * An answer's sentence as words a client can translate (ADR 036): a code of the error catalogue
 * (ERROR_CODES) and the params that fill its text. The English sentence beside it is that text filled
 * with these params; a client that knows the code shows it in its own language, else the English.
 */
export const textWordsSchema = z
  .object({
    code: z.string().describe('a code of the error catalogue (ERROR_CODES), e.g. attendance.future_date'),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .describe("what fills the code's text: names and dates as the English shows them, counts as numbers"),
  })
  .meta({ id: 'TextWords' });
export type TextWords = z.infer<typeof textWordsSchema>;

/** Who marked a register last, and when (the newest of its marks). */
export const lastMarkedSchema = z.object({
  by: z.string().describe('the full name of the staff member who made the newest mark'),
  at: z.string().describe('when (ISO 8601)'),
});
export type LastMarked = z.infer<typeof lastMarkedSchema>;

export const rosterSchema = z.object({
  date: z.string(),
  class_name: z.string(),
  /** Whether the caller may mark this class on this date (ADR 019); when not, the page shows it read-only. */
  can_mark: z.boolean(),
  cannot_mark_reason: z.string().nullable().describe('why the caller cannot mark this roster, or null'),
  cannot_mark: textWordsSchema
    .nullable()
    .optional()
    .describe(
      'cannot_mark_reason as a code and params a client can translate, or null when the caller can mark (absent from older answers)',
    ),
  students: z.array(rosterEntrySchema),
  last_marked: lastMarkedSchema
    .nullable()
    .optional()
    .describe(
      'who marked this register last and when (the newest mark among its students), or null when no one is marked (absent from older answers)',
    ),
});
export type Roster = z.infer<typeof rosterSchema>;

/** A class with students who have no attendance mark on a day: "Class 8: 9 students not marked". */
export const notMarkedClassSchema = z
  .object({
    class_name: z.string(),
    students: z.number().int().describe("students on the class's register that day"),
    not_marked: z.number().int().describe('of them, students with no attendance mark that day'),
  })
  .meta({ id: 'NotMarkedClass' });
export type NotMarkedClass = z.infer<typeof notMarkedClassSchema>;

export const notMarkedQuerySchema = z.object({ date: isoDateSchema.optional() });

export const notMarkedSchema = z.object({
  date: z.string().describe('yyyy-MM-dd (default today, in the centre time zone)'),
  classes: z
    .array(notMarkedClassSchema)
    .describe('classes with at least one student not marked that day, in class order; none when all are marked'),
});
export type NotMarked = z.infer<typeof notMarkedSchema>;

export const markAttendanceSchema = z.object({
  date: isoDateSchema,
  records: markedRecordsSchema(
    z.object({
      student_id: rowIdSchema('must be a student id'),
      status: attendanceStatusSchema,
      remarks: optionalText(500),
    }),
    'record',
    5000,
  ),
});
export type MarkAttendanceRequest = z.input<typeof markAttendanceSchema>;

/**
 * Marks queued on a device while it was offline are sent later with the id the device gave them:
 * sent again, they are saved once and answered as the first time; and instead of one refusal for
 * the whole class, each student that could not be saved comes back with the reason.
 */
export const queuedMarksSchema = markAttendanceSchema.extend({
  submission_id: z.uuid({ error: 'must be the id the device gave these marks (a UUID)' }),
});
export type QueuedMarksRequest = z.input<typeof queuedMarksSchema>;

export const refusedMarkSchema = z.object({
  student_id: z.number().int(),
  /** Null when the student no longer exists. */
  student_name: z.string().nullable(),
  reason: z.string().describe('why this mark was not saved, in English'),
  code: z
    .string()
    .optional()
    .describe(
      'the reason as a code of the error catalogue (ERROR_CODES), to show it translated (absent from older answers)',
    ),
  params: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .optional()
    .describe("what fills the code's text; the reason is that text filled with these params"),
});
export type RefusedMark = z.infer<typeof refusedMarkSchema>;

export const markAttendanceResultSchema = markedCountSchema;
export type MarkAttendanceResult = MarkedCount;

export const queuedMarksResultSchema = markedCountSchema.extend({
  submission_id: z.string(),
  class_name: z.string().nullable(),
  date: z.string(),
  /** When the server first saved this submission (a replay answers the same time). */
  saved_at: z.string(),
  refused: z.array(refusedMarkSchema),
  message_words: textWordsSchema
    .optional()
    .describe('message as a code and params a client can translate (absent from older answers)'),
});
export type QueuedMarksResult = z.infer<typeof queuedMarksResultSchema>;

export const pendingQuerySchema = z.object({ attendance_date: isoDateSchema.optional() });

/** A day with records awaiting approval, and how many. */
export const pendingDaySchema = z
  .object({ date: z.string().describe('yyyy-MM-dd'), pending: z.number().int() })
  .meta({ id: 'PendingDay' });
export type PendingDay = z.infer<typeof pendingDaySchema>;
/** Every day with pending records, newest first; days with none are left out. */
export const pendingDaysSchema = z.array(pendingDaySchema);

export const approveAttendanceSchema = z.object({
  attendance_ids: z
    .array(rowIdSchema('must be an attendance id'), { error: 'must be a list of attendance ids' })
    .min(1, 'must list at least one attendance record')
    .max(10_000, 'must list at most 10000 records'),
});
export type ApproveAttendanceRequest = z.infer<typeof approveAttendanceSchema>;

export const approveAttendanceResultSchema = z.object({
  approved_count: z.number().int(),
  message: z.string(),
  alerted_families: z
    .number()
    .int()
    .describe(
      'families this approval sent an absence or late alert to (one family however many of its children); 0 when absence alerts are off',
    ),
  alert_reach: z
    .object({
      in_app: z.number().int().describe('alerted families the parent app reaches'),
      whatsapp: z.number().int().describe('alerted families WhatsApp reaches and the app does not'),
      no_channel: z.number().int().describe('alerted families no channel reaches yet: they are on the send list'),
    })
    .describe('the alerted families by the first channel that reaches each (they add up to alerted_families)'),
});
export type ApproveAttendanceResult = z.infer<typeof approveAttendanceResultSchema>;

export const historyQuerySchema = z.object({
  start_date: isoDateSchema.optional(),
  end_date: isoDateSchema.optional(),
});

/** The history page shows 25, 50 or 100 rows a page; the server allows up to 500. */
export const HISTORY_PAGE_MAX = 500;
export const HISTORY_SEARCH_MAX = 100;

/**
 * One page of the history, filtered on the server: what the console's History screen shows when a
 * range holds tens of thousands of records. `/attendance/history` (the whole range at once) stays.
 */
export const attendanceHistoryPageQuerySchema = historyQuerySchema.extend({
  class_name: classNameSchema.optional(),
  status: attendanceStatusSchema.optional(),
  search: z.string().trim().max(HISTORY_SEARCH_MAX, `must be at most ${HISTORY_SEARCH_MAX} characters`).optional(),
  limit: queryNumberSchema({ min: 1, max: HISTORY_PAGE_MAX, byDefault: 25, error: 'must be a whole number' }),
  offset: queryNumberSchema({ min: 0, byDefault: 0, error: 'must be a whole number' }),
});
export type AttendanceHistoryPageQuery = z.infer<typeof attendanceHistoryPageQuerySchema>;

export const attendanceHistoryPageSchema = z
  .object({
    period: z.object({ start_date: z.string(), end_date: z.string() }),
    /** Records matching the filters in the whole range, and how many of them have each status. */
    total: z.number().int(),
    counts: z.object({
      present: z.number().int(),
      absent: z.number().int(),
      late: z.number().int(),
      leave: z.number().int(),
    }),
    records: z.array(attendanceRecordSchema),
  })
  .meta({ id: 'AttendanceHistoryPage' });
export type AttendanceHistoryPage = z.infer<typeof attendanceHistoryPageSchema>;

export const attendanceSummarySchema = z.object({
  period: z.object({ start_date: z.string(), end_date: z.string() }),
  metrics: z.object({ attendance_rate: z.number() }),
  totals: z.object({
    total_records: z.number().int(),
    approved_records: z.number().int(),
    pending_records: z.number().int(),
    present: z.number().int(),
    absent: z.number().int(),
    late: z.number().int(),
    leave: z.number().int(),
    messages_sent: z.number().int(),
  }),
});
export type AttendanceSummary = z.infer<typeof attendanceSummarySchema>;
