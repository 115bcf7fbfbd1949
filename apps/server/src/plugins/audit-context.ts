import { API_BASE_PATH, type AuditWay, CLIENT_HEADER, CLIENT_HEADER_VALUES } from '@tuitiondesk/contract';
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { type AuditSource, runWithAuditSource } from '../db/audit-context';

/**
 * The way a request came: the import routes are 'import'; otherwise what the client says it is (the
 * console and the parent app name themselves), else 'api'. The header only labels the row: it grants
 * nothing, and a client that lies about it still appears under its own account and address.
 */
export function wayOf(request: FastifyRequest, isImport: boolean): AuditWay {
  if (isImport) return 'import';
  const client = request.headers[CLIENT_HEADER];
  if (client === CLIENT_HEADER_VALUES.console) return 'console';
  if (client === CLIENT_HEADER_VALUES.parentApp) return 'parent app';
  return 'api';
}

export function auditSourceOf(request: FastifyRequest, isImport: boolean): AuditSource {
  const user = request.user;
  const parent = request.parent;
  return {
    actor_id: user?.id ?? null,
    actor_name: user?.full_name ?? (parent ? `Parent ${parent.phone}` : null),
    address: request.ip,
    way: wayOf(request, isImport),
  };
}

/**
 * Every API handler runs with its request as the audit source (ADR 025): the database layer hands it
 * to the audit triggers of each transaction the handler starts, so no route can forget to record
 * who changed what. Wrapping the handler (not a hook) keeps the source across the body's parsing.
 * Register before the routes.
 */
export function registerAuditContext(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${API_BASE_PATH}/`)) return;
    const isImport = route.url.startsWith(`${API_BASE_PATH}/import/`);
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function auditedHandler(request, reply) {
      return runWithAuditSource(
        () => auditSourceOf(request, isImport),
        () => handler.call(this, request, reply),
      );
    } as RouteHandlerMethod;
  });
}
