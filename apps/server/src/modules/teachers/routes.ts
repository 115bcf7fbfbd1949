import {
  createdTeacherSchema,
  createTeacherSchema,
  teacherSchema,
  teachersClearAllSchema,
  updateTeacherSchema,
} from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { registerBulkDeleteRoutes } from '../../lib/bulk-delete-routes';
import { registerRecordRoutes } from '../../lib/record-routes';
import { sendVersioned } from '../../lib/versioned-answer';
import { adminOnly } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import {
  clearAllTeachers,
  createTeacher,
  editTeacher,
  getTeacher,
  listTeachersJson,
  removeTeacher,
  removeTeachers,
} from './service';

const tags = ['teachers'];
const config = adminOnly;

export function registerTeacherRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/teachers/',
    {
      config,
      schema: { tags, summary: 'Every teacher, oldest first', response: { 200: z.array(teacherSchema) } },
    },
    async (request, reply) =>
      sendVersioned(ctx, request, reply, { kinds: ['teachers', 'accounts'] }, () => listTeachersJson(ctx)),
  );

  registerBulkDeleteRoutes(app, ctx, {
    path: '/teachers',
    tags,
    deleteListedSummary: 'Delete the listed teachers with their accounts: all of them, or none when one is unknown',
    clearAllSummary:
      'Delete every teacher, their attendance and their sign-in accounts, after writing a backup of all data into BACKUP_DIR (none written: nothing deleted, 503)',
    clearAllResponse: teachersClearAllSchema,
    deleteListed: removeTeachers,
    clearAll: clearAllTeachers,
  });

  registerRecordRoutes(app, ctx, {
    path: '/teachers',
    tags,
    readAndEdit: config,
    record: teacherSchema,
    addSummary: 'Add a teacher and their sign-in account; the answer carries the initial password, once',
    addition: createTeacherSchema,
    added: createdTeacherSchema,
    addRefusals: [409],
    getSummary: 'One teacher',
    editSummary: 'Edit a teacher; fields left out keep their value, full_name is derived from first and last name',
    changes: updateTeacherSchema,
    editRefusals: [409],
    deleteSummary: 'Delete a teacher with their attendance and sign-in account',
    add: createTeacher,
    get: getTeacher,
    edit: editTeacher,
    remove: removeTeacher,
  });
}
