import type { LightMyRequestResponse } from 'fastify';
import { auth } from '../test-app';
import { multipartBody, workbook } from '../workbooks';
import type { Case } from './cases';
import type { Operation } from './openapi';
import { resolve } from './refs';
import type { FuzzWorld, Who } from './world';

/** An answer slower than this is a failure of its own (a hung request would stall every later one). */
const REQUEST_TIMEOUT_MS = 15_000;
/** Fastify's default maxParamLength: a longer path segment matches no route (414 before any auth). */
export const MAX_PARAM_LENGTH = 100;

/** What went out, as a failure report shows it. */
export interface Sent {
  who: Who;
  method: string;
  url: string;
  contentType: string | undefined;
  body: string;
  /** The JSON or form body as sent, refs resolved. */
  resolvedBody: unknown;
  longPathValue: boolean;
}

function encodePathValue(value: unknown): string {
  return encodeURIComponent(String(value)).replace(/\./g, '%2E');
}

export async function send(
  world: FuzzWorld,
  operation: Operation,
  c: Case,
  who: Who,
): Promise<{ sent: Sent; response: LightMyRequestResponse }> {
  let url = operation.path;
  let longPathValue = false;
  for (const [name, raw] of Object.entries(c.path)) {
    const value = String(await resolve(world, raw, who));
    // The router measures the decoded value.
    if (value.length > MAX_PARAM_LENGTH) longPathValue = true;
    const encoded = encodePathValue(value);
    url = url.replace(`{${name}}`, encoded);
  }
  const queryParts: string[] = [];
  for (const [key, raw] of c.query) {
    const value = await resolve(world, raw, who);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    queryParts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text ?? '')}`);
  }
  if (queryParts.length > 0) url += `?${queryParts.join('&')}`;

  const token = world.tokenOf(who);
  const headers: Record<string, string> = token ? auth(token) : {};

  let payload: string | Buffer | undefined;
  let resolvedBody: unknown;
  const body = c.body;
  if (body.kind === 'json') {
    resolvedBody = await resolve(world, body.value, who);
    payload = JSON.stringify(resolvedBody) ?? 'null';
    headers['content-type'] = 'application/json';
  } else if (body.kind === 'form') {
    const value = await resolve(world, body.value, who);
    resolvedBody = value;
    const form = new URLSearchParams();
    if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value))
        form.append(key, typeof item === 'string' ? item : JSON.stringify(item));
    }
    payload = form.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (body.kind === 'raw') {
    payload = body.payload;
    if (body.contentType !== undefined) headers['content-type'] = body.contentType;
  } else if (body.kind === 'multipart') {
    const content = Array.isArray(body.bytes) ? workbook(body.bytes) : Buffer.from(body.bytes);
    const multipart = multipartBody([{ field: body.field, filename: body.filename, content }]);
    payload = multipart.payload;
    Object.assign(headers, multipart.headers);
  }

  let timer: NodeJS.Timeout | undefined;
  const response = await Promise.race([
    world.t.app.inject({
      method: operation.method as 'GET',
      url,
      headers,
      payload,
      remoteAddress: `198.51.100.${10 + c.ip}`,
    }),
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(`${operation.method} ${url.slice(0, 200)} as ${who}: no answer within ${REQUEST_TIMEOUT_MS} ms`),
          ),
        REQUEST_TIMEOUT_MS,
      );
    }),
  ]).finally(() => clearTimeout(timer));
  const shown = payload === undefined ? '' : Buffer.isBuffer(payload) ? `<${payload.length} bytes>` : payload;
  return {
    sent: {
      who,
      method: operation.method,
      url: url.length > 300 ? `${url.slice(0, 300)}…(${url.length} chars)` : url,
      contentType: headers['content-type'],
      body: shown.length > 600 ? `${shown.slice(0, 600)}…(${shown.length} chars)` : shown,
      resolvedBody,
      longPathValue,
    },
    response,
  };
}
