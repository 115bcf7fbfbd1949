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
