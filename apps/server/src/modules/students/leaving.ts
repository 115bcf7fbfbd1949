import type { Student, StudentSettings } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Database, Queryable } from '../../db/database';
import { type ActivityActor, type Actor, recordActivity } from '../../lib/activity-log';
import { eraseFromAudit } from '../../lib/audit-log';
import { eraseFamilyTexts, eraseStudentTexts, familiesNoLongerOnRecord } from '../../lib/erasure';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { readableDate, today } from '../../lib/time';
import { eraseFromActivities } from '../activities';
import { forgetConversations } from '../conversations';
import { lockAllFamilies, lockFamily } from '../families';
import {
  findStudent,
  findStudentForUpdate,
  forgetFamilies,
  hasStudentsToScrub,
  SCRUB_LEFT_AFTER_MONTHS,
  scrubLeaveRequests,
  scrubLeftStudents,
  setLeftOn,
} from './repository';

/**
 * Students who leave (ADR 027): marked as having left on a day rather than deleted, so their
 * attendance and messages stay in history and reports; restored while their data is kept; scrubbed of
 * personal data scrub_left_after_months after that day.
 */

/** Who the scrub is recorded as: the server itself, not a staff account. */
export const SYSTEM_ACTOR: ActivityActor = { id: null, full_name: 'System' };

/** The student, locked, once its family (phone) is held: the family first, then its rows, as every writer. */
async function lockStudent(tx: Queryable, id: number): Promise<Student> {
  for (;;) {
    const seen = await findStudent(tx, id);
    if (!seen) throw new NotFoundError('student.not_found_by_id', { id });
    await lockFamily(tx, seen.parent_phone);
    const current = await findStudentForUpdate(tx, id);
    if (!current) throw new NotFoundError('student.not_found_by_id', { id });
    if (current.parent_phone === seen.parent_phone) return current;
  }
}

/**
 * The student left on `leftOn` (today when not given): a day in the future is refused, one before
 * their first attendance is not (a centre may record a leaving late, or a student who never came).
 */
export async function markStudentLeft(
  ctx: AppContext,
  actor: Actor,
  id: number,
  leftOn: string | undefined,
): Promise<Student> {
  const day = leftOn ?? today();
  if (day > today()) throw new ValidationError('left_on', 'validation.left_on_future');
  return ctx.db.transaction(async (tx) => {
    const student = await lockStudent(tx, id);
    if (student.left_on !== null) {
      throw new ConflictError('student.already_left', {
        name: student.full_name,
        left_on: readableDate(student.left_on),
      });
    }
    const updated = await setLeftOn(tx, id, day);
    await recordActivity(tx, actor, 'student.left', 'student.left', {
      name: student.full_name,
      unique_id: student.unique_id,
      date: day,
    });
    return updated;
  });
}

/** Back on the lists, rosters and messages, as before; not once their personal data was removed. */
export async function restoreStudent(ctx: AppContext, actor: Actor, id: number): Promise<Student> {
  return ctx.db.transaction(async (tx) => {
    const student = await lockStudent(tx, id);
    if (student.left_on === null) throw new ConflictError('student.not_left', { name: student.full_name });
    if (student.scrubbed_at !== null) {
      throw new ConflictError('student.scrubbed_no_restore', { name: student.full_name });
    }
    const restored = await setLeftOn(tx, id, null);
    await recordActivity(tx, actor, 'student.restored', 'student.restored', {
      name: student.full_name,
      unique_id: student.unique_id,
      date: student.left_on,
    });
    return restored;
  });
}

export async function getStudentSettings(ctx: AppContext): Promise<StudentSettings> {
  return { scrub_left_after_months: await SCRUB_LEFT_AFTER_MONTHS.read(ctx.db) };
}

export async function updateStudentSettings(
  ctx: AppContext,
  actor: Actor,
  update: StudentSettings,
): Promise<StudentSettings> {
  return ctx.db.transaction(async (tx) => {
    const months = update.scrub_left_after_months;
    const { before } = await SCRUB_LEFT_AFTER_MONTHS.change(tx, months);
    await recordActivity(tx, actor, 'settings.updated', 'settings.scrub_months', { months, before });
    return { scrub_left_after_months: update.scrub_left_after_months };
  });
}

/** The calendar day `months` months before `day` (the 31st falls back to the month's last day). */
export function monthsBefore(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 - months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, lastDay));
  return first.toISOString().slice(0, 10);
}

/**
 * The daily job: removes the personal data of students who left more than scrub_left_after_months
 * ago (their names wherever the centre's records wrote them: remarks, leave reasons, the texts about
 * them, the activity feed, the audit log), and of each family left with no student at all: its
 * access, devices, phone, WhatsApp conversation, the texts it was sent and its names. Batches of
 * SCRUB_LIMIT, each one transaction with its activity row. It holds every family (as an import does)
 * before touching a row, so two instances running it at once take turns, and the second finds nothing
 * left to do; a student restored or edited meanwhile is either done first or waits for the scrub.
 * Answers how many students it scrubbed.
 */
export async function scrubStudentsWhoLeft(db: Database, now: Date = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const months = await SCRUB_LEFT_AFTER_MONTHS.read(tx);
      const leftBefore = monthsBefore(today(now), months);
      if (!(await hasStudentsToScrub(tx, leftBefore))) return { count: 0, more: false };
      await lockAllFamilies(tx);
      const scrubbed = await scrubLeftStudents(tx, leftBefore);
      if (scrubbed.length === 0) return { count: 0, more: false };
      const ids = scrubbed.map((student) => student.id);
      const phones = scrubbed.map((student) => student.phone);
      await scrubLeaveRequests(tx, ids);
      await eraseStudentTexts(tx, scrubbed);
      // The families no student holds any more: their texts first (while the messages still name
      // their phone), then their access, devices, consent log and recipients, their conversation.
      const gone = await familiesNoLongerOnRecord(tx, phones);
      const familyMessageIds = await eraseFamilyTexts(tx, gone);
      const families = await forgetFamilies(tx, phones);
      await forgetConversations(tx, families);
      await eraseFromActivities(tx, scrubbed, families);
      // Last, so the audit rows this scrub wrote itself lose what it removed too.
      await eraseFromAudit(tx, ids, families, familyMessageIds);
      await recordActivity(tx, SYSTEM_ACTOR, 'student.scrubbed', 'student.scrubbed', {
        count: scrubbed.length,
        months,
        families: families.length,
      });
      return { count: scrubbed.length, more: true };
    });
    total += batch.count;
    if (!batch.more) return total;
  }
}
