/**
 * The demo's activity feed, worded as the modules word their own entries, once the database has
 * given the students and teachers their codes.
 */
import { type Actor, plural } from '../../lib/activity-log';
import { readableDate } from '../../lib/time';
import type { DemoActivity, DemoCentre } from './types';

/** The people the demo's rows name, as the database has them. */
export interface WrittenPeople {
  admin: Actor;
  /** By place in the centre's `students`. */
  student: (index: number) => { id: number; unique_id: string; full_name: string };
  /** By place in the centre's `teachers`: the teacher's record and sign-in account. */
  teacher: (index: number) => { id: number; unique_id: string; full_name: string; account: Actor };
  /** A send's sender: a teacher's account, or the admin (null). */
  sender: (index: number | null) => Actor;
}

export interface FeedEntry {
  at: string;
  actor: Actor;
  action: string;
  description: string;
}

export function feedEntry(activity: DemoActivity, centre: DemoCentre, people: WrittenPeople): FeedEntry {
  const { admin } = people;
  const entry = (actor: Actor, action: string, description: string) => ({
    at: activity.at,
    actor,
    action,
    description,
  });
  switch (activity.kind) {
    case 'students_imported':
      return entry(
        admin,
        'student.imported',
        `${admin.full_name} imported ${plural(activity.count, 'student')} from an Excel file`,
      );
    case 'student_created': {
      const row = people.student(activity.student);
      const { class_name } = centre.students[activity.student] as (typeof centre.students)[0];
      return entry(
        admin,
        'student.created',
        `${admin.full_name} added student ${row.full_name} (${row.unique_id}) to Class ${class_name}`,
      );
    }
    case 'teacher_created': {
      const row = people.teacher(activity.teacher);
      return entry(admin, 'teacher.created', `${admin.full_name} added teacher ${row.full_name} (${row.unique_id})`);
    }
    case 'attendance_marked': {
      const { account } = people.teacher(activity.teacher);
      return entry(
        account,
        'attendance.marked',
        `${account.full_name} marked attendance for ${plural(activity.count, 'student')} of Class ${activity.class_name} on ${readableDate(activity.date)}`,
      );
    }
    case 'attendance_approved':
      return entry(
        admin,
        'attendance.approved',
        `${admin.full_name} approved ${plural(activity.count, 'attendance record')}`,
      );
    case 'teacher_attendance_marked':
      return entry(
        admin,
        'teacher_attendance.marked',
        `${admin.full_name} saved teacher attendance for ${plural(activity.count, 'teacher')} on ${readableDate(activity.date)}`,
      );
    case 'teacher_attendance_locked':
      return entry(
        admin,
        'teacher_attendance.locked',
        `${admin.full_name} locked teacher attendance for ${readableDate(activity.date)} (${plural(activity.count, 'teacher')} marked)`,
      );
    case 'sent_to_parents': {
      const send = centre.sends[activity.send] as (typeof centre.sends)[0];
      const actor = people.sender(send.sent_by);
      const audience = send.class_name ? `Class ${send.class_name}` : 'all classes';
      return entry(
        actor,
        'messages.sent_to_parents',
        `${actor.full_name} sent "${send.subject}" to ${plural(send.recipients.length, 'parent')} of ${audience}`,
      );
    }
  }
}
