import {
  createdTeacherSchema,
  createTeacherSchema,
  deletedCountSchema,
  errorSchema,
  idListSchema,
  idParamsSchema,
  messageSchema,
  teacherSchema,
  teachersClearAllSchema,
  updateTeacherSchema,
} from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { sendJsonText } from '../../lib/json-reply';
import { currentUser } from '../../plugins/authentication';
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
const config = { roles: ['admin'] as const };

export function registerTeacherRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/teachers/',
    {
      config,
      schema: { tags, summary: 'Every teacher, oldest first', response: { 200: z.array(teacherSchema) } },
    },
    async (_request, reply) => sendJsonText(reply, await listTeachersJson(ctx)),
  );

  app.post(
    '/teachers/',
    {
      config,
      schema: {
        tags,
        summary: 'Add a teacher and their sign-in account; the answer carries the initial password, once',
        body: createTeacherSchema,
        response: { 201: createdTeacherSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createTeacher(ctx, currentUser(request), request.body);
    },
  );

  app.post(
    '/teachers/delete-multiple',
    {
      config,
      schema: {
        tags,
        summary: 'Delete the listed teachers with their accounts: all of them, or none when one is unknown',
        body: idListSchema,
        response: { 200: deletedCountSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => removeTeachers(ctx, currentUser(request), request.body),
  );

  app.delete(
    '/teachers/clear-all',
    {
      config,
      schema: {
        tags,
        summary:
          'Delete every teacher, their attendance and their sign-in accounts, after writing a backup of all data into BACKUP_DIR (none written: nothing deleted, 503)',
        response: { 200: teachersClearAllSchema, 503: errorSchema },
      },
    },
    async (request) => clearAllTeachers(ctx, currentUser(request)),
  );

  app.get(
    '/teachers/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One teacher',
        params: idParamsSchema,
        response: { 200: teacherSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => getTeacher(ctx, request.params.id),
  );

  app.put(
    '/teachers/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Edit a teacher; fields left out keep their value, full_name is derived from first and last name',
        params: idParamsSchema,
        body: updateTeacherSchema,
        response: { 200: teacherSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => editTeacher(ctx, currentUser(request), request.params.id, request.body),
  );

  app.delete(
    '/teachers/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a teacher with their attendance and sign-in account',
        params: idParamsSchema,
        response: { 200: messageSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => removeTeacher(ctx, currentUser(request), request.params.id),
  );
}
