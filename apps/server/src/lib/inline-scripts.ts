import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The pages the server sends from the built web app: the console's and the parent app's. */
export const WEB_PAGES = ['index.html', path.join('parent', 'index.html')];

/** A script element with its text inside: `<script …>text</script>` (one with a src has no text to run). */
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/**
 * The Content-Security-Policy sources (`'sha256-…'`) that allow exactly the inline scripts of the
 * given HTML: the pages' guard for their first scripts (ADR 030), and nothing else. Read from the
 * built pages, so the policy names the very bytes the browser is sent; never 'unsafe-inline'.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes = '', text = ''] of html.matchAll(SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes) || text.trim() === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/** The hashes of every inline script of the built pages under `distDir` (none when there is no build). */
export function webPageScriptHashes(distDir: string): string[] {
  const hashes = new Set<string>();
  for (const page of WEB_PAGES) {
    const file = path.join(distDir, page);
    if (!existsSync(file)) continue;
    for (const hash of inlineScriptHashes(readFileSync(file, 'utf8'))) hashes.add(hash);
  }
  return [...hashes];
}
