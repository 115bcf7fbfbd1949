import type { Queryable } from './database';

/**
 * The settings table holds text values by key. Each module keeps its own keys and decides how their text
 * reads (and what a value edited by hand into nonsense falls back to); this is only how rows are read and
 * written. Several keys are read and written in key order, so two changes that lock the same rows take
 * them in the same order and never deadlock.
 */
export type SettingsLock = 'share' | 'update';

function lockClause(lock: SettingsLock | undefined): string {
  return lock === 'share' ? ' FOR SHARE' : lock === 'update' ? ' FOR UPDATE' : '';
}

/** The values stored for `keys` (absent keys are absent from the map); `lock` holds the rows until the transaction ends. */
export async function readSettings(
  db: Queryable,
  keys: readonly string[],
  lock?: SettingsLock,
): Promise<ReadonlyMap<string, string>> {
  const rows = await db.query<{ key: string; value: string }>(
    `SELECT key, value FROM settings WHERE key = ANY($1::text[]) ORDER BY key${lockClause(lock)}`,
    [keys],
  );
  return new Map(rows.map((row) => [row.key, row.value]));
}

export async function readSetting(db: Queryable, key: string, lock?: SettingsLock): Promise<string | undefined> {
  const rows = await db.query<{ value: string }>(`SELECT value FROM settings WHERE key = $1${lockClause(lock)}`, [key]);
  return rows[0]?.value;
}

/** Stores each value, replacing what was there, in key order. */
export async function writeSettings(tx: Queryable, values: Readonly<Record<string, string>>): Promise<void> {
  const keys = Object.keys(values).sort();
  await tx.query(
    `INSERT INTO settings (key, value)
     SELECT key, value FROM unnest($1::text[], $2::text[]) AS r (key, value) ORDER BY key
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [keys, keys.map((key) => values[key] as string)],
  );
}

/** Stores the value unless one is there already; answers whichever value is kept. */
export async function ensureSetting(db: Queryable, key: string, value: string): Promise<string> {
  await db.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, value]);
  return (await readSetting(db, key)) ?? value;
}

/** A whole number stored as text, when it is one within `bounds`; otherwise `fallback`. */
export function wholeNumberSetting(
  text: string | undefined,
  fallback: number,
  bounds: { min: number; max: number },
): number {
  const trimmed = text?.trim() ?? '';
  const value = /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  return value >= bounds.min && value <= bounds.max ? value : fallback;
}

/**
 * One setting, declared once by the module that owns it: its key, the value when the row is absent or
 * edited by hand into nonsense (`fallback`), and what counts as a value: `true`/`false` for a switch,
 * a whole number within `bounds` for a number, and for a text what `accept` makes of it (the trimmed text
 * when it is not empty, unless given). Written back as text.
 */
export type SettingSpec<T extends boolean | number | string> = { key: string; fallback: T } & (T extends number
  ? { bounds: { min: number; max: number } }
  : T extends string
    ? { accept?: (text: string) => string | undefined }
    : object);

export interface Setting<T> {
  readonly key: string;
  /** The value a stored text stands for (`undefined`: no row). */
  parse(text: string | undefined): T;
  read(db: Queryable, lock?: SettingsLock): Promise<T>;
  write(tx: Queryable, value: T): Promise<void>;
  /** Writes `value` over the stored one, read first and held (`update`) until the transaction ends. */
  change(tx: Queryable, value: T): Promise<{ before: T; changed: boolean }>;
}

type Widened<T> = T extends boolean ? boolean : T extends number ? number : string;

function parser<T extends boolean | number | string>(spec: SettingSpec<T>): (text: string | undefined) => Widened<T> {
  const fallback = spec.fallback as unknown as Widened<T>;
  if (typeof spec.fallback === 'boolean') {
    return (text) => (text === 'true' ? true : text === 'false' ? false : fallback) as Widened<T>;
  }
  if ('bounds' in spec) {
    const bounds = spec.bounds;
    return (text) => wholeNumberSetting(text, spec.fallback as number, bounds) as Widened<T>;
  }
  const accept = ('accept' in spec && spec.accept) || ((text: string) => text.trim() || undefined);
  return (text) => ((text === undefined ? undefined : accept(text)) ?? fallback) as Widened<T>;
}

export function defineSetting<T extends boolean | number | string>(spec: SettingSpec<T>): Setting<Widened<T>> {
  const parse = parser(spec);
  return {
    key: spec.key,
    parse,
    read: async (db, lock) => parse(await readSetting(db, spec.key, lock)),
    write: (tx, value) => writeSettings(tx, { [spec.key]: String(value) }),
    change: async (tx, value) => {
      const before = parse(await readSetting(tx, spec.key, 'update'));
      await writeSettings(tx, { [spec.key]: String(value) });
      return { before, changed: before !== value };
    },
  };
}

/** Settings read and written together (one statement, rows locked in key order), by field name. */
export interface SettingGroup<T> {
  read(db: Queryable, lock?: SettingsLock): Promise<T>;
  write(tx: Queryable, values: T): Promise<void>;
}

export function settingGroup<T extends object>(
  fields: {
    [K in keyof T]: Setting<T[K]>;
  },
): SettingGroup<T> {
  const entries = Object.entries(fields) as [keyof T & string, Setting<unknown>][];
  const keys = entries.map(([, setting]) => setting.key);
  return {
    read: async (db, lock) => {
      const values = await readSettings(db, keys, lock);
      return Object.fromEntries(
        entries.map(([field, setting]) => [field, setting.parse(values.get(setting.key))]),
      ) as T;
    },
    write: (tx, values) =>
      writeSettings(tx, Object.fromEntries(entries.map(([field, setting]) => [setting.key, String(values[field])]))),
  };
}
