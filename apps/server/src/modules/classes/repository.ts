import type { Queryable } from '../../db/database';

/** The two lists this module keeps; one table each, the same columns but a class's section. */
export type ListKind = 'class' | 'subject';

const TABLE: Record<ListKind, string> = { class: 'classes', subject: 'subjects' };
const SECTION: Record<ListKind, string> = { class: 'section', subject: 'NULL::text' };

export interface ListRow {
  id: number;
  value: string;
  label: string;
  section: string | null;
  sort_order: number;
  archived_at: string | null;
}

export interface Usage {
  students: number;
  teachers: number;
  attendance_records: number;
}

const columns = (kind: ListKind) => `id, value, label, ${SECTION[kind]} AS section, sort_order, archived_at`;

/** The list in its order (archived ones too unless `activeOnly`). */
export function listRows(db: Queryable, kind: ListKind, activeOnly = false): Promise<ListRow[]> {
  return db.query<ListRow>(
    `SELECT ${columns(kind)} FROM ${TABLE[kind]}
      ${activeOnly ? 'WHERE archived_at IS NULL' : ''}
      ORDER BY sort_order, id`,
  );
}

/**
 * The rows whose values are listed, held (FOR SHARE) until the transaction ends: a class being given
 * to a student or a teacher cannot be deleted or archived under it; a deletion that came first has
 * removed the row, so it is not found.
 */
export function holdRows(db: Queryable, kind: ListKind, values: readonly string[]): Promise<ListRow[]> {
  return db.query<ListRow>(
    `SELECT ${columns(kind)} FROM ${TABLE[kind]} WHERE value = ANY($1::text[]) ORDER BY id FOR SHARE`,
    [values],
  );
}

/** One row, locked for a change (FOR UPDATE), or undefined. */
export async function lockRow(db: Queryable, kind: ListKind, id: number): Promise<ListRow | undefined> {
  const [row] = await db.query<ListRow>(`SELECT ${columns(kind)} FROM ${TABLE[kind]} WHERE id = $1 FOR UPDATE`, [id]);
  return row;
}

/** What refers to each value of the kind: students, teachers, attendance records (subjects: teachers). */
export async function usageOf(db: Queryable, kind: ListKind, values?: readonly string[]): Promise<Map<string, Usage>> {
  const rows =
    kind === 'class'
      ? await db.query<Usage & { value: string }>(
          `SELECT c.value,
                  (SELECT count(*) FROM students s WHERE s.class_name = c.value)::int AS students,
                  (SELECT count(*) FROM teachers t WHERE c.value = ANY (t.classes_assigned))::int AS teachers,
                  (SELECT coalesce(sum(a.records), 0) FROM attendance_counts a WHERE a.class_name = c.value)::int
                    AS attendance_records
             FROM classes c WHERE $1::text[] IS NULL OR c.value = ANY($1::text[])`,
          [values ?? null],
        )
      : await db.query<Usage & { value: string }>(
          `SELECT s.value, 0 AS students, 0 AS attendance_records,
                  (SELECT count(*) FROM teachers t WHERE s.value = ANY (t.subjects))::int AS teachers
             FROM subjects s WHERE $1::text[] IS NULL OR s.value = ANY($1::text[])`,
          [values ?? null],
        );
  return new Map(rows.map(({ value, ...usage }) => [value, usage]));
}

/**
 * A new row at the end of the list; undefined when its value or label is taken (the unique indexes
 * decide, so of two adds of one class at the same moment one is created and the other finds it taken).
 */
export async function insertRow(
  db: Queryable,
  kind: ListKind,
  row: { value: string; label: string; section: string | null },
): Promise<number | undefined> {
  const [inserted] =
    kind === 'class'
      ? await db.query<{ id: number }>(
          `INSERT INTO classes (value, label, section, sort_order)
           VALUES ($1, $2, $3, (SELECT coalesce(max(sort_order), 0) + 1 FROM classes))
           ON CONFLICT DO NOTHING RETURNING id`,
          [row.value, row.label, row.section],
        )
      : await db.query<{ id: number }>(
          `INSERT INTO subjects (value, label, sort_order)
           VALUES ($1, $2, (SELECT coalesce(max(sort_order), 0) + 1 FROM subjects))
           ON CONFLICT DO NOTHING RETURNING id`,
          [row.value, row.label],
        );
  return inserted?.id;
}

export async function updateLabel(
  db: Queryable,
  kind: ListKind,
  id: number,
  fields: { label: string; section: string | null },
): Promise<void> {
  if (kind === 'class') {
    await db.query('UPDATE classes SET label = $2, section = $3, updated_at = now() WHERE id = $1', [
      id,
      fields.label,
      fields.section,
    ]);
  } else {
    await db.query('UPDATE subjects SET label = $2, updated_at = now() WHERE id = $1', [id, fields.label]);
  }
}

export async function setArchived(db: Queryable, kind: ListKind, id: number, archived: boolean): Promise<void> {
  await db.query(
    `UPDATE ${TABLE[kind]} SET archived_at = ${archived ? 'now()' : 'NULL'}, updated_at = now() WHERE id = $1`,
    [id],
  );
}

/** Every row, locked, for a reorder. */
export function lockAll(db: Queryable, kind: ListKind): Promise<{ id: number }[]> {
  return db.query<{ id: number }>(`SELECT id FROM ${TABLE[kind]} ORDER BY id FOR UPDATE`);
}

/** Places the rows in the order of `ids` (1, 2, …), changing only those that move. */
export async function setOrder(db: Queryable, kind: ListKind, ids: readonly number[]): Promise<void> {
  await db.query(
    `UPDATE ${TABLE[kind]} t SET sort_order = o.place, updated_at = now()
       FROM unnest($1::int[]) WITH ORDINALITY AS o (id, place)
      WHERE t.id = o.id AND t.sort_order <> o.place`,
    [ids],
  );
}

export async function deleteRow(db: Queryable, kind: ListKind, id: number): Promise<void> {
  await db.query(`DELETE FROM ${TABLE[kind]} WHERE id = $1`, [id]);
}
