import type { AttendanceStatus, MarkAttendanceRequest, RosterEntry } from '@tuitiondesk/contract';

export interface Mark {
  status: AttendanceStatus;
  remarks: string;
}

export type Marks = ReadonlyMap<number, Mark>;

/**
 * Most of a class is there on most days: an unmarked student starts as present, or as on leave when
 * their parent's leave for the day is approved; a marked one as marked.
 */
export function initialMarks(students: readonly RosterEntry[]): Map<number, Mark> {
  return new Map(
    students.map((student) => [
      student.student_id,
      {
        status: student.status ?? (student.leave?.status === 'approved' ? 'leave' : 'present'),
        remarks: student.remarks ?? '',
      },
    ]),
  );
}

/** Approved records are locked: the server refuses to change them. */
export function isLocked(student: Pick<RosterEntry, 'is_approved'>): boolean {
  return student.is_approved;
}

/**
 * What Submit sends: every student not locked. Empty remarks are left out, except where the student
 * had remarks before: an empty string clears them (leaving the field out keeps the old text).
 */
export function recordsToSubmit(students: readonly RosterEntry[], marks: Marks): MarkAttendanceRequest['records'] {
  return students
    .filter((student) => !isLocked(student))
    .map((student) => {
      const mark = marks.get(student.student_id) ?? { status: 'present', remarks: '' };
      const remarks = mark.remarks.trim();
      return {
        student_id: student.student_id,
        status: mark.status,
        remarks: remarks !== '' ? remarks : student.remarks ? '' : null,
      };
    });
}

/** How many students of the roster have each status, as the screen shows it now (locked ones included). */
export function countStatuses(students: readonly RosterEntry[], marks: Marks): Record<AttendanceStatus, number> {
  const counts: Record<AttendanceStatus, number> = { present: 0, absent: 0, late: 0, leave: 0 };
  for (const student of students) {
    const status = marks.get(student.student_id)?.status ?? student.status ?? 'present';
    counts[status] += 1;
  }
  return counts;
}
