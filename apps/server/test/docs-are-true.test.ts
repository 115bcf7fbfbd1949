import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The documents say what the code is: every file they name in backticks exists, every ADR carries a
 * status, and the architecture names every server module and console feature. A move that leaves a
 * document behind fails here, not in a newcomer's afternoon.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const trackedFiles = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter((path) => path !== '');

function documents(): string[] {
  const decisions = readdirSync(join(ROOT, 'docs/decisions'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/decisions/${name}`);
  const top = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...top, ...decisions];
}

/** A backticked token that names a source file: a path with a folder and a file extension. */
const FILE_IN_BACKTICKS = /`([A-Za-z0-9_.@[\]-]+(?:\/[A-Za-z0-9_.@[\]-]+)+\.(?:ts|tsx|mjs|cjs|js|sql|json|css|html))`/g;

/**
 * Names a document gives that are not files of the tree: outside paths, patterns, the build's output
 * (`dist/…`) and files the server writes at run time under a folder named by a setting (`DATA_DIR/…`).
 */
function isOutside(path: string): boolean {
  const first = path.split('/')[0] ?? '';
  return (
    path.startsWith('/') ||
    path.includes('*') ||
    path.includes('<') ||
    ['node_modules', 'dist'].includes(first) ||
    /^[A-Z_]+$/.test(first)
  );
}

/** A named file is found when a tracked path is it, or ends with it (documents name files from their module). */
function exists(path: string): boolean {
  const bare = path.replace(/^\.\//, '');
  return trackedFiles.some((file) => file === bare || file.endsWith(`/${bare}`));
}

function missingFiles(document: string): string[] {
  const text = readFileSync(join(ROOT, document), 'utf8');
  return [...text.matchAll(FILE_IN_BACKTICKS)]
    .map((match) => match[1] ?? '')
    .filter((path) => !isOutside(path) && !exists(path))
    .map((path) => `${document}: ${path}`);
}

function folders(path: string): string[] {
  return readdirSync(join(ROOT, path), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

const STATUS = /^Status: (accepted|superseded by \d{3})\b/m;

describe('the documents are true', () => {
  it('every file a document names exists', () => {
    expect(documents().flatMap(missingFiles)).toEqual([]);
  });

  it('every ADR opens with its status: accepted (amended by N) or superseded by N', () => {
    const withoutStatus = documents()
      .filter((document) => document.startsWith('docs/decisions/'))
      .filter((document) => {
        const head = readFileSync(join(ROOT, document), 'utf8').split('\n').slice(0, 8).join('\n');
        return !STATUS.test(head);
      });
    expect(withoutStatus).toEqual([]);
  });

  it('the architecture names every server module and every console feature', () => {
    const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const unnamed = [
      ...folders('apps/server/src/modules').map((name) => `modules/${name}`),
      ...folders('apps/web/src/features').map((name) => `features/${name}`),
    ].filter((folder) => {
      const name = folder.slice(folder.indexOf('/') + 1);
      return !architecture.includes(`\`${folder}/\``) && !architecture.includes(`\`${name}/\``);
    });
    expect(unnamed).toEqual([]);
  });
});
