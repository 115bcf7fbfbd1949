import {
  classOptionSchema,
  createStudentSchema,
  errorSchema,
  idParamsSchema,
  leaveStudentSchema,
  studentListQuerySchema,
  studentSchema,
  studentSettingsSchema,
  studentsClearAllSchema,
  updateStudentSchema,
  updateStudentSettingsSchema,
} from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { registerBulkDeleteRoutes } from '../../lib/bulk-delete-routes';
import { registerRecordRoutes } from '../../lib/record-routes';
import { sendVersioned } from '../../lib/versioned-answer';
import { adminOnly, currentUser } from '../../plugins/authentication';
import { registerSettingResource } from '../../plugins/setting-routes';
import type { ZodApp } from '../../plugins/zod-app';
import { classOptions } from '../classes';
import { getStudentSettings, markStudentLeft, restoreStudent, updateStudentSettings } from './leaving';
import {
  clearAllStudents,
  createStudent,
  editStudent,
  getStudent,
  listStudentsJson,
  removeStudent,
  removeStudents,
} from './service';

const tags = ['students'];

export function registerStudentRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/students/',
    {
      schema: {
        tags,
        summary: 'The students attending, oldest first (optionally one class; status=left or all for those who left)',
        querystring: studentListQuerySchema,
        response: { 200: z.array(studentSchema), 422: errorSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, { kinds: ['students'] }, () =>
        listStudentsJson(ctx, request.query.class_name, request.query.status),
      ),
  );

  app.get(
    '/students/classes',
    {
      schema: {
        tags,
        summary: "The centre's active classes in its order, as value and label (the spec's 7–10 by default)",
        response: { 200: z.array(classOptionSchema) },
      },
    },
    async () => classOptions(ctx.db),
  );

  registerBulkDeleteRoutes(app, ctx, {
    path: '/students',
    tags,
    deleteListedSummary:
      'Delete the listed students (a bare JSON array of ids): all of them, or none when one is unknown',
    clearAllSummary:
      'Delete every student and their attendance, after writing a backup of all data into BACKUP_DIR (none written: nothing deleted, 503)',
    clearAllResponse: studentsClearAllSchema,
    deleteListed: removeStudents,
    clearAll: clearAllStudents,
  });

  registerRecordRoutes(app, ctx, {
    path: '/students',
    tags,
    record: studentSchema,
    addSummary:
      "Add a student; the server assigns the Student ID. A parent phone already on record: the student joins that family's WhatsApp consent and language, or sets them for the whole family when given (parent_whatsapp_opt_in true for a family whose parent turned WhatsApp off: 409)",
    addition: createStudentSchema,
    addRefusals: [409],
    getSummary: 'One student',
    editSummary: 'Edit a student; fields left out keep their value, id and unique_id are never changed',
    editDescription:
      "Changing the parent phone of a family that has a parent app access code is for admins only (403 for a teacher): the family's devices are told (ADR 018). " +
      'A teacher changes a class only between two classes they may mark, the old and the new (else 403, ADR 019). ' +
      "parent_whatsapp_opt_in and parent_language are the family's: given, they are set on every student with the parent phone (a change of consent is logged); left out, the family keeps its own, and a student moved to another family's phone takes that family's (ADR 023). " +
      'Once the parent turned WhatsApp off themselves (a STOP reply, the parent app), parent_whatsapp_opt_in true is refused (409, validation.parent_opted_out) until the parent turns it on again (START, the parent app); false is always accepted.',
    changes: updateStudentSchema,
    editRefusals: [403, 409],
    deleteSummary: 'Delete a student and their attendance',
    add: createStudent,
    get: getStudent,
    edit: editStudent,
    remove: removeStudent,
  });

  app.post(
    '/students/:id/leave',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Mark a student as having left on a day (today when left out), instead of deleting them',
        description:
          'They leave the lists, the rosters of days after that day and the messages to parents; their attendance and messages stay in history and reports. A family with no child attending can no longer sign in to the parent app. Already left: 409; a day in the future: 422 (ADR 027).',
        params: idParamsSchema,
        body: leaveStudentSchema,
        response: { 200: studentSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => markStudentLeft(ctx, currentUser(request), request.params.id, request.body.left_on),
  );

  app.post(
    '/students/:id/restore',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Bring back a student who left: on the lists, rosters and messages again',
        description: 'Not left: 409. Once their personal data was removed (scrub_left_after_months), 409 too.',
        params: idParamsSchema,
        response: { 200: studentSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => restoreStudent(ctx, currentUser(request), request.params.id),
  );

  registerSettingResource(app, {
    path: '/settings/students',
    answer: studentSettingsSchema,
    body: updateStudentSettingsSchema,
    read: {
      summary: 'How long after leaving a student keeps their personal data',
      run: () => getStudentSettings(ctx),
    },
    change: {
      summary: 'Change how many months after leaving a student is scrubbed of personal data',
      description:
        'A daily job replaces the name of each student who left more than this many months ago with a label, empties the parent name and phone, and ends the access of a family with no student left; attendance stays, anonymous.',
      run: (user, body) => updateStudentSettings(ctx, user, body),
    },
  });
}
