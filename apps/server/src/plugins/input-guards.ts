import { errorWords } from '@tuitiondesk/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../lib/errors';
import { problemBody } from './errors';

/**
 * Fastify's router refuses some addresses before any route, hook or error handler runs: a malformed
 * %-escape (400) and a path segment longer than maxParamLength (414). By default it writes its own
 * `{error, code, message}` body with none of our headers; this answers `{detail}` like every other
 * error (contract), with the API's no-store. Helmet's hooks do not run here either, so the headers
 * that matter for a JSON error are set by hand (the CSP stricter than the pages': nothing to load).
 * Passed as the `frameworkErrors` option.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  reply
    .status(tooLong ? 414 : 400)
    .headers({
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
    })
    .send(problemBody(errorWords(tooLong ? 'request.address_too_long' : 'request.malformed_escape')));
}

/**
 * PostgreSQL text cannot hold the NUL character: a value carrying one fails in the database with an
 * encoding error (a 500). Refused here, once for every call, before validation: 422 naming the field.
 */
export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    for (const [context, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const field = fieldWithNul(value);
      if (field !== undefined) {
        throw new ValidationError(field === '' ? context : field, 'validation.nul_character');
      }
    }
  });
}

/**
 * The name of a field (`records[0].remarks`) whose key or text holds U+0000, '' for the value itself,
 * undefined when there is none. Iterative: a body may nest thousands of levels deep.
 */
function fieldWithNul(root: unknown): string | undefined {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [value, name] = stack.pop() as [unknown, string];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return name;
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) stack.push([value[i], `${name}[${i}]`]);
    } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
      for (const [key, item] of Object.entries(value)) {
        const path = name === '' ? key : `${name}.${key}`;
        if (key.includes('\u0000')) return name;
        stack.push([item, path]);
      }
    }
  }
  return undefined;
}
