import {
  dateParamsSchema,
  errorSchema,
  lockTeacherAttendanceResultSchema,
  markTeacherAttendanceResultSchema,
  markTeacherAttendanceSchema,
  messageSchema,
  teacherAttendanceDaySchema,
  updateTeacherRemarksSchema,
} from '@tuitiondesk/contract';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { sendVersioned } from '../../lib/versioned-answer';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { getTeacherDay, lockTeacherAttendance, markTeacherAttendance, updateTeacherRemarks } from './service';

const tags = ['teacher-attendance'];

export function registerTeacherAttendanceRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/teacher-attendance/date/:date',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Every teacher with their attendance for a date, the totals, and whether the day is locked',
        params: dateParamsSchema,
        response: { 200: teacherAttendanceDaySchema, 422: errorSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, { kinds: ['teacher_attendance', 'teachers'] }, async () =>
        JSON.stringify(await getTeacherDay(ctx, request.params.date)),
      ),
  );

  app.post(
    '/teacher-attendance/mark',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Save the attendance of the listed teachers for a date (refused once the day is locked)',
        body: markTeacherAttendanceSchema,
        response: { 200: markTeacherAttendanceResultSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) =>
      markTeacherAttendance(ctx, currentUser(request), request.body.date, request.body.teacher_records),
  );

  app.post(
    '/teacher-attendance/update-remarks',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "Save the remarks of one teacher's day (refused once the day is locked)",
        body: updateTeacherRemarksSchema,
        response: { 200: messageSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => updateTeacherRemarks(ctx, currentUser(request), request.body),
  );

  // The console posts the lock with an empty body, with or without a JSON content type: in this
  // scope a JSON body, empty or not, is read and set aside rather than parsed.
  app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>();
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) =>
      done(null, undefined),
    );
    scope.post(
      '/teacher-attendance/lock/:date',
      {
        config: adminOnly,
        schema: {
          tags,
          summary: 'Lock a day for good: no further marks or remarks (409 when nothing is marked or already locked)',
          params: dateParamsSchema,
          response: { 200: lockTeacherAttendanceResultSchema, 409: errorSchema, 422: errorSchema },
        },
      },
      async (request) => lockTeacherAttendance(ctx, currentUser(request), request.params.date),
    );
  });
}
