import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two cores on the CI machines; each server test file holds its own database.
    maxWorkers: 2,
    projects: ['packages/contract', 'apps/server', 'apps/web'],
  },
});
