import {
  errorDetail,
  formatAccessCode,
  type ParentAccessIssued,
  type ParentAccessStatus,
  type Role,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors';
import { readCentreName } from '../centre';
import { notifyFamilyDevices, signOutFamilyDevices } from '../delivery';
import { generateAccessCode, hashAccessCode } from './access-codes';
import { familyTexts } from './family-texts';
import {
  type AccessStudent,
  countPushSubscriptions,
  findChildren,
  findFamilyLanguage,
  findParentAccess,
  findParentName,
  findStudentForAccess,
  insertFamilyNotice,
  insertFirstParentAccess,
  upsertParentAccess,
} from './repository';

/**
 * Who may give a family its app, take it away, or move a child to another phone (ADR 018): one staff
 * account must not be able to take a family's app over. Either role issues a family's first code (a
 * teacher at the door); only an admin replaces a code (which signs the family's devices out) or
 * changes the phone of a family that has one. Each replacement or phone change tells the family's
 * devices with an access notice, through the push outbox, and shows in the staff history.
 */

/** A staff member acting: the activity feed's actor, with the role that decides what they may do. */
export type StaffActor = Actor & { role: Role };

const FIRST_CODE_MESSAGE = 'Access code issued. Give it to the parent now: it cannot be shown again.';
const NEW_CODE_MESSAGE =
  "New access code issued. The parent's devices have been signed out and told. Give them the new code: it cannot be shown again.";

/** The English of two refusals, as the details say them (tests and the console's copy compare them). */
export const REPLACE_NEEDS_ADMIN = errorDetail({ code: 'parents.replace_needs_admin', params: {} });
export const PHONE_CHANGE_NEEDS_ADMIN = errorDetail({ code: 'parents.phone_change_needs_admin', params: {} });

/** The notice, as the family's devices show it (title, then body), in English. */
export const ACCESS_NOTICE_SUBJECT = familyTexts('en').accessNoticeSubject;
export const CODE_REPLACED_NOTICE = familyTexts('en').codeReplacedNotice;
export function phoneChangedNotice(childName: string): string {
  return familyTexts('en').phoneChangedNotice(childName);
}

async function requireStudent(db: Queryable, studentId: number, lock = false): Promise<AccessStudent> {
  const student = await findStudentForAccess(db, studentId, lock);
  if (!student) throw new NotFoundError('student.not_found');
  return student;
}

/** A family is given the app through a child who attends (a scrubbed one has no phone at all). */
function leftRefusal(student: AccessStudent): ConflictError {
  return new ConflictError('parents.student_left', { name: student.full_name });
}

async function accessStatus(db: Queryable, phone: string, role: Role): Promise<ParentAccessStatus> {
  const [children, parentName, access, devices] = [
    await findChildren(db, phone),
    await findParentName(db, phone),
    await findParentAccess(db, phone),
    await countPushSubscriptions(db, phone),
  ];
  return {
    phone,
    parent_name: parentName,
    children,
    has_code: access !== undefined,
    issued_at: access?.issued_at ?? null,
    issued_by: access?.issued_by ?? null,
    last_sign_in_at: access?.last_sign_in_at ?? null,
    devices_with_notifications: devices,
    can_replace_code: role === 'admin',
  };
}

/** The state of a student's parent's access; never the code, which is not stored. */
export async function getParentAccess(
  ctx: AppContext,
  viewer: { role: Role },
  studentId: number,
): Promise<ParentAccessStatus> {
  const student = await requireStudent(ctx.db, studentId);
  return accessStatus(ctx.db, student.parent_phone, viewer.role);
}

/**
 * Stores a phone's new code inside the caller's transaction: its first (undefined when it has one and
 * `mayReplace` is false, or another request gave it one meanwhile), or a replacement, which ends the
 * devices' sessions and tells them with an access notice in the family's language.
 */
export async function writeFamilyAccess(
  tx: Queryable,
  phone: string,
  codeHash: string,
  actor: Actor,
  mayReplace: boolean,
): Promise<{ first: boolean; told: number } | undefined> {
  const access = mayReplace
    ? await upsertParentAccess(tx, phone, codeHash, actor)
    : await insertFirstParentAccess(tx, phone, codeHash, actor);
  if (!access) return undefined;
  if (access.token_version === 0) return { first: true, told: 0 };
  // Told in the family's language (the server's own words, from its catalogue).
  const language = await findFamilyLanguage(tx, phone);
  const texts = familyTexts(language);
  const noticeId = await insertFamilyNotice(tx, {
    kind: 'access_notice',
    phone,
    recipientName: await findParentName(tx, phone),
    subject: texts.accessNoticeSubject,
    message: texts.codeReplacedNotice,
    language,
    sender: actor,
  });
  return { first: false, told: await signOutFamilyDevices(tx, phone, noticeId) };
}

/**
 * Issues the student's parent phone its first code, or (admins) a new one. A teacher's request for a
 * phone that has a code is refused before the hash, and again atomically in the transaction (an
 * insert that does nothing on conflict), so teachers issuing at once leave one code. Replacing bumps
 * the token version (every device signed in with the old code gets 401), revokes the devices'
 * subscriptions and queues the access notice to each, in one transaction with the activity row.
 */
export async function issueParentAccess(
  ctx: AppContext,
  actor: StaffActor,
  studentId: number,
): Promise<ParentAccessIssued> {
  const student = await requireStudent(ctx.db, studentId);
  if (student.left_on !== null) throw leftRefusal(student);
  const mayReplace = actor.role === 'admin';
  if (!mayReplace && (await findParentAccess(ctx.db, student.parent_phone)))
    throw new ForbiddenError('parents.replace_needs_admin');
  const code = generateAccessCode();
  // Hashed before the transaction: no connection waits on the hash.
  const codeHash = await hashAccessCode(code);
  const centre = await readCentreName(ctx.db);
  const { status, isFirst, devicesTold, language } = await ctx.db.transaction(async (tx) => {
    // Locked: a concurrent edit of this student's phone lands wholly before or after the code.
    const current = await requireStudent(tx, studentId, true);
    if (current.left_on !== null) throw leftRefusal(current);
    const phone = current.parent_phone;
    const written = await writeFamilyAccess(tx, phone, codeHash, actor, mayReplace);
    if (!written) throw new ForbiddenError('parents.replace_needs_admin');
    const { first, told } = written;
    const parentName = await findParentName(tx, phone);
    await recordActivity(
      tx,
      actor,
      first ? 'parents.access_issued' : 'parents.access_reissued',
      first ? 'parents.access_issued' : 'parents.access_reissued',
      { parent: parentName, phone },
    );
    return {
      status: await accessStatus(tx, phone, actor.role),
      isFirst: first,
      devicesTold: told,
      language: await findFamilyLanguage(tx, phone),
    };
  });
  if (devicesTold > 0) ctx.push.wake();
  const shown = formatAccessCode(code);
  return {
    ...status,
    code: shown,
    message: isFirst ? FIRST_CODE_MESSAGE : NEW_CODE_MESSAGE,
    // The words a class's codes are shared with (ADR 047), in the family's language.
    share_text: familyTexts(language).slip({ centre, phone: status.phone, code: shown }).share_text,
  };
}

export interface PhoneChange {
  /** For the student's activity row: the phone it changed from and to. */
  oldPhone: string;
  newPhone: string;
  /** A notice was queued: wake the push worker after the commit. */
  queued: boolean;
}

/**
 * A student's parent phone is about to change (inside the edit's transaction, the student row
 * locked). When the current phone has an access code, only an admin may do it (a teacher could
 * otherwise move a child to their own phone and issue that phone its first code), and the family's
 * devices are told. Undefined when the current phone has no code: nothing to guard or tell.
 */
export async function changeFamilyPhone(
  tx: Queryable,
  actor: StaffActor,
  student: { full_name: string; parent_phone: string },
  newPhone: string,
): Promise<PhoneChange | undefined> {
  const oldPhone = student.parent_phone;
  if (!(await findParentAccess(tx, oldPhone))) return undefined;
  if (actor.role !== 'admin') throw new ForbiddenError('parents.phone_change_needs_admin');
  const language = await findFamilyLanguage(tx, oldPhone);
  const texts = familyTexts(language);
  const noticeId = await insertFamilyNotice(tx, {
    kind: 'access_notice',
    phone: oldPhone,
    recipientName: await findParentName(tx, oldPhone),
    subject: texts.accessNoticeSubject,
    message: texts.phoneChangedNotice(student.full_name),
    language,
    sender: actor,
  });
  const queued = await notifyFamilyDevices(tx, noticeId);
  return {
    oldPhone,
    newPhone,
    queued,
  };
}
