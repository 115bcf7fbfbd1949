// `npm run bench`: every bench script in turn on the built console and server, then the results page.
// The API bench runs on the embedded database, and again on PostgreSQL when DATABASE_URL (or
// BENCH_DATABASE_URL) names a server, with the scaling figure (1.5 M and 6 M records) there. A script over its budget does not stop the others.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../scripts/kit/server';

const postgres = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || '';
const steps: [string, Record<string, string>][] = [
  ['web-bundle.ts', {}],
  ['students-search.ts', {}],
  ['phone-flow.ts', {}],
  ['whatsapp.ts', {}],
  ['api.ts', { BENCH_DATABASE_URL: '' }],
  ['crowd.ts', { BENCH_DATABASE_URL: '' }],
  ['memory.ts', {}],
  ...(postgres
    ? ([
        ['api.ts', { BENCH_DATABASE_URL: postgres }],
        ['crowd.ts', { BENCH_DATABASE_URL: postgres }],
        ['scaling.ts', { BENCH_DATABASE_URL: postgres }],
      ] as [string, Record<string, string>][])
    : []),
];
/** A bench script in its own Node process, TypeScript through tsx. */
const runScript = (script: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', script)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });

const failed: string[] = [];
for (const [script, env] of steps) {
  console.log(`\n== bench/${script}${env.BENCH_DATABASE_URL ? ' on PostgreSQL' : ''}`);
  // The server each script starts must not inherit DATABASE_URL: it picks its own database.
  if (runScript(script, { DATABASE_URL: '', ...env }).status !== 0) failed.push(script);
}
const report = runScript('report.ts');
if (failed.length > 0) console.log(`\nOver budget or failed: ${failed.join(', ')}`);
process.exitCode = failed.length > 0 || report.status !== 0 ? 1 : 0;
