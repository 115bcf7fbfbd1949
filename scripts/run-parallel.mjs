// @ts-check
// Runs shell commands a few at a time (two by default, the CI machine's cores), in the order given
// (give the longest first), and fails if any failed, after all have run:
//   node scripts/run-parallel.mjs [--jobs N] [--prefix] 'command' 'command' … [--then 'command' …]
// `--then` starts a group that waits for every command before it to end.
// Each command's output is printed whole when it ends, with its time; with --prefix, line by line as it
// comes instead, each line after its command's label: a command may start with one, `[label] command`
// (else its number is its label). npm run typecheck runs its tsc's this way (tsc uses one core), and
// npm test its three test runs: the browser tests first with the machine to themselves (they wait on
// clocks: a page's 15 s, a test's 60 s), then the unit and API suite beside the PostgreSQL run, which
// only take longer on a busy machine (ADR 039, ADR 064).
// At the end it says again, in a few lines, which tests failed and which passed only when tried again:
// CI keeps only the tail of what a run printed, and a failure's lines are long scrolled past by then.
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';

const args = process.argv.slice(2);
let jobs = Number(process.env.CI_JOBS) || 2;
let prefix = false;
for (;;) {
  if (args[0] === '--jobs') {
    jobs = Number(args[1]);
    args.splice(0, 2);
  } else if (args[0] === '--prefix') {
    prefix = true;
    args.shift();
  } else break;
}
if (!Number.isInteger(jobs) || jobs < 1 || args.filter((argument) => argument !== '--then').length === 0) {
  process.stderr.write("usage: node scripts/run-parallel.mjs [--jobs N] [--prefix] 'command' … [--then 'command' …]\n");
  process.exit(2);
}

/**
 * A command's label (`[label] command`, else its number) and the command itself.
 * @param {string} argument
 * @param {number} index
 */
function parse(argument, index) {
  const labelled = /^\[([^\]]+)\]\s+(.*)$/s.exec(argument);
  return labelled
    ? { label: labelled[1] ?? '', command: labelled[2] ?? '' }
    : { label: String(index + 1), command: argument };
}

/**
 * Writes `chunk` line by line after `[label] `, keeping a line cut between chunks until it ends.
 * @param {string} label
 */
function lineWriter(label) {
  let partial = '';
  return {
    /** @param {Buffer} chunk */
    write(chunk) {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) process.stdout.write(`[${label}] ${line}\n`);
    },
    end() {
      if (partial) process.stdout.write(`[${label}] ${partial}\n`);
      partial = '';
    },
  };
}

/** A failed test (vitest's ×), a failed file (FAIL), a test passed only when tried again, or an error's first line. */
const TELLING = /^\s*(×|FAIL\s)|\(retry x\d+\)|^(\w*Error|AssertionError)\b/;
const TELLING_MAX = 40;

/**
 * Keeps the lines of a command's output that say what failed (at most TELLING_MAX, each at most 200
 * characters), to be said again at the end.
 * @param {string[]} kept
 */
function tellingLines(kept) {
  let partial = '';
  /** @param {string} line */
  const keep = (line) => {
    const plain = stripVTControlCharacters(line).trimEnd();
    if (kept.length < TELLING_MAX && TELLING.test(plain)) kept.push(plain.slice(0, 200));
  };
  return {
    /** @param {Buffer} chunk */
    write(chunk) {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) keep(line);
    },
    end() {
      keep(partial);
      partial = '';
    },
  };
}

/** @type {{ label: string, lines: string[] }[]} */
const told = [];

/**
 * Runs one command through the shell and answers its exit status.
 * @param {{ label: string, command: string }} job
 * @returns {Promise<number>}
 */
function run({ label, command }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */
    const output = [];
    const lines = lineWriter(label);
    /** @type {string[]} */
    const kept = [];
    const telling = tellingLines(kept);
    /** @param {Buffer} chunk */
    const take = (chunk) => {
      telling.write(chunk);
      if (prefix) lines.write(chunk);
      else output.push(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      lines.end();
      telling.end();
      if (kept.length > 0) told.push({ label, lines: kept });
      process.stdout.write(`${status === 0 ? '✓' : '✗'} ${prefix ? `[${label}] ` : ''}${command} (${seconds} s)\n`);
      if (output.length > 0) process.stdout.write(Buffer.concat(output));
      resolve(status);
    });
  });
}

const began = Date.now();
// `--then` ends a group: the next group starts once every command of this one has ended (a failure
// included: every group runs, so the end says all that failed).
/** @type {{ label: string, command: string }[][]} */
const groups = [[]];
for (const argument of args) {
  if (argument === '--then') groups.push([]);
  else groups.at(-1)?.push(parse(argument, groups.flat().length));
}
const commands = groups.flat().length;
/** @type {string[]} */
const failed = [];
for (const queue of groups.filter((group) => group.length > 0)) {
  const lane = async () => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
      if ((await run(job)) !== 0) failed.push(job.command);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, lane));
}
process.stdout.write(`${commands} commands, ${jobs} at a time: all in ${((Date.now() - began) / 1000).toFixed(1)} s\n`);
for (const { label, lines } of told) {
  process.stdout.write(`── what [${label}] said failed, or passed only when tried again:\n`);
  for (const line of lines) process.stdout.write(`   ${line}\n`);
}
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
