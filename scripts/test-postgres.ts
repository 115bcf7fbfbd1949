// Runs the API suite a second time against a PostgreSQL server when TEST_DATABASE_URL names one:
//   npx tsx scripts/test-postgres.ts      (npm run test:postgres, part of npm test)
import { spawnSync } from 'node:child_process';

if (!process.env.TEST_DATABASE_URL) {
  console.log('TEST_DATABASE_URL is not set: the API suite ran on the embedded database only.');
  process.exit(0);
}
console.log(`API suite on PostgreSQL (${new URL(process.env.TEST_DATABASE_URL).host})`);
// The server-process tests exercise the embedded database's DATA_DIR lock, and the fault tests run their own
// PostgreSQL server beside the embedded database: the first run covers both. The others left out touch no
// database, or none in a way that differs between the two (pure functions, HTTP time limits, the password
// rules and hashes, the spreadsheet reader).
const SAME_ON_BOTH = [
  'server-process',
  'faults',
  'slow-clients',
  'public-address',
  'password-policy',
  'passwords',
  'hostile-spreadsheets',
  'totp',
];
const result = spawnSync(
  'npx',
  ['vitest', 'run', '--project', 'server', ...SAME_ON_BOTH.flatMap((name) => ['--exclude', `**/${name}.test.ts`])],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
