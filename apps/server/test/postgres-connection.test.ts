/**
 * Connections lost under the server's feet (PostgreSQL restarted, a backend terminated): the
 * transaction fails with an error the handler maps to 503, and the process goes on.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, DatabaseBusyError, openPostgres } from '../src/db/database';
import { migrate } from '../src/db/migrate';
import { freshDatabase } from './helpers/test-app';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onPostgres)('a PostgreSQL connection lost in the middle of a transaction', () => {
  let db: Database;
  let drop: () => Promise<void>;
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    ({ db, drop } = await freshDatabase());
    await migrate(db);
    process.on('uncaughtException', record);
  });
  afterAll(async () => {
    process.off('uncaughtException', record);
    await drop();
  });

  it('between two statements: the next statement fails, nothing is committed, and no error escapes', async () => {
    const killer = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await killer.connect();
    try {
      const attempt = db.transaction(async (tx) => {
        await tx.query("INSERT INTO settings (key, value) VALUES ('lost_connection_probe', 'x')");
        const [own] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await killer.query('SELECT pg_terminate_backend($1)', [own?.pid]);
        // No statement is running while the server ends the connection.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.query('SELECT 1');
      });
      await expect(attempt).rejects.toThrow(/terminat|Connection/i);
      expect(uncaught).toEqual([]);
      const rows = await db.query("SELECT 1 FROM settings WHERE key = 'lost_connection_probe'");
      expect(rows).toEqual([]);
    } finally {
      await killer.end();
    }
  });
});

describe.skipIf(!onPostgres)('a PostgreSQL pool with every connection in use', () => {
  it('a statement that cannot get a connection in time fails as busy, and runs once one is free', async () => {
    // The server's own database: the statements need no table.
    const db = openPostgres(process.env.TEST_DATABASE_URL as string, { max: 1, connectTimeoutMs: 300 });
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const holding = db.transaction(async (tx) => {
        await tx.query('SELECT 1');
        await held;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const waited = await db.query('SELECT 1 AS one').then(
        () => 'answered',
        (error: unknown) => error,
      );
      expect(waited).toBeInstanceOf(DatabaseBusyError);
      release();
      await holding;
      expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });
});
