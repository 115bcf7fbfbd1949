import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import pg from 'pg';
import { formatTimestamp, parsePostgresTimestamp } from '../lib/time';

/** Something SQL can be sent to: the database itself, or one transaction on it. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `work` in one transaction: all of it commits or none of it does. Inside, use only `tx`:
   * PGlite has a single connection, and a query on the outer database would wait forever.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const OID = { int8: 20, numeric: 1700, date: 1082, timestamp: 1114, timestamptz: 1184 } as const;

/** Dates stay yyyy-MM-dd text; timestamps become ISO 8601 with the centre's offset; counts become numbers. */
const parsers: Record<number, (text: string) => unknown> = {
  [OID.int8]: (text) => Number(text),
  [OID.numeric]: (text) => Number(text),
  [OID.date]: (text) => text,
  [OID.timestamptz]: (text) => formatTimestamp(parsePostgresTimestamp(text)),
};

export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database> {
  const client = await PGlite.create(dataDir, {
    parsers,
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  await client.exec("SET TIME ZONE 'UTC'");
  return wrapPglite(client);
}

export function wrapPglite(client: PGlite): Database {
  return {
    kind: 'pglite',
    async query(sql, params) {
      const result = await client.query(sql, params);
      return result.rows as never;
    },
    async exec(sql) {
      await client.exec(sql);
    },
    transaction(work) {
      return client.transaction((tx) =>
        work({
          async query(sql, params) {
            const result = await tx.query(sql, params);
            return result.rows as never;
          },
          async exec(sql) {
            await tx.exec(sql);
          },
        }),
      );
    },
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

/** The PGlite client behind a Database, for dumping a template in tests. */
export { PGlite, pgliteTypes };

export interface PostgresOptions {
  max?: number;
  onError?: (error: Error) => void;
}

export function openPostgres(url: string, options: PostgresOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    options: '-c TimeZone=UTC',
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        parsers[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A connection lost while idle is reported here; without a listener it would crash the process.
  pool.on('error', (error) => options.onError?.(error));
  let closed = false;
  return {
    kind: 'postgres',
    async query(sql, params) {
      const result = await pool.query(sql, params as unknown[]);
      return result.rows;
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const tx: Queryable = {
          async query(sql, params) {
            const result = await client.query(sql, params as unknown[]);
            return result.rows;
          },
          async exec(sql) {
            await client.query(sql);
          },
        };
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
