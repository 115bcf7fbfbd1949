/**
 * Writes a demo centre into an empty database, one function per table, inside the caller's
 * transaction. Students, teachers and their sign-in accounts go through the same inserts as the
 * console's (the database gives the codes, an account's username is its teacher's code), then are
 * moved back to the day they joined; the history of marks, messages and the feed is written as it
 * happened, each table in one statement.
 */
import { CLASS_NAMES, type Student, type Teacher } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { type Actor, plural } from '../../lib/activity-log';
import { insertStudents } from '../../modules/students';
import { insertTeachersWithAccounts, type PreparedAccount } from '../../modules/teachers';
import { backdate, insertRows } from './bulk-insert';
import { feedEntry, type WrittenPeople } from './feed';
import type { DemoCentre, DemoConsentChange } from './types';

/** A refusal the user can act on: printed as is, exit code 1. */
export class SeedRefusedError extends Error {}

interface Counts {
  students: number;
  teachers: number;
}

/** Before migrating: a database the server never touched has no tables yet, and counts as empty. */
async function countPeople(db: Queryable): Promise<Counts> {
  const [tables] = await db.query<{ ready: boolean }>(
    "SELECT to_regclass('students') IS NOT NULL AND to_regclass('teachers') IS NOT NULL AS ready",
  );
  if (!tables?.ready) return { students: 0, teachers: 0 };
  const [counts] = await db.query<Counts>(
    'SELECT (SELECT count(*)::int FROM students) AS students, (SELECT count(*)::int FROM teachers) AS teachers',
  );
  return counts as Counts;
}

/** Refuses a database that holds any student or teacher. */
export async function assertNoPeople(db: Queryable): Promise<void> {
  const counts = await countPeople(db);
  if (counts.students === 0 && counts.teachers === 0) return;
  throw new SeedRefusedError(
    `The database is not empty: it holds ${plural(counts.students, 'student')} and ${plural(counts.teachers, 'teacher')}. ` +
      'seed:demo only fills an empty database, so nothing was changed. To look at the demo, run it with a new ' +
      'DATA_DIR (or DATABASE_URL pointing at an empty database).',
  );
}

export interface SeedResult {
  teachers: { unique_id: string; username: string; full_name: string; password: string }[];
  classes: { class_name: string; count: number }[];
  attendance: number;
  pendingDays: string[];
  teacherAttendance: number;
  lockedDays: number;
  sends: number;
  messageRows: number;
  activities: number;
}

/** Students in enrolment order, so the database gives them their STU codes in that order. */
async function writeStudents(tx: Queryable, centre: DemoCentre): Promise<Student[]> {
  const rows = await insertStudents(tx, centre.students);
  const byName = new Map(rows.map((row) => [row.full_name, row]));
  const students = centre.students.map((student) => byName.get(student.full_name) as Student);
  const enrolled = centre.students.map((student, index) => ({
    id: (students[index] as Student).id,
    at: student.created_at,
  }));
  await backdate(tx, 'students', enrolled);
  return students;
}

/** Who the consent log names: the parent for a STOP reply (as the webhook does), else the admin. */
function consentChangedBy(change: DemoConsentChange, admin: Actor): { name: string; userId: number | null } {
  return change.source === 'whatsapp_reply'
    ? { name: 'Parent (WhatsApp reply)', userId: null }
    : { name: admin.full_name, userId: admin.id };
}

/**
 * Each family's WhatsApp consent and language on every child's record, with the last change of its
 * consent, and the consent log as it grew.
 */
async function writeFamilies(tx: Queryable, centre: DemoCentre, students: Student[], admin: Actor): Promise<void> {
  const last = new Map(centre.consents.map((change) => [change.phone, change]));
  const changed = centre.students.map((student) => last.get(student.parent_phone));
  await tx.query(
    `UPDATE students AS s SET parent_whatsapp_opt_in = f.opted_in, parent_language = f.language,
            parent_whatsapp_opt_in_changed_at = f.changed_at, parent_whatsapp_opt_in_changed_by = f.changed_by
       FROM unnest($1::int[], $2::boolean[], $3::text[], $4::timestamptz[], $5::text[])
            AS f (id, opted_in, language, changed_at, changed_by)
      WHERE s.id = f.id`,
    [
      students.map((student) => student.id),
      centre.students.map((student) => student.parent_whatsapp_opt_in),
      centre.students.map((student) => student.parent_language),
      changed.map((change) => change?.at ?? null),
      changed.map((change) => (change ? consentChangedBy(change, admin).name : null)),
    ],
  );
  await insertRows(tx, 'whatsapp_consent_log', centre.consents, {
    phone: ['text', (change) => change.phone],
    opted_in: ['boolean', (change) => change.opted_in],
    source: ['text', (change) => change.source],
    changed_by: ['text', (change) => consentChangedBy(change, admin).name],
    changed_by_user_id: ['int', (change) => consentChangedBy(change, admin).userId],
    changed_at: ['timestamptz', (change) => change.at],
  });
}

