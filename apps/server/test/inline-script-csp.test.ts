import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../src/lib/inline-scripts';
import { type TestClient, testClient } from './helpers/client';

/**
 * The pages' guard for their first scripts (ADR 030) is an inline script: the Content-Security-Policy
 * allows it, and only it, by its SHA-256 hash, read from the built pages; never 'unsafe-inline'.
 */

// Written as the build writes them: the guard first, then the module script the build adds.
const CONSOLE_GUARD = "(function () { window.guarded = 'console'; })();";
const PARENT_GUARD = '(function (config) {\nwindow.guarded = config.key;\n})({"key":"parent – अभिभावक"});';

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(Buffer.from(text, 'utf8')).digest('base64')}'`;
}

function scriptSrc(response: LightMyRequestResponse): string[] {
  const policy = String(response.headers['content-security-policy'] ?? '');
  const directive = policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === 'script-src');
  return directive?.slice(1) ?? [];
}

let api: TestClient;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'tuitiondesk-guard-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, 'parent'));
  writeFileSync(
    path.join(dist, 'index.html'),
    `<!doctype html><html><head><script>${CONSOLE_GUARD}</script>\n` +
      '<script type="module" crossorigin src="/assets/console-abc.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(
    path.join(dist, 'parent', 'index.html'),
    `<!doctype html><html><head><SCRIPT>${PARENT_GUARD}</SCRIPT >\n` +
      '<script type="module" src="/assets/parent-abc.js"> </script></head><body></body></html>',
  );
  api = await testClient({ config: { webDistDir: dist } });
});
afterAll(async () => {
  await api?.close();
  if (dist) rmSync(dist, { recursive: true, force: true });
});

describe("the pages' inline guard and the Content-Security-Policy", () => {
  it.each(['/', '/login', '/parent/', '/api/v1/health'])(
    "%s: script-src is 'self' and the hash of each page's guard, nothing more",
    async (url) => {
      const response = await api.anonymous().get(url);
      expect(response.statusCode).toBe(200);
      expect(scriptSrc(response)).toEqual(["'self'", sha256(CONSOLE_GUARD), sha256(PARENT_GUARD)]);
    },
  );

  it("hashes the text of inline scripts only, as browsers do (the CSP specification's example)", () => {
    expect(inlineScriptHashes("<script>alert('Hello, world.');</script>")).toEqual([
      "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='",
    ]);
    expect(
      inlineScriptHashes('<script src="/a.js"></script><script type="module" src="/b.js">\n</script><script></script>'),
    ).toEqual([]);
    expect(inlineScriptHashes('<script>a()</script><p>x</p><script type="text/javascript">b()</script>')).toEqual([
      sha256('a()'),
      sha256('b()'),
    ]);
  });
});
