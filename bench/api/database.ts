// The bench's large centre: a fresh database (a PGlite data directory, or a new database on a
// PostgreSQL server), seeded by bench/tools/seed-large.ts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { emptyServerDatabase } from '../../apps/server/test/helpers/test-app';
import { ROOT } from '../../scripts/kit/server';
import type { FakePushService } from '../fake-push';
import type { ApiResults, SeedCounts } from '../figures';
import { INITIAL_PASSWORD } from '../support';

export interface BenchDatabase {
  /** The data directory: the embedded database's, or only the key file's with PostgreSQL. */
  dataDir: string;
  /** '' for the embedded database. */
  databaseUrl: string;
  drop: () => Promise<void>;
}

/** A new, empty database: on the PostgreSQL server at `serverUrl`, or embedded when it is ''. */
export async function freshDatabase(serverUrl: string): Promise<BenchDatabase> {
  if (!serverUrl) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tuitiondesk-bench-large-'));
    return { dataDir, databaseUrl: '', drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const created = await emptyServerDatabase(serverUrl, 'tuitiondesk_bench');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tuitiondesk-bench-pg-'));
  return {
    dataDir,
    databaseUrl: created.url,
    drop: async () => {
      await created.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Seeds the large centre, every parent with a device on the fake push service; `size` overrides its
 * SEED_* sizes. Answers what it made and how long it took.
 */
export function seedLargeCentre(
  database: BenchDatabase,
  push: FakePushService,
  size: Record<string, string> = {},
): ApiResults['seeded'] {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/tools/seed-large.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.databaseUrl,
      ADMIN_PASSWORD: INITIAL_PASSWORD,
      LOG_LEVEL: 'silent',
      SEED_PUSH_ENDPOINT: push.base,
      SEED_PUSH_P256DH: push.keys.p256dh,
      SEED_PUSH_AUTH: push.keys.auth,
      ...size,
    },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`seeding failed: ${result.stderr}`);
  const counts = JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as SeedCounts;
  return { seconds: (performance.now() - started) / 1000, counts };
}
