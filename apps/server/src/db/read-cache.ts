/**
 * Answers of read queries kept until the next write, for the embedded database (PGlite). PGlite has
 * one connection, in this process only (DATA_DIR is locked), so every write passes through the
 * Database wrapper: it bumps `generation` after each write statement or transaction has finished,
 * and an answer is served from here only while the generation it was read under is still current.
 * An answer read while a write was committing may be newer than its generation says, never older,
 * because the generation is taken before the query is sent and bumped only after the write is done.
 * PostgreSQL servers may be shared by several instances, so they never use it (see ADR 013).
 */
export class ReadCache {
  private generation = 0;
  private bytes = 0;
  private readonly entries = new Map<string, { generation: number; value: Promise<unknown>; bytes: number }>();

  constructor(private readonly maxBytes: number) {}

  /** Something may have changed: every answer kept so far is out of date. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.bytes = 0;
  }

  /**
   * The kept answer for `key`, or `load()`'s, kept. Callers asking at once while the first load is
   * in flight share it, so 32 identical requests cost one query.
   */
  get<T>(key: string, load: () => Promise<T>, sizeOf: (value: T) => number): Promise<T> {
    const kept = this.entries.get(key);
    if (kept && kept.generation === this.generation) {
      // Most recently used last: the oldest are evicted first.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.value as Promise<T>;
    }
    const generation = this.generation;
    const value = load();
    const entry = { generation, value: value as Promise<unknown>, bytes: 0 };
    this.entries.set(key, entry);
    value.then(
      (result) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = sizeOf(result);
        if (entry.bytes > this.maxBytes / 2) {
          this.entries.delete(key);
          return;
        }
        this.bytes += entry.bytes;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }
}

/** Plain SELECTs leave the data as it is; anything else (and sequence calls) may change it. */
export function isRead(sql: string): boolean {
  return /^\s*SELECT\b/i.test(sql) && !/\b(nextval|setval)\s*\(/i.test(sql);
}

/**
 * A plain INSERT, UPDATE or DELETE: when it affects no row, nothing changed. Not a WITH: the count
 * the driver reports for `WITH … UPDATE … SELECT` is the final SELECT's, not the write's.
 */
export function isRowWrite(sql: string): boolean {
  return /^\s*(INSERT|UPDATE|DELETE)\b/i.test(sql);
}
