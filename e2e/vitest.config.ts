import { defineConfig } from 'vitest/config';
import { slowFirst } from '../scripts/kit/slow-first.mjs';

/** Browser files at once (E2E_WORKERS, 2 by default: the CI machine's cores), each with a server of its own. */
const WORKERS = Number(process.env.E2E_WORKERS) || 2;

/**
 * The slowest files, slowest first: they start first (ADR 039). first-scripts.spec.ts mostly waits
 * on the pages' own 1, 2 and 4 s reloads, so the other worker gets through the rest meanwhile.
 * pseudo-locale.spec.ts is first: it reads every screen and takes what the server holds as data only
 * as far as its reads see it, so it runs on a server no other file has written to yet (a message
 * another file sent shows cut short on Communications, an edited name's old value on Audit).
 */
const SLOWEST = [
  'e2e/pseudo-locale.spec.ts',
  'e2e/first-scripts.spec.ts',
  'e2e/screens.spec.ts',
  'e2e/languages.spec.ts',
  'e2e/pending-and-reach.spec.ts',
  'e2e/operations.spec.ts',
  'e2e/small-things.spec.ts',
  'e2e/phones.spec.ts',
  'e2e/phone-cards.spec.ts',
];

// Browser tests: the built server and console, one server on a fresh embedded database for each worker,
// started by support/global-setup.ts. A worker runs one file at a time on its own server, so a file
// still has a server to itself, as when all ran one after another on one; support/browser.ts's
// baseUrl() is the file's worker's server. start.spec.ts checks `npm start` itself on that built tree.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.spec.ts'],
    globalSetup: ['./support/global-setup.ts'],
    // A failed try says why at once, including a first try that a second one makes good (support/tries.ts).
    setupFiles: ['./support/tries.ts'],
    fileParallelism: WORKERS > 1,
    maxWorkers: WORKERS,
    sequence: { sequencer: slowFirst(SLOWEST) },
    // A test waits up to 3 minutes, a page's step 30 s (support/browser.ts): on a loaded CI machine a
    // flow that takes 40 s on a quiet one took over 120 s, and a 60 s limit failed it (ADR 064).
    testTimeout: 180_000,
    hookTimeout: 240_000,
    // A test that fails is tried once more (E2E_RETRY, 1 by default; 0 to see every first failure): a
    // browser on two shared, loaded cores misses a 15 s wait now and then. One that passes only when
    // tried again is marked "(retry x1)" and npm test names it again at its end (ADR 062).
    retry: Number(process.env.E2E_RETRY ?? 1),
  },
});
