import type { FastifyReply } from 'fastify';

/**
 * A JSON text the database built (`Queryable.queryJson`), sent as it is: Fastify sends a string with a
 * JSON content type without serialising it again, so a list of thousands of rows is never parsed into
 * objects and back. The SQL behind it selects exactly the fields of the route's response schema.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** `value` as JSON with one more field whose value is already JSON text, added last. */
export function jsonWithField(value: Record<string, unknown>, field: string, json: string): string {
  const head = JSON.stringify(value);
  const separator = head === '{}' ? '' : ',';
  return `${head.slice(0, -1)}${separator}${JSON.stringify(field)}:${json}}`;
}
