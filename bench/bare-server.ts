// The limit: a bare Fastify server, no database, no auth, answering each benchmarked call with the
// very bytes the real server answered (same size, same content type), compressed the same way.
// Started by bench/api.ts.
//   npx tsx bench/bare-server.ts <payloads.json> <port>
import { readFileSync } from 'node:fs';
import Fastify, { type HTTPMethods } from 'fastify';
import { registerCompression } from '../apps/server/src/plugins/compression';

export interface Payload {
  method: HTTPMethods;
  contentType: string;
  body: string;
}

const [file, port] = process.argv.slice(2);
if (!file || !port) throw new Error('usage: npx tsx bench/bare-server.ts <payloads.json> <port>');
const payloads = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Payload>;
const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) =>
  done(null, body),
);
await registerCompression(app);
for (const [name, payload] of Object.entries(payloads)) {
  const body = Buffer.from(payload.body, 'utf8');
  app.route({
    method: payload.method,
    url: `/bare/${name}`,
    handler: async (_request, reply) => reply.type(payload.contentType).send(body),
  });
}
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
