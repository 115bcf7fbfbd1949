import {
  classOptionSchema,
  createStudentSchema,
  deletedCountSchema,
  errorSchema,
  idListSchema,
  idParamsSchema,
  messageSchema,
  studentListQuerySchema,
  studentSchema,
  studentsClearAllSchema,
  updateStudentSchema,
} from '@tuitiondesk/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { sendJsonText } from '../../lib/json-reply';
import { currentUser } from '../../plugins/authentication';
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
const adminOnly = { roles: ['admin'] as const };

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
    async (request, reply) => sendJsonText(reply, await listStudentsJson(ctx, request.query.class_name)),
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

  app.post(
    '/students/',
    {
      schema: {
        tags,
        summary: 'Add a student; the server assigns the Student ID',
        body: createStudentSchema,
        response: { 201: studentSchema, 422: errorSchema },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createStudent(ctx, currentUser(request), request.body);
    },
  );

  app.post(
    '/students/delete-multiple',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Delete the listed students (a bare JSON array of ids): all of them, or none when one is unknown',
        body: idListSchema,
        response: { 200: deletedCountSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => removeStudents(ctx, currentUser(request), request.body),
  );

  app.delete(
    '/students/clear-all',
    {
      config: adminOnly,
      schema: {
        tags,
        summary:
          'Delete every student and their attendance, after writing a backup of all data into BACKUP_DIR (none written: nothing deleted, 503)',
        response: { 200: studentsClearAllSchema, 503: errorSchema },
      },
    },
    async (request) => clearAllStudents(ctx, currentUser(request)),
  );

  app.get(
    '/students/:id',
    {
      schema: {
        tags,
        summary: 'One student',
        params: idParamsSchema,
        response: { 200: studentSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => getStudent(ctx, request.params.id),
  );

  app.put(
    '/students/:id',
    {
      schema: {
        tags,
        summary: 'Edit a student; fields left out keep their value, id and unique_id are never changed',
        description:
          "Changing the parent phone of a family that has a parent app access code is for admins only (403 for a teacher): the family's devices are told (ADR 018).",
        params: idParamsSchema,
        body: updateStudentSchema,
        response: { 200: studentSchema, 403: errorSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => editStudent(ctx, currentUser(request), request.params.id, request.body),
  );

  app.delete(
    '/students/:id',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Delete a student and their attendance',
        params: idParamsSchema,
        response: { 200: messageSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => removeStudent(ctx, currentUser(request), request.params.id),
  );
}
