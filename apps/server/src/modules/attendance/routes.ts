import {
  approveAttendanceResultSchema,
  approveAttendanceSchema,
  attendanceHistoryPageQuerySchema,
  attendanceHistoryPageSchema,
  attendanceRecordSchema,
  attendanceSummarySchema,
  errorSchema,
  historyQuerySchema,
  markAttendanceResultSchema,
  markAttendanceSchema,
  markingScopeSchema,
  notMarkedQuerySchema,
  notMarkedSchema,
  pendingDaysSchema,
  pendingQuerySchema,
  queuedMarksResultSchema,
  queuedMarksSchema,
  rosterQuerySchema,
  rosterSchema,
} from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { jsonWithField } from '../../lib/json-reply';
import { sendVersioned, streamVersioned } from '../../lib/versioned-answer';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { saveQueuedMarks } from './queued-marks';
import {
  approveAttendance,
  getHistoryPage,
  getMarkingScope,
  getNotMarked,
  getRoster,
  getSummary,
  historyJsonByDay,
  listPendingDays,
  listPendingJson,
  markAttendance,
} from './service';

const tags = ['attendance'];

/** Attendance records carry their student's name and class. */
const RECORDS = { kinds: ['attendance', 'students'] } as const;

export function registerAttendanceRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/attendance/roster',
    {
      schema: {
        tags,
        summary: "A class's students with their attendance for a date (default today), for marking",
        querystring: rosterQuerySchema,
        response: { 200: rosterSchema, 422: errorSchema },
      },
    },
    async (request) => getRoster(ctx, currentUser(request), request.query.class_name, request.query.date),
  );

  app.get(
    '/attendance/marking-scope',
    {
      schema: {
        tags,
        summary: 'The classes and dates the caller may mark attendance for',
        response: { 200: markingScopeSchema },
      },
    },
    async (request) => getMarkingScope(ctx, currentUser(request)),
  );

  app.post(
    '/attendance/mark',
    {
      schema: {
        tags,
        summary: 'Mark (or re-mark, while pending) attendance for students on a date',
        description:
          "A teacher marks only students of the classes assigned to them (403) and only from today back the centre's number of days (422); see /settings/marking. Admins are not limited.",
        body: markAttendanceSchema,
        response: {
          200: markAttendanceResultSchema,
          403: errorSchema,
          404: errorSchema,
          409: errorSchema,
          422: errorSchema,
        },
      },
    },
    async (request) => markAttendance(ctx, currentUser(request), request.body.date, request.body.records),
  );

  app.post(
    '/attendance/submissions',
    {
      schema: {
        tags,
        summary: "Send marks queued on a device (offline) under the device's id for them",
        description:
          'The same submission_id sent again is saved once and answered as the first time. What the rules allow now is saved; each student that could not be saved (approved meanwhile, a class or day the caller may no longer mark, a student deleted) comes back in `refused` with the reason. The same id with other marks is refused (422).',
        body: queuedMarksSchema,
        response: { 200: queuedMarksResultSchema, 422: errorSchema },
      },
    },
    async (request) => saveQueuedMarks(ctx, currentUser(request), request.body),
  );

  app.get(
    '/attendance/pending-approval',
    {
      schema: {
        tags,
        summary: 'Attendance records awaiting approval, for one date or all dates',
        querystring: pendingQuerySchema,
        response: { 200: z.array(attendanceRecordSchema), 422: errorSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, RECORDS, () => listPendingJson(ctx, request.query.attendance_date)),
  );

  app.get(
    '/attendance/not-marked',
    {
      schema: {
        tags,
        summary: 'The classes with students who have no attendance mark on a date (default today), with how many',
        description:
          "A class is listed while any student on its register that day has no mark, whether the class is partly marked or not at all: the dashboard's and Approval's 'Class 8: 9 students not marked'.",
        querystring: notMarkedQuerySchema,
        response: { 200: notMarkedSchema, 422: errorSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, RECORDS, async () =>
        JSON.stringify(await getNotMarked(ctx, request.query.date)),
      ),
  );

  app.get(
    '/attendance/pending-days',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Every day with attendance records awaiting approval, with how many, newest first',
        description:
          'Days with nothing pending are left out. The counts are those of /attendance/pending-approval for each day.',
        response: { 200: pendingDaysSchema },
      },
    },
    async (request, reply) =>
      // Counts of attendance alone: a student's deletion reaches them through the attendance it deletes.
      sendVersioned(ctx, request, reply, { kinds: ['attendance'] }, async () =>
        JSON.stringify(await listPendingDays(ctx)),
      ),
  );

  app.post(
    '/attendance/approve',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Approve the pending records among the given ids',
        body: approveAttendanceSchema,
        response: { 200: approveAttendanceResultSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => approveAttendance(ctx, currentUser(request), request.body.attendance_ids),
  );

  app.get(
    '/attendance/history',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Every attendance record in an inclusive date range (default the last 7 days), newest first',
        querystring: historyQuerySchema,
        response: { 200: z.array(attendanceRecordSchema), 422: errorSchema },
      },
    },
    async (request, reply) =>
      streamVersioned(
        ctx,
        request,
        reply,
        RECORDS,
        await historyJsonByDay(ctx, request.query.start_date, request.query.end_date),
      ),
  );

  app.get(
    '/attendance/history/page',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'One page of the history in a date range, filtered by class, status and name or ID, with counts',
        querystring: attendanceHistoryPageQuerySchema,
        response: { 200: attendanceHistoryPageSchema, 422: errorSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, RECORDS, async () => {
        const { recordsJson, ...page } = await getHistoryPage(ctx, request.query);
        return jsonWithField(page, 'records', recordsJson);
      }),
  );

  app.get(
    '/attendance/summary',
    {
      schema: {
        tags,
        summary: "This month's attendance rate and record counts, and messages sent",
        response: { 200: attendanceSummarySchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, { kinds: ['attendance', 'students', 'messages'] }, async () =>
        JSON.stringify(await getSummary(ctx)),
      ),
  );
}
