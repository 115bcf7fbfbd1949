// Runs the API suite a second time against a PostgreSQL server when TEST_DATABASE_URL names one:
//   npx tsx scripts/test-postgres.ts [vitest options…]     (npm run test:postgres, part of npm test)
//
// Which files run here (ADR 039): every server test file, except those listed below as behaving the same
// on both databases, which the first run (npm run test:unit, the embedded database) covers. The rule:
// a file is listed only when it never reaches the database, or reaches one that TEST_DATABASE_URL does
// not choose, or checks only what the HTTP layer does to answers (headers, encodings, time limits) or
// code before any SQL (password rules, the spreadsheet reader). Anything whose SQL may differ between
// PGlite (PostgreSQL 18, one connection) and the PostgreSQL server (15, many connections) stays on both:
// concurrency, locks, transactions, SKIP LOCKED, advisory locks, deadlocks, isolation, JSON building,
// collations, time zones, migrations, backups. A new file is not listed, so it runs on both.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const TESTS = path.resolve(import.meta.dirname, '../apps/server/test');

/** The files (names without .test.ts) the first run covers for both databases, by why. */
export const SAME_ON_BOTH: Record<string, string[]> = {
  // No database at all: pure functions of the server's code, and scans of its sources and packages.
  'no database': [
    'dependency-engines',
    'gate',
    'group-commit',
    'import-parsers',
    'module-boundaries',
    'polling-loop',
    'public-address',
    'totp',
  ],
  // Databases of their own whatever TEST_DATABASE_URL says: the server-process tests check the embedded
  // database's DATA_DIR lock, and the fault tests start a PostgreSQL server of their own beside PGlite.
  'their own databases': ['faults', 'server-process'],
  // The HTTP layer over answers it does not look into: time limits, security headers, compression, the
  // CSP's script hashes. The database there only holds the signed-in admin and a row to answer.
  'the HTTP layer': ['compression', 'inline-script-csp', 'security-headers', 'slow-clients'],
  // Code that decides before any SQL: the password rules and hashes, the spreadsheet reader.
  'before any SQL': ['hostile-spreadsheets', 'password-policy', 'passwords'],
};

if (!process.env.TEST_DATABASE_URL) {
  console.log('TEST_DATABASE_URL is not set: the API suite ran on the embedded database only.');
  process.exit(0);
}

const listed = Object.values(SAME_ON_BOTH).flat();
// A listed name that is no file any more (split or renamed) would keep the list from being true.
const missing = listed.filter((name) => !existsSync(path.join(TESTS, `${name}.test.ts`)));
if (missing.length > 0) {
  console.error(
    `scripts/test-postgres.ts lists as the same on both databases files that are not there: ${missing
      .map((name) => `${name}.test.ts`)
      .join(', ')}. Name what they became (if it is still true of them) or take them off the list.`,
  );
  process.exit(1);
}

console.log(
  `API suite on PostgreSQL (${new URL(process.env.TEST_DATABASE_URL).host}), all but ${listed.length} files the embedded run covers for both (scripts/test-postgres.ts)`,
);
const result = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--project',
    'server',
    ...listed.flatMap((name) => ['--exclude', `**/${name}.test.ts`]),
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
