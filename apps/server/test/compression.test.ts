import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptEncoding } from '../src/plugins/compression';
import { type TestClient, testClient } from './helpers/client';

/**
 * Answers travel compressed when the client accepts it: Brotli first, else gzip, else as they are.
 * What the client gets back, once decoded, is exactly the uncompressed answer. The console's files are
 * sent as compressed at build (the `.br` and `.gz` beside each file), never compressed again.
 */

let api: TestClient;
let dist: string;
const SCRIPT = `console.log(${JSON.stringify('the console '.repeat(200))});`;
const SCRIPT_BR = zlib.brotliCompressSync(SCRIPT);
const SCRIPT_GZ = zlib.gzipSync(SCRIPT);
const PAGE = `<!doctype html><title>TuitionDesk</title><p>${'The console. '.repeat(100)}</p>`;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'tuitiondesk-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), PAGE);
  writeFileSync(path.join(dist, 'index.html.br'), zlib.brotliCompressSync(PAGE));
  mkdirSync(path.join(dist, 'parent'));
  writeFileSync(path.join(dist, 'parent', 'index.html'), PAGE);
  writeFileSync(path.join(dist, 'parent', 'sw.js'), SCRIPT);
  writeFileSync(path.join(dist, 'parent', 'sw.js.br'), SCRIPT_BR);
  writeFileSync(path.join(dist, 'parent', 'sw.js.gz'), SCRIPT_GZ);
  writeFileSync(path.join(dist, 'assets', 'app-1a2b.js'), SCRIPT);
  writeFileSync(path.join(dist, 'assets', 'app-1a2b.js.br'), SCRIPT_BR);
  writeFileSync(path.join(dist, 'assets', 'app-1a2b.js.gz'), SCRIPT_GZ);
  api = await testClient({ config: { webDistDir: dist } });
  // A class of 300: its list is far over the 1 KB below which nothing is compressed.
  await api.db.query(
    `INSERT INTO students (full_name, class_name, parent_name, parent_phone)
     SELECT 'Compressed Student ' || n, '7', 'Parent ' || n, '+9198' || lpad(n::text, 8, '0')
       FROM generate_series(1, 300) AS n`,
  );
});
afterAll(async () => {
  await api?.close();
  if (dist) rmSync(dist, { recursive: true, force: true });
});

const decode: Record<string, (bytes: Buffer) => Buffer> = {
  br: (bytes) => zlib.brotliDecompressSync(bytes),
  gzip: (bytes) => zlib.gunzipSync(bytes),
};
const decoded = (response: LightMyRequestResponse) => {
  const encoding = response.headers['content-encoding'] as string | undefined;
  return encoding ? (decode[encoding] as (bytes: Buffer) => Buffer)(response.rawPayload) : response.rawPayload;
};

describe('API answers', () => {
  it('are Brotli compressed when accepted (first choice), gzip otherwise, and decode to the same JSON', async () => {
    const plain = await api.as('admin').get('/api/v1/students/', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const list = plain.json() as unknown[];
    expect(list.length).toBe(300);

    const br = await api.as('admin').get('/api/v1/students/', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(decoded(br).toString('utf8')).toBe(plain.body);
    // A list of names compresses to well under a fifth.
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);

    const gzip = await api.as('admin').get('/api/v1/students/', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip).toString('utf8')).toBe(plain.body);
  });

  it('are sent as they are when the client accepts no encoding we have, or for small answers', async () => {
    const none = await api.as('admin').get('/api/v1/students/', { headers: { 'accept-encoding': 'zstd' } });
    expect(none.statusCode).toBe(200);
    expect(none.headers['content-encoding']).toBeUndefined();
    expect((none.json() as unknown[]).length).toBe(300);

    const small = await api.as('admin').get('/api/v1/students/classes', { headers: { 'accept-encoding': 'br' } });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('read again unchanged, decode to the same list; after a write, to the new one; q=0 refuses an encoding', async () => {
    const read = (encoding: string) =>
      api.as('admin').get('/api/v1/students/', { headers: { 'accept-encoding': encoding } });
    const first = await read('br');
    const again = await read('br');
    expect(again.headers['content-encoding']).toBe('br');
    expect(decoded(again).toString('utf8')).toBe(decoded(first).toString('utf8'));
    await api.student({ full_name: 'Written After The Read', class_name: '7' });
    const after = await read('br');
    const names = (JSON.parse(decoded(after).toString('utf8')) as { full_name: string }[]).map((s) => s.full_name);
    expect(names).toContain('Written After The Read');
    expect(after.headers.etag).not.toBe(first.headers.etag);

    const notBrotli = await read('br;q=0, gzip');
    expect(notBrotli.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(notBrotli).toString('utf8'))).toHaveLength(301);
    const plain = await read('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toHaveLength(301);
  });

  it('are kept in the encoding the client names, with q=0 as a refusal', () => {
    expect(keptEncoding('gzip, deflate, br')).toBe('br');
    expect(keptEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(keptEncoding('BR ; q=1.0')).toBe('br');
    expect(keptEncoding('gzip;q=0.000, br;q=0')).toBeUndefined();
    expect(keptEncoding('*')).toBeUndefined();
    expect(keptEncoding('identity')).toBeUndefined();
    expect(keptEncoding(undefined)).toBeUndefined();
  });

  it('compress errors too, and keep their JSON body', async () => {
    const response = await api.as('admin').get('/api/v1/students/999999', { headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(404);
    // Small: sent as it is, still readable.
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toHaveProperty('detail');
  });
});

describe("the console's files", () => {
  it('are sent as compressed at build: the .br to a browser that accepts it, the .gz to one that takes gzip', async () => {
    const br = await api.anonymous().get('/assets/app-1a2b.js', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.equals(SCRIPT_BR)).toBe(true);
    expect(br.headers['content-type']).toMatch(/javascript/);

    const gzip = await api.anonymous().get('/assets/app-1a2b.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.rawPayload.equals(SCRIPT_GZ)).toBe(true);

    const plain = await api.anonymous().get('/assets/app-1a2b.js', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it("keep pages and the parent app's service worker checked on every load when sent compressed", async () => {
    for (const url of ['/', '/students', '/parent/sw.js']) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const response = await api.anonymous().get(url, { headers: { 'accept-encoding': encoding } });
        expect(response.statusCode, `${url} ${encoding}`).toBe(200);
        expect(response.headers['cache-control'], `${url} ${encoding}`).toBe('no-cache');
      }
    }
    const page = await api.anonymous().get('/', { headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(zlib.brotliDecompressSync(page.rawPayload).toString('utf8')).toBe(PAGE);
    const worker = await api.anonymous().get('/parent/sw.js', { headers: { 'accept-encoding': 'br' } });
    expect(worker.headers['content-type']).toMatch(/javascript/);
    // The hashed files keep their hour.
    const asset = await api.anonymous().get('/assets/app-1a2b.js', { headers: { 'accept-encoding': 'br' } });
    expect(asset.headers['cache-control']).toMatch(/max-age=3600/);
  });
});
