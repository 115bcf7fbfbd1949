import { errorSchema, idParamsSchema, messageSchema } from '@tuitiondesk/contract';
import type { FastifyContextConfig } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../context';
import { type AuthenticatedUser, adminOnly, currentUser } from '../plugins/authentication';
import type { ZodApp } from '../plugins/zod-app';

/** A record as the API answers it: a row of a list, with its id. */
type Row = { id: number };

/** A list's records one at a time: the texts the API document shows, and the service calls behind them. */
export interface RecordRoutes<Create extends z.ZodType, Update extends z.ZodType> {
  /** The list's path: `/students` serves `/students/` and `/students/:id`. */
  path: string;
  tags: string[];
  /** Who may add, read and edit a record (every staff role when absent); deleting one is for admins only. */
  readAndEdit?: FastifyContextConfig;
  /** The record as the API answers it. */
  record: z.ZodType<Row, Row>;
  addSummary: string;
  /** What an addition takes. */
  addition: Create;
  /** What an addition answers (201), when it is more than the record. */
  added?: z.ZodType<Row, Row>;
  /** The errors an addition may answer besides 422: 409 (a clash). */
  addRefusals?: readonly 409[];
  getSummary: string;
  editSummary: string;
  editDescription?: string;
  /** What an edit takes. */
  changes: Update;
  /** The errors an edit may answer besides 404 and 422: 403 (not the caller's to change), 409 (a clash). */
  editRefusals: readonly (403 | 409)[];
  deleteSummary: string;
  add: (ctx: AppContext, actor: AuthenticatedUser, addition: z.output<Create>) => Promise<Row>;
  get: (ctx: AppContext, id: number) => Promise<Row>;
  edit: (ctx: AppContext, actor: AuthenticatedUser, id: number, changes: z.output<Update>) => Promise<Row>;
  remove: (ctx: AppContext, actor: AuthenticatedUser, id: number) => Promise<{ message: string }>;
}

/** Error answers for these statuses. */
function errorsFor(statuses: readonly number[]) {
  return Object.fromEntries(statuses.map((status) => [status, errorSchema]));
}

/**
 * `POST <path>/` (201 with what was added), and `GET`, `PUT` and `DELETE <path>/:id` (404 for an
 * unknown id, 422 for one that is not an id).
 */
export function registerRecordRoutes<Create extends z.ZodType, Update extends z.ZodType>(
  app: ZodApp,
  ctx: AppContext,
  routes: RecordRoutes<Create, Update>,
): void {
  const { path, tags, record } = routes;
  const config = routes.readAndEdit ?? {};
  const idPath = `${path}/:id`;

  app.post(
    `${path}/`,
    {
      config,
      schema: {
        tags,
        summary: routes.addSummary,
        body: routes.addition,
        response: { 201: routes.added ?? record, ...errorsFor(routes.addRefusals ?? []), 422: errorSchema },
      },
    },
    async (request, reply) => {
      reply.code(201);
      // The body has been parsed by `routes.addition`; the type provider cannot see through the generic.
      return routes.add(ctx, currentUser(request), request.body as z.output<Create>);
    },
  );

  app.get(
    idPath,
    {
      config,
      schema: {
        tags,
        summary: routes.getSummary,
        params: idParamsSchema,
        response: { 200: record, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => routes.get(ctx, request.params.id),
  );

  app.put(
    idPath,
    {
      config,
      schema: {
        tags,
        summary: routes.editSummary,
        ...(routes.editDescription === undefined ? {} : { description: routes.editDescription }),
        params: idParamsSchema,
        body: routes.changes,
        response: { 200: record, ...errorsFor(routes.editRefusals), 404: errorSchema, 422: errorSchema },
      },
    },
    // The body has been parsed by `routes.changes`; the type provider cannot see through the generic.
    async (request) => routes.edit(ctx, currentUser(request), request.params.id, request.body as z.output<Update>),
  );

  app.delete(
    idPath,
    {
      config: adminOnly,
      schema: {
        tags,
        summary: routes.deleteSummary,
        params: idParamsSchema,
        response: { 200: messageSchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => routes.remove(ctx, currentUser(request), request.params.id),
  );
}
