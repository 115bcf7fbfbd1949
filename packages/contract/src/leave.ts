import { z } from 'zod';
import {
  classNameSchema,
  isoDateSchema,
  queryNumberSchema,
  requiredText,
  rowIdSchema,
  studentRecordFields,
} from './common';

/**
 * Leave told in advance: a parent says a child will be away (dates, reason), an admin approves or
 * declines it, the parent may withdraw it while it waits. `pending` is what the parent app calls
 * "waiting".
 */
export const LEAVE_STATUSES = ['pending', 'approved', 'declined', 'withdrawn'] as const;
export const leaveStatusSchema = z.enum(LEAVE_STATUSES, {
  error: 'must be one of pending, approved, declined or withdrawn',
});
export type LeaveStatus = z.infer<typeof leaveStatusSchema>;

/** The longest leave one request may cover, both days counted; a longer absence is a conversation. */
export const LEAVE_MAX_DAYS = 60;
export const LEAVE_REASON_MAX = 200;

export const leaveRequestSchema = z
  .object({
    ...studentRecordFields,
    from_date: z.string(),
    to_date: z.string(),
    days: z.number().int().describe('calendar days covered, both ends counted'),
    reason: z.string(),
    status: leaveStatusSchema,
    requested_at: z.string(),
    decided_at: z.string().nullable().describe('when an admin approved or declined it, or the parent withdrew it'),
    decided_by: z.string().nullable().describe('who approved or declined it (the parent when withdrawn)'),
  })
  .meta({ id: 'LeaveRequest' });
export type LeaveRequest = z.infer<typeof leaveRequestSchema>;

export const createLeaveRequestSchema = z.object({
  student_id: rowIdSchema('must be the id of one of your children'),
  from_date: isoDateSchema,
  to_date: isoDateSchema.optional().describe('the last day away (default from_date: one day)'),
  reason: requiredText(LEAVE_REASON_MAX),
});
export type CreateLeaveRequest = z.input<typeof createLeaveRequestSchema>;

export const parentLeaveRequestsSchema = z.object({ requests: z.array(leaveRequestSchema) });
export type ParentLeaveRequests = z.infer<typeof parentLeaveRequestsSchema>;

export const leaveListQuerySchema = z.object({
  status: leaveStatusSchema.optional(),
  class_name: classNameSchema.optional(),
  from_date: isoDateSchema.optional().describe('requests that cover this day or later'),
  to_date: isoDateSchema.optional().describe('requests that cover this day or earlier'),
  limit: queryNumberSchema({ min: 1, max: 500, byDefault: 100, error: 'must be a whole number' }),
  offset: queryNumberSchema({ min: 0, byDefault: 0, error: 'must be a whole number' }),
});
export type LeaveListQuery = z.input<typeof leaveListQuerySchema>;

export const leaveListSchema = z.object({
  requests: z.array(leaveRequestSchema),
  /** Requests matching the filters (the page is `requests`). */
  total: z.number().int(),
});
export type LeaveList = z.infer<typeof leaveListSchema>;

export const leaveCountSchema = z.object({
  pending: z.number().int().describe('requests waiting for an admin, among those the caller may see'),
});
export type LeaveCount = z.infer<typeof leaveCountSchema>;

/** The leave on a roster line: a live request covering the roster's date (an approved one first). */
export const rosterLeaveSchema = z.object({
  id: z.number().int(),
  status: z.enum(['pending', 'approved']),
  reason: z.string(),
  from_date: z.string(),
  to_date: z.string(),
});
export type RosterLeave = z.infer<typeof rosterLeaveSchema>;
