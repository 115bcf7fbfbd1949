// @ts-check
// Whether the builds are there and newer than what they are built from, and building those that are
// not. Plain JavaScript, typed by its comments: `npm start` runs it with node alone, before anything
// is compiled.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What every build is made from besides its own sources: the contract package and the installed packages. */
const SHARED_SOURCES = ['packages/contract/src', 'packages/contract/package.json', 'package.json', 'package-lock.json'];

/**
 * @typedef {'web' | 'server'} BuildName
 * @typedef {{ workspace: string, output: string, sources: string[] }} Build
 * @typedef {{ build: BuildName, reason: string }} Stale
 */

/**
 * Each build: its workspace, the file it writes last (its time is the build's), and the files and
 * folders it is built from, relative to the repository.
 * @type {Record<BuildName, Build>}
 */
export const BUILDS = {
  web: {
    workspace: '@tuitiondesk/web',
    output: 'apps/web/dist/index.html',
    sources: [
      'apps/web/src',
      'apps/web/parent',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      ...SHARED_SOURCES,
    ],
  },
  server: {
    workspace: '@tuitiondesk/server',
    output: 'apps/server/dist/server.js',
    sources: [
      'apps/server/src',
      'apps/server/migrations',
      'apps/server/build.ts',
      'apps/server/package.json',
      ...SHARED_SOURCES,
    ],
  },
};

/** Tests are not part of any build. */
const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;

/**
 * The most recently changed file or folder under `file` (a folder's own time changes when a file in it
 * is added, removed or renamed), or undefined when there is nothing there.
 * @param {string} file
 * @returns {{ file: string, mtimeMs: number } | undefined}
 */
export function newestChange(file) {
  let stats;
  try {
    stats = statSync(file);
  } catch {
    return undefined;
  }
  /** @type {{ file: string, mtimeMs: number }} */
  let newest = { file, mtimeMs: stats.mtimeMs };
  if (!stats.isDirectory()) return newest;
  for (const entry of readdirSync(file)) {
    if (entry === 'node_modules' || TEST_FILE.test(entry)) continue;
    const inner = newestChange(path.join(file, entry));
    if (inner && inner.mtimeMs > newest.mtimeMs) newest = inner;
  }
  return newest;
}

/**
 * The builds among `names` that are missing or older than one of their sources, each with the reason.
 * @param {string} root the repository
 * @param {BuildName[]} names
 * @returns {Stale[]}
 */
export function staleBuilds(root, names) {
  /** @type {Stale[]} */
  const stale = [];
  for (const name of names) {
    const { output, sources } = BUILDS[name];
    const built = newestChange(path.join(root, output));
    if (!built) {
      stale.push({ build: name, reason: `${output} is missing` });
      continue;
    }
    for (const source of sources) {
      const changed = newestChange(path.join(root, source));
      if (changed && changed.mtimeMs > built.mtimeMs) {
        stale.push({ build: name, reason: `${path.relative(root, changed.file)} changed after ${output}` });
        break;
      }
    }
  }
  return stale;
}

/**
 * Builds those of `names` that are stale (in production mode, whatever NODE_ENV says: a test runner's
 * NODE_ENV=test would give React's development build), saying why; throws when a build fails.
 * @param {string} root
 * @param {BuildName[]} names
 * @returns {Stale[]} what was built
 */
export function buildStale(root, names) {
  const stale = staleBuilds(root, names);
  for (const { build, reason } of stale) {
    process.stderr.write(`Building ${build} (${reason})\n`);
    const result = spawnSync('npm', ['run', 'build', '--silent', '-w', BUILDS[build].workspace], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (result.status !== 0) throw new Error(`building ${build} failed (npm run build -w ${BUILDS[build].workspace})`);
  }
  return stale;
}
