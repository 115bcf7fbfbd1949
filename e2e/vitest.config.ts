import { defineConfig } from 'vitest/config';

// Browser tests: one server (the built server and console, on a fresh embedded database) for the
// whole run, started by support/global-setup.ts; files run one after another because they share it.
// start.spec.ts checks `npm start` itself on that built tree.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.spec.ts'],
    globalSetup: ['./support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
