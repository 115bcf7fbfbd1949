import path from 'node:path';
import type { DatabaseConfig } from '../config';
import { lockDataDir } from './data-dir-lock';
import { type Database, openPglite, openPostgres, type PostgresOptions } from './database';

/**
 * The database the configuration names: a PostgreSQL pool, or the embedded database in DATA_DIR with
 * the directory locked for this process (throws DataDirLockedError when another holds it). `release`
 * frees the lock after the database is closed.
 */
export async function openConfiguredDatabase(
  config: DatabaseConfig,
  postgres: PostgresOptions = {},
): Promise<{ db: Database; release: () => void }> {
  if (config.kind === 'postgres') return { db: openPostgres(config.url, postgres), release: () => {} };
  const dataDir = config.dataDir as string;
  const release = lockDataDir(dataDir);
  try {
    return { db: await openPglite(path.join(dataDir, 'pgdata')), release };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * For the scripts (seed, backup, restore): opens the configured database, runs `work` on it, then
 * closes it and frees DATA_DIR, whatever happened.
 */
export async function withConfiguredDatabase<T>(
  config: DatabaseConfig,
  work: (db: Database) => Promise<T>,
): Promise<T> {
  const { db, release } = await openConfiguredDatabase(config, { max: 2 });
  try {
    return await work(db);
  } finally {
    await db.close();
    release();
  }
}
