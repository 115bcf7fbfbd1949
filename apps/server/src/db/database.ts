import { PGlite, types as pgliteTypes, type Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import { centreTimeZone, formatTimestamp, parsePostgresTimestamp } from '../lib/time';
import { currentAuditSource, mayWrite, SET_AUDIT_SOURCE } from './audit-context';
import { isRead, isRowWrite, ReadCache, textBytes } from './read-cache';

/** Something SQL can be sent to: the database itself, or one transaction on it. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /**
   * The rows of `sql` as one JSON array, built by the database (`json_agg`): a list of thousands of
   * rows crosses the driver as one text value instead of thousands of decoded rows, and goes to the
   * client as it is. Timestamps in the select list must go through `jsonTimestamp()`.
   */
  queryJson(sql: string, params?: unknown[]): Promise<string>;
  /**
   * `query` for reads that the embedded database may answer from its read cache (outside a
   * transaction): the rows are shared between callers, so they are frozen.
   */
  queryCached<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<readonly Readonly<Row>[]>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Bytes the embedded database's read cache holds now (0 on PostgreSQL, which keeps none). */
  cachedBytes(): number;
  /**
   * Runs `work` in one transaction: all of it commits or none of it does. Inside, use only `tx`:
   * PGlite has a single connection, and a query on the outer database would wait forever. On
   * PostgreSQL a deadlock or serialization failure runs `work` again (three attempts in all), so
   * `work` must do nothing outside the database that cannot be done twice.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The centre's IANA zone (lib/time.ts `centreTimeZone`, ADR 042): sessions follow it, so that timestamps
 * the database prints itself (`jsonTimestamp`) carry the same offset as those formatted here. Each
 * statement checks its connection's zone against it first, so a change applies from the next one
 * (PGlite's one connection, or each PostgreSQL connection when next checked out). No SQL depends on it
 * otherwise: days are passed in, and the analytics name the zone in their SQL.
 */
export function sessionTimeZone(): string {
  return centreTimeZone();
}

/** The zone a session was last set to, and the statement that sets it (UTC, with a warning, if the database does not know the zone). */
async function followCentreZone(
  current: string | undefined,
  run: (sql: string, params?: unknown[]) => Promise<unknown>,
): Promise<string> {
  const zone = sessionTimeZone();
  if (zone === current) return zone;
  try {
    await run('SELECT set_config($1, $2, false)', ['TimeZone', zone]);
  } catch {
    process.emitWarning(`The database does not know the time zone ${zone}; timestamps are printed in UTC`);
    await run("SET TIME ZONE 'UTC'");
  }
  return zone;
}

/** ISO 8601 with milliseconds and the zone's offset, exactly as `formatTimestamp` prints it. */
export function jsonTimestamp(column: string): string {
  return `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS') || to_char(${column}, 'TZH:TZM')`;
}

const wrapJson = (sql: string) => `SELECT COALESCE(json_agg(j), '[]')::text AS json FROM (${sql}) j`;

async function jsonOf(db: Pick<Queryable, 'query'>, sql: string, params?: unknown[]): Promise<string> {
  const rows = await db.query<{ json: string }>(wrapJson(sql), params);
  return rows[0]?.json ?? '[]';
}

const OID = { int8: 20, numeric: 1700, date: 1082, timestamp: 1114, timestamptz: 1184 } as const;

/** Dates stay yyyy-MM-dd text; timestamps become ISO 8601 with the centre's offset; counts become numbers. */
const parsers: Record<number, (text: string) => unknown> = {
  [OID.int8]: (text) => Number(text),
  [OID.numeric]: (text) => Number(text),
  [OID.date]: (text) => text,
  [OID.timestamptz]: (text) => formatTimestamp(parsePostgresTimestamp(text)),
};

/** PostgreSQL's buffer pool inside the embedded database. */
const EMBEDDED_SHARED_BUFFERS = '16MB';

/** Enough for the longest history a screen asks for at a large centre (31 days: about 45 MB). */
const READ_CACHE_BYTES = 128 * 1024 * 1024;

// The zone is part of the key: rows hold timestamps printed with the centre's offset (ADR 042).
const cacheKey = (kind: string, sql: string, params?: unknown[]) =>
  `${kind}\u0000${sessionTimeZone()}\u0000${sql}\u0000${JSON.stringify(params ?? [])}`;

export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database> {
  const client = await PGlite.create(dataDir, {
    parsers,
    // PostgreSQL's 128 MB of shared buffers live in the WebAssembly heap, which never shrinks, and
    // buy nothing here: the data files are read through the operating system's cache either way, and
    // the server keeps its own read cache. 16 MB took 120-150 MB off the server's memory, with the
    // same query times on a 70 MB table (ADR 024).
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  return wrapPglite(client);
}

export function wrapPglite(client: PGlite): Database {
  const cache = new ReadCache(READ_CACHE_BYTES);
  let sessionZone: string | undefined;
  const followZone = async () => {
    if (sessionZone !== sessionTimeZone())
      sessionZone = await followCentreZone(sessionZone, (q, p) => client.query(q, p));
  };
  const run = async <Row>(sql: string, params?: unknown[]): Promise<Row[]> => {
    await followZone();
    if (isRead(sql)) return (await client.query(sql, params)).rows as Row[];
    try {
      const result = await queryWithSource(sql, params);
      // The delivery worker's poll and similar statements often change nothing: keep the answers then.
      if (!(isRowWrite(sql) && result.affectedRows === 0)) cache.invalidate();
      return result.rows as Row[];
    } catch (error) {
      cache.invalidate();
      throw error;
    }
  };
  // A write made for a request outside a transaction runs in one that carries the request's source
  // to the audit triggers (ADR 025).
  const queryWithSource = async (sql: string, params?: unknown[]) => {
    const source = mayWrite(sql) ? currentAuditSource() : undefined;
    if (!source) return client.query(sql, params);
    return client.transaction(async (tx) => {
      await tx.query(SET_AUDIT_SOURCE, [JSON.stringify(source)]);
      return tx.query(sql, params);
    });
  };
  // Inside a transaction nothing is cached: its reads may see its own uncommitted writes.
  const inTransaction = (tx: Transaction): Queryable => ({
    async query(sql, params) {
      return (await tx.query(sql, params)).rows as never;
    },
    queryJson(sql, params) {
      return jsonOf(this, sql, params);
    },
    async queryCached(sql, params) {
      return (await tx.query(sql, params)).rows as never;
    },
    async exec(sql) {
      await tx.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    cachedBytes: () => cache.size(),
    query: run,
    queryJson(sql, params) {
      return cache.get(cacheKey('json', sql, params), () => jsonOf(this, sql, params), textBytes);
    },
    queryCached<Row>(sql: string, params?: unknown[]) {
      return cache.get(
        cacheKey('rows', sql, params),
        async () => (await run<Row>(sql, params)).map((row) => Object.freeze(row)),
        (rows) => JSON.stringify(rows).length * 2,
      );
    },
    async exec(sql) {
      try {
        await followZone();
        await client.exec(sql);
      } finally {
        cache.invalidate();
      }
    },
    async transaction(work) {
      try {
        await followZone();
        return await client.transaction((tx) => work(carryingAuditSource(inTransaction(tx))));
      } finally {
        cache.invalidate();
      }
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
  /** How long a statement waits for one of the pool's connections (default 5 s). */
  connectTimeoutMs?: number;
  onError?: (error: Error) => void;
}

/**
 * Every connection of the pool was in use for as long as a request may wait for one: the server is
 * overloaded, the database is not down. Answered 503 "busy" (the console's payment queue and the
 * gateway's webhook both send again), not "database unavailable".
 */
export class DatabaseBusyError extends Error {
  constructor(options?: ErrorOptions) {
    super('every database connection stayed in use for as long as a request may wait', options);
    this.name = 'DatabaseBusyError';
  }
}

export function openPostgres(url: string, options: PostgresOptions = {}): Database {
  const max = options.max ?? 10;
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 30_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        parsers[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A connection lost while idle is reported here; without a listener it would crash the process.
  pool.on('error', (error) => options.onError?.(error));
  let closed = false;
  const zones = new WeakMap<pg.PoolClient, string>();
  /** A connection of the pool, its session in the centre's zone (set again after a change). */
  const checkOut = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect().catch((error: Error) => {
      // pg-pool says this only of a wait in its queue; with every connection open and none idle the
      // wait was for a busy server (a database out of reach fails its own connects first, otherwise).
      const waitedOnBusyPool =
        /timeout exceeded when trying to connect/.test(error.message) && pool.totalCount >= max && pool.idleCount === 0;
      throw waitedOnBusyPool ? new DatabaseBusyError({ cause: error }) : error;
    });
    const current = zones.get(client);
    if (current === sessionTimeZone()) return client;
    try {
      zones.set(client, await followCentreZone(current, (q, p) => client.query(q, p as unknown[])));
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    return client;
  };
  const onPool = postgresQueryable(pooled(checkOut));
  return {
    kind: 'postgres',
    cachedBytes: () => 0,
    ...onPool,
    // A write made for a request outside a transaction runs in one that carries the request's source
    // to the audit triggers (ADR 025).
    query(sql, params) {
      if (mayWrite(sql) && currentAuditSource()) return transactionOnce((tx) => tx.query(sql, params));
      return onPool.query(sql, params);
    },
    async transaction(work) {
      // A deadlock or serialization failure rolled the whole attempt back: running it again is
      // what the same calls one after the other would do. The work uses only `tx`, so it can rerun.
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await transactionOnce(work);
        } catch (error) {
          if (attempt >= TRANSACTION_ATTEMPTS || !isTransactionConflict(error)) throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
        }
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };

  async function transactionOnce<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await checkOut();
    let broken: Error | undefined;
    // The pool stops listening while a client is checked out: a connection lost between two
    // statements of this transaction would be an uncaught 'error' event, and end the process.
    const onLost = (error: Error) => {
      broken = error;
    };
    client.on('error', onLost);
    try {
      await client.query('BEGIN');
      const result = await work(carryingAuditSource(postgresQueryable(client)));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      // A broken client is destroyed and may still report its end: it keeps the listener.
      if (!broken) client.removeListener('error', onLost);
      client.release(broken);
    }
  }
}

const TRANSACTION_ATTEMPTS = 3;

/**
 * `tx` handing the current audit source to the triggers before its first statement that may need it:
 * not before a `SET TRANSACTION` (an isolation level must come before any query, as the backups'
 * snapshot sets it), so the setting goes with the first other statement.
 */
function carryingAuditSource(tx: Queryable): Queryable {
  const source = currentAuditSource();
  if (!source) return tx;
  let pending: Promise<unknown> | undefined;
  let isSet = false;
  const before = async (sql: string) => {
    if (isSet || /^\s*SET\s+TRANSACTION\b/i.test(sql)) return;
    pending ??= tx.query(SET_AUDIT_SOURCE, [JSON.stringify(source)]);
    await pending;
    isSet = true;
  };
  return {
    async query(sql, params) {
      await before(sql);
      return tx.query(sql, params);
    },
    async queryJson(sql, params) {
      await before(sql);
      return tx.queryJson(sql, params);
    },
    async queryCached(sql, params) {
      await before(sql);
      return tx.queryCached(sql, params);
    },
    async exec(sql) {
      await before(sql);
      return tx.exec(sql);
    },
  } as Queryable;
}

/**
 * `pool.query`, on a connection checked out with `checkOut` (so its session follows the centre's
 * zone): a connection lost during the statement is destroyed, not handed back, and its 'error' event
 * (the pool stops listening while it is checked out) does not end the process.
 */
function pooled(checkOut: () => Promise<pg.PoolClient>): Pick<pg.PoolClient, 'query'> {
  return {
    query: (async (sql: string, params?: unknown[]) => {
      const client = await checkOut();
      let broken: Error | undefined;
      const onLost = (error: Error) => {
        broken = error;
      };
      client.on('error', onLost);
      try {
        return await client.query(sql, params);
      } finally {
        if (!broken) client.removeListener('error', onLost);
        client.release(broken);
      }
    }) as pg.PoolClient['query'],
  };
}

/**
 * Statements on the pool (each on whichever connection is free) or on one checked-out connection (a
 * transaction): PostgreSQL has no read cache, so `queryCached` is `query`.
 */
function postgresQueryable(target: Pick<pg.PoolClient, 'query'>): Queryable {
  return {
    async query(sql, params) {
      const result = await target.query(sql, params as unknown[]);
      return result.rows;
    },
    queryJson(sql, params) {
      return jsonOf(this, sql, params);
    },
    queryCached(sql, params) {
      return this.query(sql, params);
    },
    async exec(sql) {
      await target.query(sql);
    },
  };
}

/**
 * Deadlock detected, or a serialization failure: PostgreSQL asks for the transaction to be retried.
 * `transaction` does, a few times; what still fails is answered 503 (plugins/errors.ts).
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === '40P01' || code === '40001';
}
