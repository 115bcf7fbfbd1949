import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * JSON, CSV and text answers are sent Brotli or gzip compressed when the client accepts it (Brotli
 * first). Quality 4 for Brotli and level 6 for gzip: a 1.2 MB list compresses in a few milliseconds to
 * a tenth of its size, where Brotli's best quality would take a quarter of a second of a core for each
 * answer. The console's own files are compressed once at build (`apps/web/build/precompress.ts`) and
 * sent as they are. Every API call is authorised by a header, never a cookie, so a compressed answer
 * cannot leak a secret to a page that makes the browser send it (BREACH).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
