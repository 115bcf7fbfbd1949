import {
  type CentreClass,
  type CentreSubject,
  centreClassListSchema,
  centreClassSchema,
  centreSubjectListSchema,
  centreSubjectSchema,
  createClassSchema,
  createSubjectSchema,
  errorSchema,
  idParamsSchema,
  messageSchema,
  reorderSchema,
  updateClassSchema,
  updateSubjectSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/activity-log';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import type { ListKind } from './repository';
import {
  addClass,
  addSubject,
  archive,
  type ClassChanges,
  editClass,
  editSubject,
  listClasses,
  listSubjects,
  type NewClass,
  type NewSubject,
  remove,
  reorder,
  type SubjectChanges,
} from './service';

const tags = ['classes'];

/**
 * What differs between the two lists (ADR 043): their paths, schemas, words and service functions.
 * Everything else (the routes, who may call them, the answers' statuses) is one factory's.
 */
interface ListRoutes {
  kind: ListKind;
  path: '/classes' | '/subjects';
  noun: 'class' | 'subject';
  one: typeof centreClassSchema | typeof centreSubjectSchema;
  list: typeof centreClassListSchema | typeof centreSubjectListSchema;
  create: typeof createClassSchema | typeof createSubjectSchema;
  update: typeof updateClassSchema | typeof updateSubjectSchema;
  summaries: { list: string; add: string; edit: string };
  read: (db: AppContext['db']) => Promise<CentreClass[] | CentreSubject[]>;
  /** Called with the body `create` parsed. */
  add: (ctx: AppContext, actor: Actor, body: unknown) => Promise<CentreClass | CentreSubject>;
  /** Called with the body `update` parsed. */
  edit: (ctx: AppContext, actor: Actor, id: number, body: unknown) => Promise<CentreClass | CentreSubject>;
}

/** A list's routes: read, add, edit, archive and unarchive, reorder, delete. */
function registerList(app: ZodApp, ctx: AppContext, routes: ListRoutes): void {
  const { kind, path, noun, one, list, summaries } = routes;
  const refusals = { 404: errorSchema, 409: errorSchema, 422: errorSchema };

  app.get(path, { schema: { tags, summary: summaries.list, response: { 200: list } } }, async () =>
    routes.read(ctx.db),
  );

  app.post(
    path,
    {
      config: adminOnly,
      schema: {
        tags,
        summary: summaries.add,
        body: routes.create,
        response: { 201: one, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await routes.add(ctx, currentUser(request), request.body)),
  );

  app.put(
    `${path}/:id`,
    {
      config: adminOnly,
      schema: {
        tags,
        summary: summaries.edit,
        params: idParamsSchema,
        body: routes.update,
        response: { 200: one, ...refusals },
      },
    },
    async (request) => routes.edit(ctx, currentUser(request), request.params.id, request.body),
  );

  for (const archived of [true, false]) {
    app.post(
      `${path}/:id/${archived ? 'archive' : 'unarchive'}`,
      {
        config: adminOnly,
        schema: {
          tags,
          summary: archived
            ? `Archive a ${noun}: records keep it, nothing new is put in it, no select offers it`
            : `Unarchive a ${noun}: it is offered again`,
          params: idParamsSchema,
          response: { 200: one, ...refusals },
        },
      },
      async (request) => archive(ctx, currentUser(request), kind, request.params.id, archived),
    );
  }

  app.put(
    `${path}/order`,
    {
      config: adminOnly,
      schema: {
        tags,
        summary: `Put the ${noun} list in a new order: every id once, archived ones too`,
        body: reorderSchema,
        response: { 200: list, 422: errorSchema },
      },
    },
    async (request) => reorder(ctx, currentUser(request), kind, request.body.ids),
  );

  app.delete(
    `${path}/:id`,
    {
      config: adminOnly,
      schema: {
        tags,
        summary: `Delete a ${noun} nothing refers to (one in use: 409, archive it instead)`,
        params: idParamsSchema,
        response: { 200: messageSchema, ...refusals },
      },
    },
    async (request) => remove(ctx, currentUser(request), kind, request.params.id),
  );
}

export function registerClassRoutes(app: ZodApp, ctx: AppContext): void {
  registerList(app, ctx, {
    kind: 'class',
    path: '/classes',
    noun: 'class',
    one: centreClassSchema,
    list: centreClassListSchema,
    create: createClassSchema,
    update: updateClassSchema,
    summaries: {
      list: "The centre's classes (or batches) in their order, archived ones too, with what uses each",
      add: 'Add a class at the end of the list (a value or label already used: 409)',
      edit: "Change a class's label or section (its value, stored on every record, stays)",
    },
    read: listClasses,
    add: (ctx, actor, body) => addClass(ctx, actor, body as NewClass),
    edit: (ctx, actor, id, body) => editClass(ctx, actor, id, body as ClassChanges),
  });
  registerList(app, ctx, {
    kind: 'subject',
    path: '/subjects',
    noun: 'subject',
    one: centreSubjectSchema,
    list: centreSubjectListSchema,
    create: createSubjectSchema,
    update: updateSubjectSchema,
    summaries: {
      list: "The centre's subjects in their order, archived ones too, with how many teachers teach each",
      add: 'Add a subject at the end of the list (a value or label already used: 409)',
      edit: "Change a subject's label (its value, stored on teachers' records, stays)",
    },
    read: listSubjects,
    add: (ctx, actor, body) => addSubject(ctx, actor, body as NewSubject),
    edit: (ctx, actor, id, body) => editSubject(ctx, actor, id, body as SubjectChanges),
  });
}
