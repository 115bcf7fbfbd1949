import type { AttendanceRecord, RosterEntry } from '@tuitiondesk/contract';

let nextId = 1;

/** An attendance record as the API answers it; override what a test cares about. */
export function record(fields: Partial<AttendanceRecord> = {}): AttendanceRecord {
  const id = fields.id ?? nextId++;
  return {
    id,
    student_id: id,
    student_name: `Student ${id}`,
    student_unique_id: `STU${String(id).padStart(4, '0')}`,
    class_name: '7',
    date: '2026-03-02',
    status: 'present',
    remarks: null,
    parent_phone: '+919800000000',
    marked_at: '2026-03-02T09:15:30+05:30',
    marked_by: 'Ravi Kumar',
    approved_by: null,
    approved_at: null,
    ...fields,
  };
}

/** A roster line as the API answers it: unmarked unless the test says otherwise. */
export function rosterEntry(fields: Partial<RosterEntry> & { student_id: number }): RosterEntry {
  return {
    student_unique_id: `STU${String(fields.student_id).padStart(4, '0')}`,
    student_name: `Student ${fields.student_id}`,
    parent_phone: '+919800000000',
    attendance_id: null,
    status: null,
    remarks: null,
    marked_by: null,
    marked_at: null,
    is_approved: false,
    ...fields,
  };
}