type WrittenTeacher = Teacher & { initial_password: string };

/** Teachers and a sign-in account for each, as the Add Teacher dialog makes them. */
async function writeTeachers(
  tx: Queryable,
  centre: DemoCentre,
  accounts: PreparedAccount[],
): Promise<WrittenTeacher[]> {
  const rows = await insertTeachersWithAccounts(tx, centre.teachers, accounts);
  const byEmail = new Map(rows.map((row) => [row.email, row]));
  const teachers = centre.teachers.map((teacher) => byEmail.get(teacher.email) as WrittenTeacher);
  const joined = centre.teachers.map((teacher, index) => ({
    row: teachers[index] as WrittenTeacher,
    at: teacher.created_at,
  }));
  await backdate(
    tx,
    'teachers',
    joined.map(({ row, at }) => ({ id: row.id, at })),
  );
  await backdate(
    tx,
    'users',
    joined.map(({ row, at }) => ({ id: row.user_id as number, at })),
  );
  return teachers;
}

/** Each class's marks, by whoever marked them, and the admin's approval (every day but the open ones). */
async function writeAttendance(tx: Queryable, centre: DemoCentre, people: WrittenPeople): Promise<number> {
  const rows = centre.days.flatMap((day) =>
    day.classes.flatMap((marking) =>
      marking.marks.map((mark) => ({ day, marking, mark, marker: people.teacher(marking.marked_by).account })),
    ),
  );
  const approver = (day: DemoCentre['days'][0]) => (day.approved_at === null ? null : people.admin);
  await insertRows(tx, 'attendance', rows, {
    student_id: ['int', (r) => people.student(r.mark.student).id],
    date: ['date', (r) => r.day.date],
    class_name: ['text', (r) => r.marking.class_name],
    status: ['text', (r) => r.mark.status],
    remarks: ['text', (r) => r.mark.remarks],
    marked_by: ['text', (r) => r.marker.full_name],
    marked_by_user_id: ['int', (r) => r.marker.id],
    marked_at: ['timestamptz', (r) => r.marking.marked_at],
    approved_by: ['text', (r) => approver(r.day)?.full_name ?? null],
    approved_by_user_id: ['int', (r) => approver(r.day)?.id ?? null],
    approved_at: ['timestamptz', (r) => r.day.approved_at],
  });
  return rows.length;
}

/** Teacher attendance, saved by the admin each evening. */
async function writeTeacherAttendance(tx: Queryable, centre: DemoCentre, people: WrittenPeople): Promise<number> {
  const rows = centre.days.flatMap((day) => day.teachers.map((mark) => ({ day, mark })));
  await insertRows(tx, 'teacher_attendance', rows, {
    teacher_id: ['int', (r) => people.teacher(r.mark.teacher).id],
    date: ['date', (r) => r.day.date],
    status: ['text', (r) => r.mark.status],
    remarks: ['text', (r) => r.mark.remarks],
    check_in_time: ['text', (r) => r.mark.check_in_time],
    check_out_time: ['text', (r) => r.mark.check_out_time],
    marked_by_user_id: ['int', () => people.admin.id],
    updated_at: ['timestamptz', (r) => r.day.teachers_marked_at],
  });
  return rows.length;
}

/** The admin's locks on teacher attendance: every day but the open ones. */
async function writeDayLocks(tx: Queryable, centre: DemoCentre, people: WrittenPeople): Promise<number> {
  const locked = centre.days.filter((day) => day.locked_at !== null);
  await insertRows(tx, 'teacher_attendance_locks', locked, {
    date: ['date', (day) => day.date],
    locked_by: ['text', () => people.admin.full_name],
    locked_by_user_id: ['int', () => people.admin.id],
    locked_at: ['timestamptz', (day) => day.locked_at],
  });
  return locked.length;
}

