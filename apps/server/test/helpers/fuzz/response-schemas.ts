import { isDeepStrictEqual } from 'node:util';
import { API_BASE_PATH } from '@tuitiondesk/contract';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { API_ROUTES } from '../../../src/app';
import type { AppContext } from '../../../src/context';

/** Each route's declared responses (status → zod schema), by `METHOD /openapi/{path}`. */
export type ResponseSchemas = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

/**
 * The zod response schemas the routes declare, read by registering the app's routes on an instance of
 * their own and listening to each route as it is added. The running app's instance keeps its routes'
 * options to itself.
 */
export async function routeResponseSchemas(ctx: AppContext): Promise<ResponseSchemas> {
  const capture = Fastify().withTypeProvider<ZodTypeProvider>();
  capture.setValidatorCompiler(validatorCompiler);
  capture.setSerializerCompiler(serializerCompiler);
  const schemas = new Map<string, Record<string, unknown>>();
  capture.addHook('onRoute', (route) => {
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    const response = (route.schema?.response ?? {}) as Record<string, unknown>;
    for (const method of [route.method].flat()) schemas.set(`${method} ${path}`, response);
  });
  await capture.register(
    async (scope) => {
      for (const registerRoutes of API_ROUTES) registerRoutes(scope.withTypeProvider<ZodTypeProvider>(), ctx);
    },
    { prefix: API_BASE_PATH },
  );
  await capture.ready();
  await capture.close();
  return schemas;
}

function isZodSchema(value: unknown): value is ZodType {
  return typeof (value as ZodType | undefined)?.safeParse === 'function';
}

/** Where `sent` and what the schema makes of it part: a field the schema does not declare, one it adds, a changed value. */
function differences(sent: unknown, parsed: unknown, at: string, found: string[]): void {
  if (found.length >= 5 || isDeepStrictEqual(sent, parsed)) return;
  const isObject = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  if (Array.isArray(sent) && Array.isArray(parsed) && sent.length === parsed.length) {
    for (const [i, item] of sent.entries()) differences(item, parsed[i], `${at}[${i}]`, found);
  } else if (isObject(sent) && isObject(parsed)) {
    for (const key of Object.keys(sent)) {
      if (!(key in parsed)) found.push(`${at}.${key} is not in the schema`);
      else differences(sent[key], parsed[key], `${at}.${key}`, found);
    }
    for (const key of Object.keys(parsed)) if (!(key in sent)) found.push(`${at}.${key} is missing`);
  } else found.push(`${at}: ${JSON.stringify(sent)} parses as ${JSON.stringify(parsed)}`);
}

/**
 * What is wrong with a 2xx answer's body against the response schema its route declares for that
 * status, or undefined. A JSON body must parse with the schema and come out unchanged: a field the
 * schema does not declare would be a field Fastify's serialisation drops, so a body sent as text the
 * database built, which skips that serialisation, must not carry one either. Bodies of other types
 * (a spreadsheet) are not JSON and are only required to have a declared schema.
 */
export function responseSchemaProblem(
  schemas: ResponseSchemas,
  method: string,
  path: string,
  response: Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body'>,
): string | undefined {
  const status = response.statusCode;
  if (status < 200 || status >= 300) return undefined;
  const declared = schemas.get(`${method} ${path}`);
  if (!declared) return `answered ${status}, but no route ${method} ${path} was found among the declared schemas`;
  const schema = declared[status] ?? declared[`${Math.floor(status / 100)}xx`] ?? declared.default;
  if (!isZodSchema(schema)) return `answered ${status}, for which the route declares no response schema`;
  if (!String(response.headers['content-type']).startsWith('application/json')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return `answered ${status} with a body that is not JSON, though its content type says so`;
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(the body)'}: ${issue.message}`);
    return `a ${status} body that does not parse with its response schema: ${issues.join('; ')}`;
  }
  const found: string[] = [];
  differences(body, parsed.data, 'body', found);
  if (found.length > 0) return `a ${status} body that its response schema changes: ${found.join('; ')}`;
  return undefined;
}
