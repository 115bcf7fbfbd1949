import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Files a reader can hold in mind (issue 27): no source file over 400 lines and no test file over 600,
 * across the whole tree (apps, the contract, scripts, the bench and the browser tests). A file past
 * its limit is split by job, not trimmed of comments. Generated files (`*.gen.*`) are left out.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SOURCE_LIMIT = 400;
const TEST_LIMIT = 600;

const CODE = /\.(?:ts|tsx|mjs|cjs|js|css)$/;
const TEST = /(?:^|\/)(?:test|e2e)\/|\.test\.|\.spec\./;

function trackedCode(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((path) => CODE.test(path) && !path.includes('.gen.'));
}

function lineCount(path: string): number {
  const text = readFileSync(join(ROOT, path), 'utf8');
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

describe('file sizes', () => {
  const files = trackedCode().map((path) => ({ path, lines: lineCount(path), test: TEST.test(path) }));

  it(`no source file is over ${SOURCE_LIMIT} lines`, () => {
    const over = files.filter((file) => !file.test && file.lines > SOURCE_LIMIT);
    expect(over.map((file) => `${file.path}: ${file.lines}`)).toEqual([]);
  });

  it(`no test file is over ${TEST_LIMIT} lines`, () => {
    const over = files.filter((file) => file.test && file.lines > TEST_LIMIT);
    expect(over.map((file) => `${file.path}: ${file.lines}`)).toEqual([]);
  });

  it('reads the tree it judges (a few hundred files of each kind)', () => {
    expect(files.filter((file) => !file.test).length).toBeGreaterThan(300);
    expect(files.filter((file) => file.test).length).toBeGreaterThan(150);
  });
});
