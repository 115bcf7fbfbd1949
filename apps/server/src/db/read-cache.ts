/**
 * The memory V8 gives a string's characters: a byte each while every one is Latin-1 (JSON of names in
 * English, dates, ids), two each as soon as one is not (a name in Devanagari).
 */
export function textBytes(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the Latin-1 range starts at U+0000
  return /[^\u0000-\u00ff]/.test(text) ? text.length * 2 : text.length;
}

/**
 * Values kept by key, the least recently used dropped first once their size passes `maxBytes`; a
 * value over `maxBytes / share` is not kept at all. Values are promises: callers asking while the
 * first load is in flight share it, so 32 identical requests cost one load; a load that fails is
 * not kept, nor one that `keep` refuses once it has come. `maxBytes` 0 keeps nothing.
 */
export class KeptValues {
  private bytes = 0;
  private readonly entries = new Map<string, { value: Promise<unknown>; bytes: number }>();

  constructor(
    private readonly maxBytes: number,
    private readonly share = 2,
  ) {}

  get<T>(
    key: string,
    load: () => Promise<T>,
    sizeOf: (value: T) => number,
    keep: (value: T) => boolean = () => true,
  ): Promise<T> {
    if (this.maxBytes === 0) return load();
    const kept = this.entries.get(key);
    if (kept) {
      // Most recently used last: the oldest are evicted first.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.value as Promise<T>;
    }
    const value = load();
    const entry = { value: value as Promise<unknown>, bytes: 0 };
    this.entries.set(key, entry);
    value.then(
      (result) => {
        // Dropped meanwhile (cleared, or evicted): a value from before a clear is never kept.
        if (this.entries.get(key) !== entry) return;
        if (!keep(result)) {
          this.entries.delete(key);
          return;
        }
        entry.bytes = sizeOf(result);
        if (entry.bytes > this.maxBytes / this.share) {
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

  /** The value kept (or being loaded) by `key`, without loading it: undefined when there is none. */
  peek<T>(key: string): Promise<T> | undefined {
    const kept = this.entries.get(key);
    if (!kept) return undefined;
    this.entries.delete(key);
    this.entries.set(key, kept);
    return kept.value as Promise<T>;
  }

  /** Drops every value kept. */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Bytes held now. */
  size(): number {
    return this.bytes;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }
}

/**
 * Answers of read queries kept until the next write, for the embedded database (PGlite). PGlite has
 * one connection, in this process only (DATA_DIR is locked), so every write passes through the
 * Database wrapper: it clears the cache after each write statement or transaction has finished. An
 * answer read while a write was committing may be newer than the clear, never older, because a load
 * in flight when the cache is cleared is not kept. PostgreSQL servers may be shared by several
 * instances, so they never use it (see ADR 013).
 */
export class ReadCache {
  private readonly kept: KeptValues;

  constructor(maxBytes: number) {
    this.kept = new KeptValues(maxBytes);
  }

  /** Something may have changed: every answer kept so far is out of date. */
  invalidate(): void {
    this.kept.clear();
  }

  /** The kept answer for `key`, or `load()`'s, kept. */
  get<T>(key: string, load: () => Promise<T>, sizeOf: (value: T) => number): Promise<T> {
    return this.kept.get(key, load, sizeOf);
  }

  /** Bytes held now. */
  size(): number {
    return this.kept.size();
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
