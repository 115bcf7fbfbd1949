// @ts-check
// Runs one of the server's programs from its build with plain node (no TypeScript loader), building
// first only what is missing or older than its sources, so a fresh clone's `npm ci && npm start` works:
//   node scripts/launch.mjs server|backup|restore|seed-demo|rotate-signing-key|reset-password [arguments…]
// The server needs the console's build as well; the other programs only the server's. The program runs
// in apps/server (where ./data and ./backups are relative to), with this process's arguments,
// environment and terminal; signals sent here reach it, and its exit status is this one's.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildStale } from './build-freshness.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER_DIR = path.join(ROOT, 'apps/server');

/** @type {Record<string, import('./build-freshness.mjs').BuildName[]>} */
const PROGRAMS = {
  server: ['web', 'server'],
  backup: ['server'],
  restore: ['server'],
  'seed-demo': ['server'],
  'rotate-signing-key': ['server'],
  'reset-password': ['server'],
};

const [program = '', ...args] = process.argv.slice(2);
const needs = PROGRAMS[program];
if (!needs) {
  process.stderr.write(`usage: node scripts/launch.mjs ${Object.keys(PROGRAMS).join('|')} [arguments…]\n`);
  process.exit(2);
}
try {
  buildStale(ROOT, needs);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

const child = spawn(process.execPath, ['--enable-source-maps', path.join('dist', `${program}.js`), ...args], {
  cwd: SERVER_DIR,
  stdio: 'inherit',
});
/** @type {NodeJS.Signals[]} */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of FORWARDED) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal) {
    // Ended by a signal: end the same way, so whoever started this sees it.
    for (const forwarded of FORWARDED) process.removeAllListeners(forwarded);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
