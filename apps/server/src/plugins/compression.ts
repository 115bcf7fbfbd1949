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
    threshold: COMPRESSION_THRESHOLD,
    brotliOptions: BROTLI_OPTIONS,
    zlibOptions: GZIP_OPTIONS,
  });
}

/** Answers smaller than this are sent as they are. */
export const COMPRESSION_THRESHOLD = 1024;
// A 1 MB window (4 MB by default): the 1.9 MB student list comes out the same size (38.8 KB; a
// 256 KB window made it 48 KB), and each Brotli stream holds a few MB less (32 at once: 96 MB of
// encoders against 298 MB).
const BROTLI_OPTIONS = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 20 },
};
const GZIP_OPTIONS = { level: 6 };

/**
 * The encoding to send a kept answer in, from the client's Accept-Encoding: Brotli when it names it
 * (with no q=0), else gzip likewise; undefined leaves the choice to the plugin (`*`, identity, odd
 * forms), which is always correct, only not kept.
 */
export function keptEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  const named = new Set<string>();
  for (const entry of acceptEncoding.split(',')) {
    const [token = '', ...params] = entry.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
    if (!refused) named.add(token.trim());
  }
  if (named.has('br')) return 'br';
  if (named.has('gzip')) return 'gzip';
  return undefined;
}

/** `text` compressed as the plugin would (same quality), for keeping. */
export function compressText(text: string, encoding: 'br' | 'gzip'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (encoding === 'br') zlib.brotliCompress(text, BROTLI_OPTIONS, done);
    else zlib.gzip(text, GZIP_OPTIONS, done);
  });
}
