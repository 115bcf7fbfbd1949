/**
 * The demo centre that `npm run seed:demo` writes: plain data, no database. Everything comes from a
 * fixed-seed generator, so every run makes the same students, teachers, marks and messages; only the
 * dates move, to end on the day the seed runs. (Sign-in passwords are not made here: they are random.)
 */
import { attendanceDays } from './attendance';
import { Clock, schoolDays } from './calendar';
import { DEMO_CONTENT } from './content';
import { stream } from './random';
import { makeSends } from './sends';
import { makeStudents } from './students';
import type { DemoActivity, DemoCentre, DemoTeacher } from './types';

export const DEMO_SEED = 20_240_601;
/** Calendar days of attendance, ending today; Sundays are skipped. */
export const DEMO_DAYS = 30;

/** The whole demo centre as of `now`. The same seed gives the same centre, shifted to end on `now`. */
export function buildDemoCentre(now: Date = new Date(), seed: number = DEMO_SEED): DemoCentre {
  const clock = new Clock(now);
  const { students, consents, reliability, importDay } = makeStudents(
    stream(seed, 'students'),
    clock,
    stream(seed, 'families'),
  );
  const teachers: DemoTeacher[] = DEMO_CONTENT.teachers.map(({ joined_days_ago, ...teacher }) => ({
    ...teacher,
    subjects: [...teacher.subjects],
    classes_assigned: [...teacher.classes_assigned],
    created_at: clock.at(clock.daysAgo(joined_days_ago), 10, 30),
  }));
  const days = schoolDays(clock, DEMO_DAYS);

  const activities: DemoActivity[] = [
    {
      kind: 'students_imported',
      at: clock.at(importDay, 11, 20),
      count: students.filter((s) => s.imported).length,
    },
  ];
  students.forEach((student, index) => {
    if (!student.imported) activities.push({ kind: 'student_created', at: student.created_at, student: index });
  });
  teachers.forEach((teacher, index) => {
    activities.push({ kind: 'teacher_created', at: teacher.created_at, teacher: index });
  });
  const marked = attendanceDays(
    { students: stream(seed, 'attendance'), teachers: stream(seed, 'teacher-attendance') },
    clock,
    days,
    students,
    reliability,
    activities,
  );
  const sends = makeSends(stream(seed, 'messages'), clock, students, days);
  sends.forEach((send, index) => {
    activities.push({ kind: 'sent_to_parents', at: send.sent_at, send: index });
  });

  activities.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return { students, consents, teachers, days: marked, sends, activities };
}
