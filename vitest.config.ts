import { defineConfig } from 'vitest/config';
import { slowFirst } from './scripts/kit/slow-first.mjs';

/**
 * The slowest files of a run on the embedded database, slowest first (`npx tsx scripts/ci-timings.ts`
 * on a run's JSON report lists them): they start first, so the run does not end on one of them
 * (ADR 039). A file missing here runs all the same, in vitest's order after these.
 */
const SLOWEST = [
  'apps/server/test/faults.test.ts',
  'apps/server/test/backup-process.test.ts',
  'apps/server/test/fuzz-openapi.test.ts',
  'apps/server/test/backup.test.ts',
  'apps/server/test/server-keys.test.ts',
  'apps/server/test/server-process.test.ts',
  'apps/web/src/features/teachers/teachers-page.test.tsx',
  'apps/server/test/sign-in-throttle.test.ts',
  'apps/server/test/backup-secrets.test.ts',
  'apps/server/test/seed-demo.test.ts',
  'apps/server/test/fees-property.test.ts',
  'apps/web/src/components/entity-list/entity-list.test.tsx',
  'apps/web/src/features/students/students-page.test.tsx',
  'apps/server/test/slow-clients.test.ts',
  'apps/web/src/features/messages/communications-page.test.tsx',
  'apps/web/src/features/students/student-dialog.test.tsx',
  'apps/server/test/passwords.test.ts',
  'apps/web/src/features/messages/success-notices.test.tsx',
  'apps/server/test/imports-refused.test.ts',
  'apps/web/src/features/attendance/mark-attendance-page.test.tsx',
  'apps/server/test/leave-requests.test.ts',
  'apps/server/test/family-access.test.ts',
];

/** The same for the server's files on PostgreSQL (npm run test:postgres). */
const SLOWEST_ON_POSTGRES = [
  'apps/server/test/fuzz-openapi.test.ts',
  'apps/server/test/server-keys.test.ts',
  'apps/server/test/sign-in-throttle.test.ts',
  'apps/server/test/backup.test.ts',
  'apps/server/test/backup-process.test.ts',
  'apps/server/test/leave-requests.test.ts',
  'apps/server/test/seed-demo.test.ts',
  'apps/server/test/parent-opt-out.test.ts',
];

export default defineConfig({
  test: {
    // Two cores on the CI machines; each server test file holds its own database.
    maxWorkers: 2,
    projects: ['packages/contract', 'apps/server', 'apps/web'],
    sequence: { sequencer: slowFirst(process.env.TEST_DATABASE_URL ? SLOWEST_ON_POSTGRES : SLOWEST) },
  },
});