/** Messages to parents: one row per parent phone per send, as the messages module stores them. */
async function writeMessages(tx: Queryable, centre: DemoCentre, people: WrittenPeople): Promise<number> {
  const rows = centre.sends.flatMap((send) =>
    send.recipients.map((recipient) => ({ send, recipient, sender: people.sender(send.sent_by) })),
  );
  await insertRows(tx, 'messages', rows, {
    message_type: ['text', () => 'IN_APP'],
    subject: ['text', (r) => r.send.subject],
    message: ['text', (r) => r.send.message],
    recipient: ['text', (r) => r.recipient.phone],
    recipient_name: ['text', (r) => r.recipient.name],
    sent_by: ['text', (r) => r.sender.full_name],
    sent_by_user_id: ['int', (r) => r.sender.id],
    sent_at: ['timestamptz', (r) => r.send.sent_at],
    delivery_status: ['text', (r) => r.recipient.delivery_status],
    delivered_at: ['timestamptz', (r) => r.recipient.delivered_at],
    failure_reason: ['text', (r) => r.recipient.failure_reason],
  });
  return rows.length;
}

/** The activity feed, in the order things happened. */
async function writeActivities(tx: Queryable, centre: DemoCentre, people: WrittenPeople): Promise<number> {
  const feed = centre.activities.map((activity) => feedEntry(activity, centre, people));
  await insertRows(tx, 'activities', feed, {
    user_id: ['int', (entry) => entry.actor.id],
    actor: ['text', (entry) => entry.actor.full_name],
    action: ['text', (entry) => entry.action],
    description: ['text', (entry) => entry.description],
    created_at: ['timestamptz', (entry) => entry.at],
  });
  return feed.length;
}

/** Every row of the demo, inside `tx`; refuses (SeedRefusedError) a database that holds people. */
export async function writeDemo(tx: Queryable, centre: DemoCentre, accounts: PreparedAccount[]): Promise<SeedResult> {
  // Nothing may slip in between the check and the writes (PostgreSQL: a server or import elsewhere).
  await tx.query('LOCK TABLE students, teachers IN EXCLUSIVE MODE');
  await assertNoPeople(tx);
  const [admin] = await tx.query<Actor>(
    "SELECT id, full_name FROM users WHERE role = 'admin' ORDER BY (lower(username) = 'admin') DESC, id LIMIT 1",
  );
  if (!admin) throw new SeedRefusedError('There is no admin account to attribute the demo to; nothing was changed.');

  const students = await writeStudents(tx, centre);
  await writeFamilies(tx, centre, students, admin);
  const teachers = await writeTeachers(tx, centre, accounts);
  const teacher = (index: number) => {
    const row = teachers[index] as (typeof teachers)[0];
    return { ...row, account: { id: row.user_id as number, full_name: row.full_name } };
  };
  const people: WrittenPeople = {
    admin,
    student: (index) => students[index] as Student,
    teacher,
    sender: (index) => (index === null ? admin : teacher(index).account),
  };

  const attendance = await writeAttendance(tx, centre, people);
  const teacherAttendance = await writeTeacherAttendance(tx, centre, people);
  const lockedDays = await writeDayLocks(tx, centre, people);
  const messageRows = await writeMessages(tx, centre, people);
  const activities = await writeActivities(tx, centre, people);

  const classCounts = new Map<string, number>(CLASS_NAMES.map((name) => [name, 0]));
  for (const s of centre.students) classCounts.set(s.class_name, (classCounts.get(s.class_name) ?? 0) + 1);
  return {
    teachers: teachers.map((row) => ({
      unique_id: row.unique_id,
      username: row.unique_id,
      full_name: row.full_name,
      password: row.initial_password,
    })),
    classes: [...classCounts].map(([class_name, count]) => ({ class_name, count })),
    attendance,
    pendingDays: centre.days.filter((day) => day.approved_at === null).map((day) => day.date),
    teacherAttendance,
    lockedDays,
    sends: centre.sends.length,
    messageRows,
    activities,
  };
}
