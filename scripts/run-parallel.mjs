// @ts-check
// Runs shell commands a few at a time (two by default, the CI machine's cores), in the order given
// (give the longest first), each one's output printed whole when it ends with its time, and fails if
// any failed, after all have run:
//   node scripts/run-parallel.mjs [--jobs N] 'command' 'command' …
// npm test's type check runs its tsc's this way (tsc uses one core).
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
let jobs = Number(process.env.CI_JOBS) || 2;
if (args[0] === '--jobs') {
  jobs = Number(args[1]);
  args.splice(0, 2);
}
if (!Number.isInteger(jobs) || jobs < 1 || args.length === 0) {
  process.stderr.write("usage: node scripts/run-parallel.mjs [--jobs N] 'command' 'command' …\n");
  process.exit(2);
}

/**
 * Runs one command through the shell, its output collected, and answers its exit status.
 * @param {string} command
 * @returns {Promise<number>}
 */
function run(command) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`${status === 0 ? '✓' : '✗'} ${command} (${seconds} s)\n`);
      if (output.length > 0) process.stdout.write(Buffer.concat(output));
      resolve(status);
    });
  });
}

const began = Date.now();
const queue = [...args];
/** @type {string[]} */
const failed = [];
async function lane() {
  for (let command = queue.shift(); command !== undefined; command = queue.shift()) {
    if ((await run(command)) !== 0) failed.push(command);
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, args.length) }, lane));
process.stdout.write(
  `${args.length} commands, ${jobs} at a time: all in ${((Date.now() - began) / 1000).toFixed(1)} s\n`,
);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
