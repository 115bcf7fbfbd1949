import type { FastifyInstance } from 'fastify';
import { type Access, accessOf } from '../roles';

/** The parts of a JSON schema (as the OpenAPI document writes them) that the generators read. */
export interface JsonSchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
}

export interface OpenApiParameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  consumes?: string[];
  description?: string;
}

/** One operation of the document, with who may call it. */
export interface Operation {
  method: string;
  /** The OpenAPI path: `/api/v1/students/{id}`. */
  path: string;
  access: Access;
  spec: OpenApiOperation;
}

/** `{$ref: '#/components/schemas/X'}` → the schema it names; any other schema as it is. */
export type Deref = (schema: JsonSchema) => JsonSchema;

export interface ApiDocument {
  /** The status the document was served with. */
  status: number;
  operations: Operation[];
  deref: Deref;
}

/** The app's own OpenAPI document: every operation in it, each with its access from helpers/roles.ts. */
export async function readApiDocument(app: FastifyInstance): Promise<ApiDocument> {
  const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  const document = response.json() as {
    paths: Record<string, Record<string, OpenApiOperation>>;
    components?: { schemas?: Record<string, JsonSchema> };
  };
  const deref: Deref = (schema) => {
    const name = schema.$ref?.replace('#/components/schemas/', '');
    const target = name === undefined ? undefined : document.components?.schemas?.[name];
    if (name !== undefined && !target) throw new Error(`the OpenAPI document has no schema ${schema.$ref}`);
    return target ? deref(target) : schema;
  };
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, spec]): Operation => {
      const access = accessOf(method, path);
      if (!access) throw new Error(`${method.toUpperCase()} ${path} is not in helpers/roles.ts: say who may call it`);
      return { method: method.toUpperCase(), path, access, spec };
    }),
  );
  return { status: response.statusCode, operations, deref };
}
