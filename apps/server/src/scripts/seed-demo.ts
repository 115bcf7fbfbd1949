/**
 * `npm run seed:demo`: fills an EMPTY database with a demo centre (demo-data.ts), on the same
 * configuration as the server (DATA_DIR with PGlite, or DATABASE_URL). It takes the data directory's
 * lock, so it never runs beside a server; it refuses a database that holds any student or teacher;
 * and it writes every row in one transaction, so it either seeds everything or nothing.
 */
import { CLASS_NAMES } from '@tuitiondesk/contract';
import { prepareContext } from '../bootstrap';
import { ConfigError, loadConfig } from '../config';
import type { Queryable } from '../db/database';
import { withConfiguredDatabase } from '../db/open';
import { plural } from '../lib/activity-log';
import { adminPasswordProblem } from '../lib/password-policy';
import { GENERATED_PASSWORD_COST, generatePassword, hashPassword } from '../lib/passwords';
import { buildDemoCentre, type DemoActivity, type DemoCentre } from './demo-data';
import { runScript } from './run-script';

/** A refusal the user can act on: printed as is, exit code 1. */
class SeedRefusedError extends Error {}

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

function assertEmpty(counts: Counts): void {
  if (counts.students === 0 && counts.teachers === 0) return;
  throw new SeedRefusedError(
    `The database is not empty: it holds ${plural(counts.students, 'student')} and ${plural(counts.teachers, 'teacher')}. ` +
      'seed:demo only fills an empty database, so nothing was changed. To look at the demo, run it with a new ' +
      'DATA_DIR (or DATABASE_URL pointing at an empty database).',
  );
}

interface Actor {
  id: number;
  full_name: string;
}

