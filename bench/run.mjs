// `npm run bench`: every bench script in turn on the built console, then the results page.
// The API bench runs on the embedded database, and again on PostgreSQL when DATABASE_URL (or
// BENCH_DATABASE_URL) names a server. A script over its budget does not stop the others.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from './support.mjs';

const postgres = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || '';
const steps = [
  ['web-bundle.mjs', {}],
  ['students-search.mjs', {}],
  ['api.mjs', { BENCH_DATABASE_URL: '' }],
  ...(postgres ? [['api.mjs', { BENCH_DATABASE_URL: postgres }]] : []),
];
const failed = [];
for (const [script, env] of steps) {
  console.log(`\n== bench/${script}${env.BENCH_DATABASE_URL ? ' on PostgreSQL' : ''}`);
  // The server each script starts must not inherit DATABASE_URL: it picks its own database.
  const result = spawnSync(process.execPath, [path.join(root, 'bench', script)], {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: '', ...env },
  });
  if (result.status !== 0) failed.push(script);
}
const report = spawnSync(process.execPath, [path.join(root, 'bench/report.mjs')], { stdio: 'inherit' });
if (failed.length > 0) console.log(`\nOver budget or failed: ${failed.join(', ')}`);
process.exitCode = failed.length > 0 || report.status !== 0 ? 1 : 0;
