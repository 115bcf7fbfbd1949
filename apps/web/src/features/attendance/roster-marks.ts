import type { AttendanceStatus, MarkAttendanceRequest, RosterEntry } from '@tuitiondesk/contract';

export interface Mark {
  /** Null: not marked yet. The register says so and Submit leaves the student out (ADR 048). */
  status: AttendanceStatus | null;
  remarks: string;
}

/** A student the teacher has not marked yet (nothing on the server, nothing chosen on the device). */
export const NOT_MARKED: Mark = { status: null, remarks: '' };

export type Marks = ReadonlyMap<number, Mark>;

/**
 * The register tells the truth: an unmarked student starts not marked (never silently present), or
 * as on leave when their parent's leave for the day is approved; a marked one as marked. "All Present"
 * marks the class present in one tap.
 */
export function initialMarks(students: readonly RosterEntry[]): Map<number, Mark> {
  return new Map(
    students.map((student) => [
      student.student_id,
      {
        status: student.status ?? (student.leave?.status === 'approved' ? 'leave' : null),
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
 * What Submit sends: every student not locked whom the teacher has marked; a student not marked is
 * left out (and stays not marked on the server). Empty remarks are left out, except where the student
 * had remarks before: an empty string clears them (leaving the field out keeps the old text).
 */
export function recordsToSubmit(students: readonly RosterEntry[], marks: Marks): MarkAttendanceRequest['records'] {
  const records: MarkAttendanceRequest['records'] = [];
  for (const student of students) {
    if (isLocked(student)) continue;
    const mark = marks.get(student.student_id) ?? NOT_MARKED;
    if (mark.status === null) continue;
    const remarks = mark.remarks.trim();
    records.push({
      student_id: student.student_id,
      status: mark.status,
      remarks: remarks !== '' ? remarks : student.remarks ? '' : null,
    });
  }
  return records;
}

export type StatusCounts = Record<AttendanceStatus, number> & { not_marked: number };

/**
 * How many students of the roster have each status as the screen shows it now (locked ones
 * included), and how many are not marked: "Present: 25 · Not marked: 9".
 */
export function countStatuses(students: readonly RosterEntry[], marks: Marks): StatusCounts {
  const counts: StatusCounts = { present: 0, absent: 0, late: 0, leave: 0, not_marked: 0 };
  for (const student of students) {
    const status = marks.has(student.student_id)
      ? (marks.get(student.student_id)?.status ?? null)
      : (student.status ?? null);
    counts[status ?? 'not_marked'] += 1;
  }
  return counts;
}
