import type { ParentLanguage } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

/** A family of a class, as a slip names it, and whether it has a parent-app code already. */
export interface ClassFamily {
  phone: string;
  parent_name: string;
  children: string[];
  language: ParentLanguage;
  has_code: boolean;
}

/**
 * One row per family (a distinct parent phone) among the students of the class who attend, with its
 * children in that class, its name (the first parent name written, else "Parent of …") and language.
 */
export async function findClassFamilies(db: Queryable, className: string): Promise<ClassFamily[]> {
  return db.query<ClassFamily>(
    `SELECT s.parent_phone AS phone,
            COALESCE((array_agg(btrim(s.parent_name) ORDER BY s.id) FILTER (WHERE btrim(s.parent_name) <> ''))[1],
                     'Parent of ' || string_agg(s.full_name, ', ' ORDER BY s.full_name, s.id)) AS parent_name,
            array_agg(s.full_name ORDER BY s.full_name, s.id) AS children,
            (array_agg(s.parent_language ORDER BY s.id))[1] AS language,
            EXISTS (SELECT 1 FROM parent_access p WHERE p.phone = s.parent_phone) AS has_code
       FROM students s
      WHERE s.class_name = $1 AND s.left_on IS NULL
      GROUP BY s.parent_phone
      ORDER BY min(s.full_name), s.parent_phone`,
    [className],
  );
}

export async function classExists(db: Queryable, className: string): Promise<boolean> {
  const rows = await db.query<{ found: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM students WHERE class_name = $1 AND left_on IS NULL) AS found',
    [className],
  );
  return rows[0]?.found ?? false;
}
