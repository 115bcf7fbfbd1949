import type { Queryable } from '../../db/database';

/** One key per kind of import (the migration lock uses another); any constant bigint would do. */
const IMPORT_LOCK_KEYS = { students: 7_310_001, teachers: 7_310_002 } as const;

/**
 * Holds, until the transaction ends, the right to import this kind of record. Two uploads of the
 * same file (a double click, two admins) then run one after the other, and the second finds the
 * first one's rows as duplicates instead of both passing the check and inserting twice.
 */
export async function lockImports(tx: Queryable, kind: keyof typeof IMPORT_LOCK_KEYS): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [IMPORT_LOCK_KEYS[kind]]);
}
