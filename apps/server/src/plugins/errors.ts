import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isTransactionConflict } from '../db/database';
import { AppError, DATABASE_UNAVAILABLE } from '../lib/errors';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
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
      return reply.status(400).send({ detail: 'The request ended before all of it arrived; send it again' });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = (error.validation as ValidationIssue[])[0] ?? {};
      const message = issue.params?.issue?.message ?? issue.message ?? 'is invalid';
      return reply.status(422).send({ detail: `${fieldName(issue, error.validationContext)}: ${message}` });
    }
    if (error instanceof AppError) {
      return reply.status(error.statusCode).headers(error.headers).send({ detail: error.message });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send({ detail: DATABASE_UNAVAILABLE });
    }
    if (isContention(error)) {
      request.log.warn({ err: error }, 'transaction kept colliding with another');
      return reply
        .status(503)
        .header('retry-after', '1')
        .send({ detail: 'Someone else was saving the same records at the same moment. Please try again.' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ detail: clientErrorDetail(error) });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal server error' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ detail: `No such endpoint: ${request.method} ${request.url.split('?')[0]}` });
  });
}

/** Fastify's own 4xx (bad JSON, wrong content type, body too large) in words a person can act on. */
function clientErrorDetail(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'body: is not valid JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `Unsupported content type; send ${'application/json'}`;
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The Content-Length header does not match the body';
    default:
      return error.message && !/[\n{]/.test(error.message) ? error.message : 'The request is invalid';
  }
}

const CONNECTION_ERRORS_ANSWERED: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'The request took too long to arrive and was cut off; send it again, on a faster connection if it is large',
  ],
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large'],
};

/**
 * Node's errors before a request reaches Fastify (the `clientErrorHandler` option): a request or its
 * headers past their time limit, headers too large, bytes that are not HTTP. Answered `{detail}` like
 * every other error, then the connection is closed. Nothing is written into an answer still being
 * sent, which would corrupt it.
 */
export function answerClientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] = CONNECTION_ERRORS_ANSWERED[error.code ?? ''] ?? [400, 'The request is not valid HTTP'];
  const log = { code: error.code, remoteAddress: socket.remoteAddress };
  if (status === 408) this.log.info(log, 'request timed out: the client was too slow to send it');
  else this.log.debug(log, 'malformed request refused');
  const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !answering?.headersSent) {
    const body = JSON.stringify({ detail });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
