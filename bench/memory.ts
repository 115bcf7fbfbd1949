// Where the embedded database's server spends its memory, for the demo centre (120 students, a month)
// and the large one (5,000 students, a year: about 1.5 M records): at rest, after one pass over every
// read the console makes, and at peak under 8 whole-range history requests at once (the heaviest
// answer), each split as the server reports it on SIGUSR2 (V8 heap, ArrayBuffers with the WebAssembly
// heap, the read cache, the kept answers). Writes bench/results/memory-pglite.json.
//   npx tsx bench/memory.ts   (after npm run build)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { choosePassword, ROOT, startServer } from '../scripts/kit/server';
import { rssMb, sampleRss } from './api/measure';
import { API, readCalls } from './api/reads';
import { startFakePushService } from './fake-push';
import type { MemoryFigures, MemoryReport } from './figures';
import { ADMIN_PASSWORD, INITIAL_PASSWORD, resultsDir } from './support';

const log = (text: string) => process.stderr.write(`[memory] ${text}\n`);
const SERVER_DIR = path.join(ROOT, 'apps/server');

function seed(size: 'demo' | 'large', dataDir: string, pushBase: string, keys: { p256dh: string; auth: string }) {
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ADMIN_PASSWORD: INITIAL_PASSWORD,
    LOG_LEVEL: 'silent',
  };
  const result =
    size === 'demo'
      ? spawnSync(process.execPath, ['dist/seed-demo.js'], { cwd: SERVER_DIR, env, encoding: 'utf8' })
      : spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/tools/seed-large.ts')], {
          cwd: ROOT,
          env: {
            ...env,
            SEED_PUSH_ENDPOINT: pushBase,
            SEED_PUSH_P256DH: keys.p256dh,
            SEED_PUSH_AUTH: keys.auth,
          },
          encoding: 'utf8',
        });
  if (result.status !== 0) throw new Error(`seeding the ${size} centre failed: ${result.stderr}`);
}

/** Asks the server for its memory report (SIGUSR2) and reads it from its log. */
async function report(server: { pid: number; output: () => string }): Promise<MemoryReport> {
  const before = server.output().length;
  process.kill(server.pid, 'SIGUSR2');
  for (let i = 0; i < 100; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line = server
      .output()
      .slice(before)
      .split('\n')
      .find((entry) => entry.includes('"memory in use"'));
    if (line) return (JSON.parse(line) as { memory: MemoryReport }).memory;
  }
  throw new Error('the server did not report its memory');
}

const figures: MemoryFigures = { kind: 'pglite', sizes: [] };
const push = await startFakePushService();
try {
  for (const size of ['demo', 'large'] as const) {
    const dataDir = mkdtempSync(path.join(tmpdir(), `tuitiondesk-bench-memory-${size}-`));
    try {
      log(`seeding the ${size} centre…`);
      seed(size, dataDir, push.base, push.keys);
      const server = await startServer({
        dataDir,
        env: { ADMIN_PASSWORD: INITIAL_PASSWORD, LOG_LEVEL: 'info', PUSH_ALLOW_LOOPBACK_ENDPOINTS_FOR_TESTS: 'true' },
        timeoutMs: 100_000,
      });
      try {
        const token = await choosePassword(server.base, 'admin', INITIAL_PASSWORD, ADMIN_PASSWORD);
        const get = async (url: string) => {
          const response = await fetch(`${server.base}${url}`, {
            headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, br' },
          });
          await response.arrayBuffer();
          if (!response.ok) throw new Error(`${url} answered ${response.status}`);
        };
        const counts = (await fetch(`${server.base}${API}/dashboard/summary`, {
          headers: { authorization: `Bearer ${token}` },
        }).then((r) => r.json())) as { total_students: number };
        await new Promise((resolve) => setTimeout(resolve, 2000));
        const rest = await report(server);
        log(`${size}: ${counts.total_students} students, at rest ${JSON.stringify(rest)}`);

        const today = new Date().toISOString().slice(0, 10);
        const reads = readCalls(today, '').filter(
          (call) => call.method === 'GET' && !call.name.startsWith('history ('),
        );
        for (const call of reads) await get(call.path);
        const afterReads = await report(server);
        log(`${size}: after every console read once ${JSON.stringify(afterReads)}`);

        const wholeRange = readCalls(today, '').find((call) => call.name === 'history (31 days)');
        const sampler = sampleRss(server.pid);
        if (wholeRange) await Promise.all(Array.from({ length: 8 }, () => get(wholeRange.path)));
        const peak = sampler.stop();
        const afterPeak = await report(server);
        log(`${size}: peak ${peak.toFixed(0)} MB under 8 whole-range histories; after ${JSON.stringify(afterPeak)}`);
        figures.sizes.push({
          centre: size,
          students: counts.total_students,
          rest,
          after_reads: afterReads,
          peak_rss_mb: Math.round(Math.max(peak, rssMb(server.pid))),
          after_peak: afterPeak,
        });
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
} finally {
  await push.close();
}
writeFileSync(path.join(resultsDir(), 'memory-pglite.json'), `${JSON.stringify(figures, null, 2)}\n`);
