import type {
  MarkTeacherAttendanceRequest,
  TeacherAttendanceEntry,
  TeacherAttendanceStatus,
} from '@tuitiondesk/contract';

/** Status changes made on screen and not saved yet, by teacher id. */
export type StatusEdits = ReadonlyMap<number, TeacherAttendanceStatus>;

export function statusOf(entry: TeacherAttendanceEntry, edits: StatusEdits): TeacherAttendanceStatus {
  return edits.get(entry.teacher_id) ?? entry.status;
}

/** Records an edit; choosing the saved status again drops it, so the screen is not "changed" for nothing. */
export function withEdit(
  edits: StatusEdits,
  entry: TeacherAttendanceEntry,
  status: TeacherAttendanceStatus,
): StatusEdits {
  const next = new Map(edits);
  if (status === entry.status) next.delete(entry.teacher_id);
  else next.set(entry.teacher_id, status);
  return next;
}

/**
 * Only marked teachers are sent, each with its remarks and no clock times.
 * An empty list means nobody is marked, and the save must be refused.
 */
export function buildTeacherRecords(
  teachers: readonly TeacherAttendanceEntry[],
  edits: StatusEdits,
): MarkTeacherAttendanceRequest['teacher_records'] {
  const records: MarkTeacherAttendanceRequest['teacher_records'] = [];
  for (const entry of teachers) {
    const status = statusOf(entry, edits);
    if (status === 'not_marked') continue;
    records.push({
      teacher_id: entry.teacher_id,
      status,
      remarks: entry.remarks,
      check_in_time: null,
      check_out_time: null,
    });
  }
  return records;
}
