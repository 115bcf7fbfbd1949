import {
  classOptionSchema,
  createStudentSchema,
  errorSchema,
  studentListQuerySchema,
  studentSchema,
  studentsClearAllSchema,
  updateStudentSchema,
} from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { registerBulkDeleteRoutes } from '../../lib/bulk-delete-routes';
import { registerRecordRoutes } from '../../lib/record-routes';
import { sendVersioned } from '../../lib/versioned-answer';
import type { ZodApp } from '../../plugins/zod-app';
import {
  CLASS_OPTIONS,
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
        summary: 'Every student, oldest first (optionally one class)',
        querystring: studentListQuerySchema,
        response: { 200: z.array(studentSchema), 422: errorSchema },
      },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, { kinds: ['students'] }, () =>
        listStudentsJson(ctx, request.query.class_name),
      ),
  );

  app.get(
    '/students/classes',
    {
      schema: {
        tags,
        summary: 'The classes the centre teaches, as value and label',
        response: { 200: z.array(classOptionSchema) },
      },
    },
    async () => CLASS_OPTIONS,
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
      "Add a student; the server assigns the Student ID. A parent phone already on record: the student joins that family's WhatsApp consent and language, or sets them for the whole family when given",
    addition: createStudentSchema,
    getSummary: 'One student',
    editSummary: 'Edit a student; fields left out keep their value, id and unique_id are never changed',
    editDescription:
      "Changing the parent phone of a family that has a parent app access code is for admins only (403 for a teacher): the family's devices are told (ADR 018). " +
      "parent_whatsapp_opt_in and parent_language are the family's: given, they are set on every student with the parent phone (a change of consent is logged); left out, the family keeps its own, and a student moved to another family's phone takes that family's (ADR 023).",
    changes: updateStudentSchema,
    editRefusals: [403],
    deleteSummary: 'Delete a student and their attendance',
    add: createStudent,
    get: getStudent,
    edit: editStudent,
    remove: removeStudent,
  });
}