interface SeedResult {
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

/** Every row of the demo, in one transaction and a dozen statements. */
async function writeDemo(
  tx: Queryable,
  centre: DemoCentre,
  accounts: { password: string; hash: string }[],
): Promise<SeedResult> {
  // Nothing may slip in between the check and the writes (PostgreSQL: a server or import elsewhere).
  await tx.query('LOCK TABLE students, teachers IN EXCLUSIVE MODE');
  assertEmpty(await countPeople(tx));

  const [admin] = await tx.query<Actor>(
    "SELECT id, full_name FROM users WHERE role = 'admin' ORDER BY (lower(username) = 'admin') DESC, id LIMIT 1",
  );
  if (!admin) throw new SeedRefusedError('There is no admin account to attribute the demo to; nothing was changed.');

  // Students, in enrolment order: the database gives each its STU code.
  const { students } = centre;
  const studentRows = await tx.query<{ id: number; unique_id: string; full_name: string }>(
    `INSERT INTO students (full_name, class_name, parent_name, parent_phone, created_at, updated_at)
     SELECT s.full_name, s.class_name, s.parent_name, s.parent_phone, s.created_at, s.created_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
            WITH ORDINALITY AS s (full_name, class_name, parent_name, parent_phone, created_at, position)
      ORDER BY s.position
     RETURNING id, unique_id, full_name`,
    [
      students.map((s) => s.full_name),
      students.map((s) => s.class_name),
      students.map((s) => s.parent_name),
      students.map((s) => s.parent_phone),
      students.map((s) => s.created_at),
    ],
  );
  const studentByName = new Map(studentRows.map((row) => [row.full_name, row]));
  const student = (index: number) => studentByName.get(students[index]?.full_name as string) as (typeof studentRows)[0];

  // Teachers, then a sign-in account for each (username = the teacher's code, as the teachers module does).
  const { teachers } = centre;
  const teacherRows = await tx.query<{ id: number; unique_id: string; full_name: string; email: string }>(
    `INSERT INTO teachers (first_name, last_name, full_name, email, phone_number, subjects, classes_assigned,
                           qualification, experience_years, address, emergency_contact, created_at, updated_at)
     SELECT t.first_name, t.last_name, t.first_name || ' ' || t.last_name, t.email, t.phone_number,
            string_to_array(t.subjects, '|'), string_to_array(t.classes, '|'), t.qualification, t.experience_years,
            t.address, t.emergency_contact, t.created_at, t.created_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[],
                   $9::text[], $10::text[], $11::timestamptz[])
            WITH ORDINALITY AS t (first_name, last_name, email, phone_number, subjects, classes, qualification,
                                  experience_years, address, emergency_contact, created_at, position)
      ORDER BY t.position
     RETURNING id, unique_id, full_name, email`,
    [
      teachers.map((t) => t.first_name),
      teachers.map((t) => t.last_name),
      teachers.map((t) => t.email),
      teachers.map((t) => t.phone_number),
      teachers.map((t) => t.subjects.join('|')),
      teachers.map((t) => t.classes_assigned.join('|')),
      teachers.map((t) => t.qualification),
      teachers.map((t) => t.experience_years),
      teachers.map((t) => t.address),
      teachers.map((t) => t.emergency_contact),
      teachers.map((t) => t.created_at),
    ],
  );
  const teacherByEmail = new Map(teacherRows.map((row) => [row.email, row]));
  const teacherRow = (index: number) => teacherByEmail.get(teachers[index]?.email as string) as (typeof teacherRows)[0];
  const ordered = teachers.map((_, index) => teacherRow(index));

  const userRows = await tx.query<{ id: number; username: string }>(
    `INSERT INTO users (username, full_name, role, password_hash, must_change_password, created_at, updated_at)
     SELECT a.username, a.full_name, 'teacher', a.password_hash, true, a.created_at, a.created_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])
            AS a (username, full_name, password_hash, created_at)
     RETURNING id, username`,
    [
      ordered.map((t) => t.unique_id),
      ordered.map((t) => t.full_name),
      accounts.map((a) => a.hash),
      teachers.map((t) => t.created_at),
    ],
  );
  const userByUsername = new Map(userRows.map((row) => [row.username, row.id]));
  await tx.query(
    `UPDATE teachers t SET user_id = a.user_id
       FROM unnest($1::int[], $2::int[]) AS a (teacher_id, user_id)
      WHERE t.id = a.teacher_id`,
    [ordered.map((t) => t.id), ordered.map((t) => userByUsername.get(t.unique_id) as number)],
  );
  const teacherActor = (index: number): Actor => {
    const row = ordered[index] as (typeof ordered)[0];
    return { id: userByUsername.get(row.unique_id) as number, full_name: row.full_name };
  };

  // Student attendance: the class at the time, who marked it, and the admin's approval (older days).
  const attendance = centre.days.flatMap((day) =>
    day.classes.flatMap((marking) =>
      marking.marks.map((mark) => ({ day, marking, mark, marker: teacherActor(marking.marked_by) })),
    ),
  );
  await tx.query(
    `INSERT INTO attendance (student_id, date, class_name, status, remarks, marked_by, marked_by_user_id, marked_at,
                             approved_by, approved_by_user_id, approved_at)
     SELECT a.student_id, a.date, a.class_name, a.status, a.remarks, a.marked_by, a.marked_by_user_id, a.marked_at,
            CASE WHEN a.approved_at IS NULL THEN NULL ELSE $10 END,
            CASE WHEN a.approved_at IS NULL THEN NULL ELSE $11::int END,
            a.approved_at
       FROM unnest($1::int[], $2::date[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
                   $8::timestamptz[], $9::timestamptz[])
            AS a (student_id, date, class_name, status, remarks, marked_by, marked_by_user_id, marked_at, approved_at)`,
    [
      attendance.map((a) => student(a.mark.student).id),
      attendance.map((a) => a.day.date),
      attendance.map((a) => a.marking.class_name),
      attendance.map((a) => a.mark.status),
      attendance.map((a) => a.mark.remarks),
      attendance.map((a) => a.marker.full_name),
      attendance.map((a) => a.marker.id),
      attendance.map((a) => a.marking.marked_at),
      attendance.map((a) => a.day.approved_at),
      admin.full_name,
      admin.id,
    ],
  );

  // Teacher attendance, marked by the admin each evening; all but the last days locked.
  const teacherMarks = centre.days.flatMap((day) => day.teachers.map((mark) => ({ day, mark })));
  await tx.query(
    `INSERT INTO teacher_attendance (teacher_id, date, status, remarks, check_in_time, check_out_time,
                                     marked_by_user_id, updated_at)
     SELECT m.teacher_id, m.date, m.status, m.remarks, m.check_in_time, m.check_out_time, $8, m.updated_at
       FROM unnest($1::int[], $2::date[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
            AS m (teacher_id, date, status, remarks, check_in_time, check_out_time, updated_at)`,
    [
      teacherMarks.map((m) => teacherRow(m.mark.teacher).id),
      teacherMarks.map((m) => m.day.date),
      teacherMarks.map((m) => m.mark.status),
      teacherMarks.map((m) => m.mark.remarks),
      teacherMarks.map((m) => m.mark.check_in_time),
      teacherMarks.map((m) => m.mark.check_out_time),
      teacherMarks.map((m) => m.day.teachers_marked_at),
      admin.id,
    ],
  );
  const lockedDays = centre.days.filter((day) => day.locked_at !== null);
  await tx.query(
    `INSERT INTO teacher_attendance_locks (date, locked_by, locked_by_user_id, locked_at)
     SELECT l.date, $3, $4, l.locked_at FROM unnest($1::date[], $2::timestamptz[]) AS l (date, locked_at)`,
    [lockedDays.map((day) => day.date), lockedDays.map((day) => day.locked_at), admin.full_name, admin.id],
  );

  // Messages to parents: one row per parent phone per send, as the messages module stores them.
  const senderOf = (index: number | null): Actor => (index === null ? admin : teacherActor(index));
  const messageRows = centre.sends.flatMap((send) =>
    send.recipients.map((recipient) => ({ send, recipient, sender: senderOf(send.sent_by) })),
  );
  await tx.query(
    `INSERT INTO messages (message_type, subject, message, recipient, recipient_name, sent_by, sent_by_user_id,
                           sent_at, delivery_status, delivered_at, failure_reason)
     SELECT 'IN_APP', m.subject, m.message, m.recipient, m.recipient_name, m.sent_by, m.sent_by_user_id, m.sent_at,
            m.delivery_status, m.delivered_at, m.failure_reason
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::timestamptz[],
                   $8::text[], $9::timestamptz[], $10::text[])
            WITH ORDINALITY AS m (subject, message, recipient, recipient_name, sent_by, sent_by_user_id, sent_at,
                                  delivery_status, delivered_at, failure_reason, position)
      ORDER BY m.position`,
    [
      messageRows.map((m) => m.send.subject),
      messageRows.map((m) => m.send.message),
      messageRows.map((m) => m.recipient.phone),
      messageRows.map((m) => m.recipient.name),
      messageRows.map((m) => m.sender.full_name),
      messageRows.map((m) => m.sender.id),
      messageRows.map((m) => m.send.sent_at),
      messageRows.map((m) => m.recipient.delivery_status),
      messageRows.map((m) => m.recipient.delivered_at),
      messageRows.map((m) => m.recipient.failure_reason),
    ],
  );

  // The activity feed, worded as the modules word it.
  const describe = (activity: DemoActivity): { actor: Actor; action: string; description: string } => {
    switch (activity.kind) {
      case 'students_imported':
        return {
          actor: admin,
          action: 'student.imported',
          description: `${admin.full_name} imported ${plural(activity.count, 'student')} from an Excel file`,
        };
      case 'student_created': {
        const row = student(activity.student);
        const { class_name } = students[activity.student] as (typeof students)[0];
        return {
          actor: admin,
          action: 'student.created',
          description: `${admin.full_name} added student ${row.full_name} (${row.unique_id}) to Class ${class_name}`,
        };
      }
      case 'teacher_created': {
        const row = teacherRow(activity.teacher);
        return {
          actor: admin,
          action: 'teacher.created',
          description: `${admin.full_name} added teacher ${row.full_name} (${row.unique_id})`,
        };
      }
      case 'attendance_marked': {
        const actor = teacherActor(activity.teacher);
        return {
          actor,
          action: 'attendance.marked',
          description: `${actor.full_name} marked attendance for ${plural(activity.count, 'student')} of class ${activity.class_name} on ${activity.date}`,
        };
      }
      case 'attendance_approved':
        return {
          actor: admin,
          action: 'attendance.approved',
          description: `${admin.full_name} approved ${plural(activity.count, 'attendance record')}`,
        };
      case 'teacher_attendance_marked':
        return {
          actor: admin,
          action: 'teacher_attendance.marked',
          description: `${admin.full_name} saved teacher attendance for ${plural(activity.count, 'teacher')} on ${activity.date}`,
        };
      case 'teacher_attendance_locked':
        return {
          actor: admin,
          action: 'teacher_attendance.locked',
          description: `${admin.full_name} locked teacher attendance for ${activity.date} (${plural(activity.count, 'teacher')} marked)`,
        };
      case 'sent_to_parents': {
        const send = centre.sends[activity.send] as (typeof centre.sends)[0];
        const actor = senderOf(send.sent_by);
        return {
          actor,
          action: 'messages.sent_to_parents',
          description: `${actor.full_name} sent "${send.subject}" to ${plural(send.recipients.length, 'parent')} of ${
            send.class_name ? `Class ${send.class_name}` : 'all classes'
          }`,
        };
      }
    }
  };
  const feed = centre.activities.map((activity) => ({ at: activity.at, ...describe(activity) }));
  await tx.query(
    `INSERT INTO activities (user_id, actor, action, description, created_at)
     SELECT a.user_id, a.actor, a.action, a.description, a.created_at
       FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
            WITH ORDINALITY AS a (user_id, actor, action, description, created_at, position)
      ORDER BY a.position`,
    [
      feed.map((a) => a.actor.id),
      feed.map((a) => a.actor.full_name),
      feed.map((a) => a.action),
      feed.map((a) => a.description),
      feed.map((a) => a.at),
    ],
  );

  const classCounts = new Map<string, number>(CLASS_NAMES.map((name) => [name, 0]));
  for (const s of students) classCounts.set(s.class_name, (classCounts.get(s.class_name) ?? 0) + 1);
  return {
    teachers: ordered.map((row, index) => ({
      unique_id: row.unique_id,
      username: row.unique_id,
      full_name: row.full_name,
      password: (accounts[index] as (typeof accounts)[0]).password,
    })),
    classes: [...classCounts].map(([class_name, count]) => ({ class_name, count })),
    attendance: attendance.length,
    pendingDays: centre.days.filter((day) => day.approved_at === null).map((day) => day.date),
    teacherAttendance: teacherMarks.length,
    lockedDays: lockedDays.length,
    sends: centre.sends.length,
    messageRows: messageRows.length,
    activities: feed.length,
  };
}

function report(result: SeedResult, days: number, seconds: number, generatedAdminPassword: string | undefined): string {
  const lines = [
    '',
    `Demo centre created in ${seconds.toFixed(1)} s:`,
    `  ${plural(
      result.classes.reduce((sum, c) => sum + c.count, 0),
      'student',
    )} (${result.classes.map((c) => `Class ${c.class_name}: ${c.count}`).join(', ')})`,
    `  ${plural(result.teachers.length, 'teacher')}, each with a sign-in account`,
    `  ${plural(result.attendance, 'attendance record')} over ${plural(days, 'school day')}` +
      ` (waiting for approval: ${result.pendingDays.join(', ') || 'none'})`,
    `  ${plural(result.teacherAttendance, 'teacher attendance record')} (${plural(result.lockedDays, 'day')} locked)`,
    `  ${plural(result.sends, 'message')} to parents (${plural(result.messageRows, 'recipient')})`,
    `  ${plural(result.activities, 'activity entry', 'activity entries')}`,
    '',
  ];
  if (generatedAdminPassword) {
    lines.push(
      'Admin account (shown once; it must be changed at first sign-in):',
      '  username: admin',
      `  password: ${generatedAdminPassword}`,
      '',
    );
  } else {
    lines.push('Admin account: admin (it existed already, or its password is ADMIN_PASSWORD).', '');
  }
  const nameWidth = Math.max(4, ...result.teachers.map((t) => t.full_name.length));
  lines.push(
    'Teacher sign-in accounts (shown once; each must change the password at first sign-in):',
    `  ${'username'.padEnd(10)}${'name'.padEnd(nameWidth + 2)}password`,
    ...result.teachers.map((t) => `  ${t.username.padEnd(10)}${t.full_name.padEnd(nameWidth + 2)}${t.password}`),
    '',
  );
  return lines.join('\n');
}

async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const adminProblem = adminPasswordProblem(config.adminPassword);
  if (adminProblem) throw new ConfigError(`Invalid configuration:\n  ADMIN_PASSWORD: ${adminProblem}`);

  await withConfiguredDatabase(config.database, async (db) => {
    // Refuse before anything is written, migrations and admin account included.
    assertEmpty(await countPeople(db));
    const centre = buildDemoCentre();
    // Hashing is the slow part; done before the transaction, as the teachers module does.
    const accounts = await Promise.all(
      centre.teachers.map(async () => {
        const password = generatePassword();
        return { password, hash: await hashPassword(password, GENERATED_PASSWORD_COST) };
      }),
    );
    const { generatedAdminPassword } = await prepareContext(config, db);
    const result = await db.transaction((tx) => writeDemo(tx, centre, accounts));
    process.stdout.write(
      report(result, centre.days.length, (performance.now() - started) / 1000, generatedAdminPassword),
    );
  });
}

runScript(main, {
  locked: 'seed:demo did not run: stop the server, run npm run seed:demo, then start the server again.',
  known: (error) => (error instanceof SeedRefusedError ? error.message : undefined),
  failed: 'seed:demo failed, nothing was seeded',
});
