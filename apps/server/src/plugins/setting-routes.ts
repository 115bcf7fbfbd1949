import { errorSchema } from '@tuitiondesk/contract';
import type { FastifyContextConfig, FastifyInstance, FastifySchema } from 'fastify';
import type { z } from 'zod';
import { type AuthenticatedUser, adminOnly, currentUser } from './authentication';
import type { ZodApp } from './zod-app';

/**
 * One setting of the centre as a resource: `GET path` answers it (to every signed-in staff member
 * unless `read.config` says otherwise), `PUT path` changes it (admins only) and answers it as it now
 * is, 422 for a body that is not valid. Each module declares its own settings with this, so the
 * dozen `/settings/...` resources read, refuse and document alike.
 */
export interface SettingResource<Answer extends z.ZodType, Body extends z.ZodType> {
  path: `/settings${string}`;
  /** The OpenAPI tags (default `settings`). */
  tags?: string[];
  answer: Answer;
  body: Body;
  read: {
    summary: string;
    description?: string;
    config?: FastifyContextConfig;
    run: () => Promise<z.input<Answer>>;
  };
  change: {
    summary: string;
    description?: string;
    /** The change can be refused as conflicting with the centre's state (409), besides a bad body (422). */
    mayConflict?: boolean;
    run: (user: AuthenticatedUser, body: z.output<Body>) => Promise<z.input<Answer>>;
  };
}

export function registerSettingResource<Answer extends z.ZodType, Body extends z.ZodType>(
  app: ZodApp,
  setting: SettingResource<Answer, Body>,
): void {
  const tags = setting.tags ?? ['settings'];
  const { read, change } = setting;
  // The type provider only types handlers, and cannot see through the generic here: the schemas still
  // validate the body and shape the answers, and `run`'s own types come from the same schemas.
  const routes = app as unknown as FastifyInstance;
  const readSchema: FastifySchema = {
    tags,
    summary: read.summary,
    ...(read.description ? { description: read.description } : {}),
    response: { 200: setting.answer },
  };
  routes.get(setting.path, { ...(read.config ? { config: read.config } : {}), schema: readSchema }, () => read.run());
  const changeSchema: FastifySchema = {
    tags,
    summary: change.summary,
    ...(change.description ? { description: change.description } : {}),
    body: setting.body,
    response: change.mayConflict
      ? { 200: setting.answer, 409: errorSchema, 422: errorSchema }
      : { 200: setting.answer, 422: errorSchema },
  };
  routes.put(setting.path, { config: adminOnly, schema: changeSchema }, (request) =>
    change.run(currentUser(request), request.body as z.output<Body>),
  );
}
