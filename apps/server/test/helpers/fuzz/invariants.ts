import type { LightMyRequestResponse } from 'fastify';
import type { Operation } from './openapi';
import { type ResponseSchemas, responseSchemaProblem } from './response-schemas';
import { MAX_PARAM_LENGTH, type Sent } from './send';

/**
 * What is wrong with this answer, or undefined. For every answer: never a 5xx; `Cache-Control:
 * no-store` on every /api/ answer; every 4xx is JSON with a string `detail`; no token on a call that is
 * not public: 401; a parent token on a staff call, or a staff token on a parent call: 403; a teacher on
 * an admin-only call: 403 (roles from helpers/roles.ts); every 2xx body parses with the response schema
 * its route declares for that status, and carries nothing the schema leaves out.
 */
export function problemWith(
  schemas: ResponseSchemas,
  operation: Operation,
  sent: Sent,
  response: LightMyRequestResponse,
): string | undefined {
  const status = response.statusCode;
  if (status >= 500) return `answered ${status}`;
  if (response.headers['cache-control'] !== 'no-store') {
    return `Cache-Control is ${String(response.headers['cache-control'])}, not no-store`;
  }
  if (status >= 400) {
    let detail: unknown;
    try {
      detail = (JSON.parse(response.body) as { detail?: unknown }).detail;
    } catch {
      return `${status} without a JSON body`;
    }
    if (typeof detail !== 'string' || detail.trim() === '') return `${status} without a string detail`;
    if (!String(response.headers['content-type']).startsWith('application/json')) {
      return `${status} with content type ${String(response.headers['content-type'])}`;
    }
  }
  // A path segment longer than Fastify's maxParamLength is refused by the router, before any route: 414.
  if (sent.longPathValue)
    return status === 414 ? undefined : `a path value over ${MAX_PARAM_LENGTH} characters, but ${status}`;
  const { access } = operation;
  if (sent.who === 'none' && access !== 'public' && status !== 401) return `no token, but ${status} (expected 401)`;
  if (sent.who === 'parent' && (access === 'staff' || access === 'admin') && status !== 403) {
    return `a parent token on a staff call, but ${status} (expected 403)`;
  }
  if ((sent.who === 'admin' || sent.who === 'teacher') && access === 'parent' && status !== 403) {
    return `a staff token on a parent call, but ${status} (expected 403)`;
  }
  if (sent.who === 'teacher' && access === 'admin' && status !== 403)
    return `a teacher on an admin call, but ${status}`;
  return responseSchemaProblem(schemas, operation.method, operation.path, response);
}

/** The failure report: the operation, the problem, what was sent and what came back. */
export function describeFailure(
  operation: Operation,
  sent: Sent,
  response: LightMyRequestResponse,
  problem: string,
): string {
  return [
    `${operation.method} ${operation.path}: ${problem}`,
    `  as ${sent.who}: ${sent.method} ${sent.url}`,
    `  content-type: ${sent.contentType ?? '(none)'}`,
    `  body: ${sent.body || '(none)'}`,
    `  answer: ${response.statusCode} ${response.body.slice(0, 500)}`,
  ].join('\n');
}
