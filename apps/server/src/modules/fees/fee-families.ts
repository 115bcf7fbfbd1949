/**
 * A family's fee identity (ADR 051): the students who share a parent phone have one fee account,
 * `fee_families.id`, made on first use. Its name, phone and children are read from the students'
 * records now (a child who left still belongs to it; a scrubbed record, whose phone is gone, does not).
 */
import type { FeeFamily } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { NotFoundError } from '../../lib/errors';
import { familyGstDetails } from './gst';
import { familyBalance, familyIdForPhone } from './ledger';

export interface FamilyDetails {
  family_id: number;
  parent_name: string;
  parent_phone: string;
  students: { id: number; full_name: string; class_name: string }[];
}

/**
 * The names, phones and children of these families, by id, in one query; a family whose phone no
 * student holds any more keeps its id with an empty name and no children.
 */
export async function familiesDetails(
  db: Queryable,
  familyIds: readonly number[],
): Promise<Map<number, FamilyDetails>> {
  const rows = await db.query<{
    family_id: number;
    phone: string | null;
    parent_name: string | null;
    students: { id: number; full_name: string; class_name: string }[] | null;
  }>(
    `SELECT f.id AS family_id, f.phone,
            (SELECT s.parent_name FROM students s WHERE s.parent_phone = f.phone
              ORDER BY s.left_on IS NULL DESC, s.created_at DESC, s.id DESC LIMIT 1) AS parent_name,
            (SELECT json_agg(json_build_object('id', s.id, 'full_name', s.full_name, 'class_name', s.class_name)
                             ORDER BY s.full_name, s.id)
               FROM students s WHERE s.parent_phone = f.phone) AS students
       FROM fee_families f WHERE f.id = ANY($1::integer[])`,
    [familyIds],
  );
  return new Map(
    rows.map((row) => [
      Number(row.family_id),
      {
        family_id: Number(row.family_id),
        parent_name: row.parent_name ?? '',
        parent_phone: row.phone ?? '',
        students: row.students ?? [],
      },
    ]),
  );
}

/** One family's details; 404 when there is no such family. */
export async function familyDetails(db: Queryable, familyId: number): Promise<FamilyDetails> {
  const family = (await familiesDetails(db, [familyId])).get(familyId);
  if (!family) throw new NotFoundError('fees.family_not_found', { id: familyId });
  return family;
}

/** The family with its balance and its GST details: state (ADR 063), billing name, address, GSTIN (ADR 065). */
export async function getFeeFamily(db: Queryable, familyId: number): Promise<FeeFamily> {
  const family = await familyDetails(db, familyId);
  return { ...family, balance_paise: await familyBalance(db, familyId), ...(await familyGstDetails(db, familyId)) };
}

/**
 * The fee family of a student (made on first use, so a family can pay in advance before its first
 * charge); 404 for no such student, or a scrubbed one, who belongs to no family any more.
 */
export async function familyOfStudent(tx: Queryable, studentId: number): Promise<number> {
  const [student] = await tx.query<{ parent_phone: string }>('SELECT parent_phone FROM students WHERE id = $1', [
    studentId,
  ]);
  if (!student || student.parent_phone === '') throw new NotFoundError('student.not_found_by_id', { id: studentId });
  return familyIdForPhone(tx, student.parent_phone);
}
