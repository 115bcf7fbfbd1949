import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorCode, type ErrorParamValue, type ErrorWords, errorDetail, errorWords } from '@tuitiondesk/contract';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DatabaseBusyError, isTransactionConflict } from '../db/database';
import { AppError } from '../lib/errors';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string; code?: string } & Record<string, unknown> };
}

/**
 * The problem body of an error: the English `detail`, its stable `code` and, when its text has
 * placeholders, the `params` a client fills its own language's text with (ADR 036).
 */
export function problemBody(words: { code: ErrorCode; params: Readonly<Record<string, ErrorParamValue>> }): {
  detail: string;
  code: ErrorCode;
  params?: Record<string, ErrorParamValue>;
} {
  const detail = errorDetail(words);
  return Object.keys(words.params).length === 0
    ? { detail, code: words.code }
    : { detail, code: words.code, params: { ...words.params } };
}

const problem = (words: ErrorWords) => problemBody(words);

/** The rule a contract check broke, as a `validation.<rule>` code, with the rule's limits as params. */
function validationProblem(issue: ValidationIssue, field: string, message: string) {
  const raw = issue.params?.issue ?? {};
  const rule = `validation.${String(raw.code ?? 'invalid')}`;
  const code: ErrorCode = isValidationRule(rule) ? rule : 'validation.invalid';
  const params: Record<string, ErrorParamValue> = { field, message };
  for (const key of ['minimum', 'maximum', 'expected', 'format', 'origin', 'divisor'] as const) {
    const value = raw[key];
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) params[key] = value;
    else if (typeof value === 'bigint') params[key] = Number(value);
  }
  return problemBody({ code, params });
}

const VALIDATION_RULES = new Set<string>([
  'validation.invalid_type',
  'validation.too_small',
  'validation.too_big',
  'validation.invalid_format',
  'validation.not_multiple_of',
  'validation.unrecognized_keys',
  'validation.invalid_union',
  'validation.invalid_key',
  'validation.invalid_element',
  'validation.invalid_value',
  'validation.custom',
]);
function isValidationRule(rule: string): rule is ErrorCode {
  return VALIDATION_RULES.has(rule);
}

/** `/records/0/status` → `records[0].status`; the body itself → `body`; `/1` of an array body → `body[1]`. */
function fieldName(issue: ValidationIssue, context: string | undefined): string {
  const path = issue.params?.issue?.path ?? issue.instancePath?.split('/').filter(Boolean) ?? [];
  const name = path
    .map((part, index) => (/^\d+$/.test(String(part)) ? `[${String(part)}]` : `${index > 0 ? '.' : ''}${String(part)}`))
    .join('');
  const whole = context === 'querystring' ? 'query' : (context ?? 'body');
  // An item of a bare array body (`[1, "2"]`) is named after the body: `body[1]`.
  return name.startsWith('[') ? `${whole}${name}` : name || whole;
}

const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENOTFOUND',
  '53300',
  '57P01',
  '57P02',
  '57P03',
  '08006',
  '08001',
  '08003',
]);

function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (
    (e.code !== undefined && CONNECTION_ERRORS.has(e.code)) ||
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|PGlite is closed|the database system is (starting up|shutting down|in recovery mode)/i.test(
      e.message ?? '',
    )
  );
}

/** A deadlock or serialization failure that outlasted the transaction's own retries. */
function isContention(error: unknown): boolean {
  return isTransactionConflict(error) || (error as { code?: unknown }).code === '55P03';
}

/**
 * The client closed the connection before its request had all arrived: a cancelled upload, or one
 * the request timeout cut off. Node reports it as ECONNRESET "aborted", the same code as a lost
 * database connection, which is why it is told apart first. A route that turned the cut-off body
 * into its own 4xx (the import's "not valid multipart") is the same event.
 */
function isClientAbort(error: FastifyError, request: FastifyRequest): boolean {
  if (error.code === 'ECONNRESET' && error.message === 'aborted') return true;
  return request.raw.aborted && error.statusCode !== undefined && error.statusCode < 500;
}

/** One place maps every failure to its status and `{detail}`; internals never reach the client. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isClientAbort(error, request)) {
      request.log.info({ reason: error.message }, 'the client closed the connection before its request was complete');
      // Nobody is left to read it; sent so the request ends as a client error, not a server one.
      return reply.status(400).send(problem(errorWords('request.aborted')));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = (error.validation as ValidationIssue[])[0] ?? {};
      const message = issue.params?.issue?.message ?? issue.message ?? 'is invalid';
      return reply.status(422).send(validationProblem(issue, fieldName(issue, error.validationContext), message));
    }
    if (error instanceof AppError) {
      return reply.status(error.statusCode).headers(error.headers).send(problemBody(error));
    }
    if (error instanceof DatabaseBusyError) {
      request.log.warn({ err: error }, 'no database connection was free in time');
      return reply
        .status(503)
        .header('retry-after', '2')
        .send(problem(errorWords('server.busy')));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send(problem(errorWords('server.database_unavailable')));
    }
    if (isContention(error)) {
      request.log.warn({ err: error }, 'transaction kept colliding with another');
      return reply
        .status(503)
        .header('retry-after', '1')
        .send(problem(errorWords('server.contention')));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send(problem(clientErrorWords(error)));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(problem(errorWords('server.internal')));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(problem(routeNotFound(request.method, request.url)));
  });
}

/** An unknown path: the method and the path (without its query) are the params. */
export function routeNotFound(method: string, url: string): ErrorWords {
  return errorWords('route.not_found', { method, path: url.split('?')[0] ?? url });
}

/** Fastify's own 4xx (bad JSON, wrong content type, body too large) in words a person can act on. */
function clientErrorWords(error: FastifyError): ErrorWords {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errorWords('request.invalid_json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errorWords('request.too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errorWords('request.unsupported_media_type');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errorWords('request.content_length_mismatch');
    default:
      // Fastify's other one-line messages are passed on as they are; no code can name them all.
      return error.message && !/[\n{}]/.test(error.message)
        ? errorWords('request.rejected', { message: error.message })
        : errorWords('request.invalid');
  }
}

const CONNECTION_ERRORS_ANSWERED: Record<string, [number, ErrorWords]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, errorWords('request.timeout')],
  HPE_HEADER_OVERFLOW: [431, errorWords('request.headers_too_large')],
};

/**
 * Node's errors before a request reaches Fastify (the `clientErrorHandler` option): a request or its
 * headers past their time limit, headers too large, bytes that are not HTTP. Answered `{detail}` like
 * every other error, then the connection is closed. Nothing is written into an answer still being
 * sent, which would corrupt it.
 */
export function answerClientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, words] = CONNECTION_ERRORS_ANSWERED[error.code ?? ''] ?? [400, errorWords('request.not_http')];
  const log = { code: error.code, remoteAddress: socket.remoteAddress };
  if (status === 408) this.log.info(log, 'request timed out: the client was too slow to send it');
  else this.log.debug(log, 'malformed request refused');
  const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !answering?.headersSent) {
    const body = JSON.stringify(problem(words));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
