import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { SERVER_DIR } from '../lib/server-dir';
import type { Database, Queryable } from './database';

export const MIGRATIONS_DIR = path.join(SERVER_DIR, 'migrations');

/** The table that records which migrations a database has had. */
export const MIGRATIONS_TABLE = 'schema_migrations';

// Any fixed number: every instance that starts at once waits on this lock, and only one migrates.
// It is a transaction-level advisory lock, held by whichever transaction is migrating, so two
// instances starting together on one PostgreSQL database never apply the same migration twice.
const MIGRATION_LOCK_KEY = 741_852_963;

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;

/** The names of the migrations this code knows, in the order they apply. */
export async function migrationNames(dir: string = MIGRATIONS_DIR): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
}

/** Applies, in name order, each migration not yet recorded; each in its own transaction. */
export async function migrate(db: Database, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = await migrationNames(dir);
  const applied: string[] = [];
  // Under the lock too: two instances creating it at once on a new database would collide.
  await db.transaction(async (tx) => {
    await lockMigrations(tx);
    await tx.exec(CREATE_MIGRATIONS_TABLE);
  });
  for (const name of files) {
    const sql = await readFile(path.join(dir, name), 'utf8');
    const didApply = await db.transaction(async (tx) => {
      await lockMigrations(tx);
      const done = await tx.query(`SELECT 1 FROM ${MIGRATIONS_TABLE} WHERE name = $1`, [name]);
      if (done.length > 0) return false;
      // The rows a migration writes (default settings) are the schema, not a change anyone made.
      await tx.query("SELECT set_config('tuitiondesk.audit_skip', 'on', true)");
      await tx.exec(sql);
      await tx.query(`INSERT INTO ${MIGRATIONS_TABLE} (name) VALUES ($1)`, [name]);
      return true;
    });
    if (didApply) applied.push(name);
  }
  return applied;
}

/** Waits for (and then holds, until `tx` ends) the lock every migrating transaction takes. */
export async function lockMigrations(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
}

/** The migrations recorded in the database, in order; none when it has no migrations table yet. */
export async function appliedMigrations(db: Queryable): Promise<string[]> {
  const [table] = await db.query<{ present: boolean }>(
    `SELECT to_regclass('${MIGRATIONS_TABLE}') IS NOT NULL AS present`,
  );
  if (!table?.present) return [];
  const rows = await db.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY name`);
  return rows.map((row) => row.name);
}

/**
 * Inside the caller's transaction `tx`: takes the migration lock, and applies the listed migrations
 * not yet recorded, in order (a restore brings an empty database to the schema of its backup this
 * way, together with its rows: all of it commits, or none of it).
 */
export async function migrateInTransaction(
  tx: Queryable,
  names: string[],
  dir: string = MIGRATIONS_DIR,
): Promise<string[]> {
  await lockMigrations(tx);
  await tx.exec(CREATE_MIGRATIONS_TABLE);
  const done = new Set(await appliedMigrations(tx));
  const applied: string[] = [];
  for (const name of names) {
    if (done.has(name)) continue;
    await tx.exec(await readFile(path.join(dir, name), 'utf8'));
    await tx.query(`INSERT INTO ${MIGRATIONS_TABLE} (name) VALUES ($1)`, [name]);
    applied.push(name);
  }
  return applied;
}
