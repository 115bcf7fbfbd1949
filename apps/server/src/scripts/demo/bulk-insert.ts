/**
 * Set-based writes for the demo's history, which the live inserts cannot write: they stamp rows with
 * the present moment, and the demo's rows happened over the past month.
 */
import type { Queryable } from '../../db/database';

/** A column's SQL type and how a row gives its value. */
export type Column<Row> = readonly [type: string, value: (row: Row) => unknown];

/**
 * Inserts `rows` into `table` in one statement, in their order (the ids follow it): each column's
 * values travel as one array parameter of its type, so a thousand rows cost one round trip.
 */
export async function insertRows<Row>(
  tx: Queryable,
  table: string,
  rows: readonly Row[],
  columns: Record<string, Column<Row>>,
): Promise<void> {
  const names = Object.keys(columns).join(', ');
  const arrays = Object.values(columns).map(([type], index) => `$${index + 1}::${type}[]`);
  await tx.query(
    `INSERT INTO ${table} (${names})
     SELECT ${names} FROM unnest(${arrays.join(', ')}) WITH ORDINALITY AS r (${names}, position)
      ORDER BY position`,
    Object.values(columns).map(([, value]) => rows.map(value)),
  );
}

/** Moves the creation (and last change) of rows inserted just now back to when the demo says they happened. */
export async function backdate(
  tx: Queryable,
  table: 'students' | 'teachers' | 'users',
  rows: readonly { id: number; at: string }[],
): Promise<void> {
  await tx.query(
    `UPDATE ${table} AS t SET created_at = v.at, updated_at = v.at
       FROM unnest($1::int[], $2::timestamptz[]) AS v (id, at)
      WHERE t.id = v.id`,
    [rows.map((row) => row.id), rows.map((row) => row.at)],
  );
}
