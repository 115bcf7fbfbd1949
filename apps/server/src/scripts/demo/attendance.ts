/**
 * The demo's school days: each class marked by its teacher (now and then another who teaches it)
 * at the start of its lesson and approved that evening, and the teachers' own attendance, saved
 * by the admin and locked at night. The most recent days still wait for approval and stay open.
 */
import type { AttendanceStatus, DefaultClassName as ClassName, TeacherAttendanceStatus } from '@tuitiondesk/contract';
import { type Clock, timeOfDay } from './calendar';
import { DEMO_CONTENT } from './content';
import { between, pick, type Random, weighted } from './random';
import { CLASS_SIZES } from './students';
import type { DemoActivity, DemoClassMarking, DemoDay, DemoStudent, DemoTeacherMark } from './types';

/** The most recent school days are still waiting for approval (students) and unlocked (teachers). */
const OPEN_DAYS = 2;
/** Today this class has not been marked yet, so the dashboard has something to point at. */
const UNMARKED_TODAY: ClassName = '10';
/** Who usually marks each class (index into the teachers). */
const CLASS_TEACHER: Record<ClassName, number> = { '7': 3, '8': 6, '9': 2, '10': 0 };
/** Classes meet one after another in the afternoon; attendance is taken at the start. */
const CLASS_STARTS: Record<ClassName, number> = { '7': 15, '8': 16, '9': 17, '10': 18 };

const { student_remarks: STUDENT_REMARKS, teacher_remarks: TEACHER_REMARKS, teachers: TEACHERS } = DEMO_CONTENT;

function studentStatus(random: Random, reliability: number): { status: AttendanceStatus; remarks: string | null } {
  if (random() < reliability) {
    if (random() < 0.07) return { status: 'late', remarks: pick(random, STUDENT_REMARKS.late) };
    return { status: 'present', remarks: null };
  }
  if (random() < 0.6) return { status: 'absent', remarks: pick(random, STUDENT_REMARKS.absent) };
  return { status: 'leave', remarks: pick(random, STUDENT_REMARKS.leave) };
}

function teacherMark(random: Random, teacher: number): DemoTeacherMark {
  const status = weighted<TeacherAttendanceStatus>(random, [
    ['present', 88],
    ['half_day', 4],
    ['on_leave', 4],
    ['absent', 4],
  ]);
  const checkIn = timeOfDay(14, between(random, 25, 59));
  switch (status) {
    case 'present':
      return {
        teacher,
        status,
        remarks: null,
        check_in_time: checkIn,
        check_out_time: timeOfDay(between(random, 19, 20), between(random, 0, 59)),
      };
    case 'half_day':
      return {
        teacher,
        status,
        remarks: pick(random, TEACHER_REMARKS.half_day),
        check_in_time: checkIn,
        check_out_time: timeOfDay(17, between(random, 0, 30)),
      };
    case 'on_leave':
      return {
        teacher,
        status,
        remarks: pick(random, TEACHER_REMARKS.on_leave),
        check_in_time: null,
        check_out_time: null,
      };
    default:
      return {
        teacher,
        status,
        remarks: pick(random, TEACHER_REMARKS.absent),
        check_in_time: null,
        check_out_time: null,
      };
  }
}

function classTeachers(className: ClassName): number[] {
  return TEACHERS.flatMap((teacher, index) => (teacher.classes_assigned.includes(className) ? [index] : []));
}

type StudentDay = Pick<DemoDay, 'classes' | 'approved_at'>;
type TeacherDay = Pick<DemoDay, 'teachers' | 'teachers_marked_at' | 'locked_at'>;

/** One day of the students' attendance, with what it puts in the activity feed. */
function markClasses(
  random: Random,
  clock: Clock,
  date: string,
  open: boolean,
  rosters: Map<ClassName, number[]>,
  reliability: number[],
  feed: DemoActivity[],
): StudentDay {
  const classes: DemoClassMarking[] = [];
  for (const [className] of CLASS_SIZES) {
    // Every student joined before the first of these days, so each class's roster is whole.
    const roster = rosters.get(className) ?? [];
    const others = classTeachers(className);
    const markedBy = random() < 0.85 ? CLASS_TEACHER[className] : pick(random, others);
    const marks = roster.map((student) => ({ student, ...studentStatus(random, reliability[student] as number) }));
    // Today one class waits to be marked; its marks were drawn all the same, to keep the draws in step.
    if (date === clock.today && className === UNMARKED_TODAY) continue;
    const markedAt = clock.at(date, CLASS_STARTS[className], between(random, 5, 25), between(random, 0, 59));
    classes.push({ class_name: className, marked_by: markedBy, marked_at: markedAt, marks });
    feed.push({
      kind: 'attendance_marked',
      at: markedAt,
      teacher: markedBy,
      count: marks.length,
      class_name: className,
      date,
    });
  }
  const approvedAt = open ? null : clock.at(date, 20, between(random, 35, 59), between(random, 0, 59));
  if (approvedAt) {
    const count = classes.reduce((sum, marking) => sum + marking.marks.length, 0);
    feed.push({ kind: 'attendance_approved', at: approvedAt, count });
  }
  return { classes, approved_at: approvedAt };
}

/** One day of the teachers' attendance, with what it puts in the activity feed. */
function markTeachers(random: Random, clock: Clock, date: string, open: boolean, feed: DemoActivity[]): TeacherDay {
  const teachers = TEACHERS.map((_, index) => teacherMark(random, index));
  const markedAt = clock.at(date, 20, between(random, 10, 25));
  feed.push({ kind: 'teacher_attendance_marked', at: markedAt, count: teachers.length, date });
  const lockedAt = open ? null : clock.at(date, 21, between(random, 0, 30));
  if (lockedAt) feed.push({ kind: 'teacher_attendance_locked', at: lockedAt, count: teachers.length, date });
  return { teachers, teachers_marked_at: markedAt, locked_at: lockedAt };
}

/**
 * Every school day's attendance, students' and teachers', each drawn from its own stream; the
 * activities they put in the feed are added to `feed`, day by day.
 */
export function attendanceDays(
  streams: { students: Random; teachers: Random },
  clock: Clock,
  schoolDays: string[],
  students: DemoStudent[],
  reliability: number[],
  feed: DemoActivity[],
): DemoDay[] {
  const rosters = new Map<ClassName, number[]>();
  students.forEach((student, index) => {
    rosters.set(student.class_name, [...(rosters.get(student.class_name) ?? []), index]);
  });
  return schoolDays.map((date, dayIndex) => {
    const open = dayIndex >= schoolDays.length - OPEN_DAYS;
    const studentDay = markClasses(streams.students, clock, date, open, rosters, reliability, feed);
    return { date, ...studentDay, ...markTeachers(streams.teachers, clock, date, open, feed) };
  });
}
