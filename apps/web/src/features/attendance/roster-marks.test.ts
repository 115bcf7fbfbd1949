import { describe, expect, it } from 'vitest';
import { rosterEntry } from '../../testing';
import { countStatuses, initialMarks, recordsToSubmit } from './roster-marks';

const unmarked = rosterEntry({ student_id: 1 });
const absent = rosterEntry({ student_id: 2, attendance_id: 20, status: 'absent', remarks: 'Fever', marked_by: 'Ravi' });
const approved = rosterEntry({ student_id: 3, attendance_id: 30, status: 'late', is_approved: true });
const roster = [unmarked, absent, approved];

describe('marking a class', () => {
  it('starts unmarked students as present and shows existing marks as they are', () => {
    const marks = initialMarks(roster);
    expect(marks.get(1)).toEqual({ status: 'present', remarks: '' });
    expect(marks.get(2)).toEqual({ status: 'absent', remarks: 'Fever' });
    expect(marks.get(3)).toEqual({ status: 'late', remarks: '' });
  });

  it('sends every student but the approved (locked) ones', () => {
    const records = recordsToSubmit(roster, initialMarks(roster));
    expect(records.map((r) => r.student_id)).toEqual([1, 2]);
    expect(records[0]).toEqual({ student_id: 1, status: 'present', remarks: null });
    expect(records[1]).toEqual({ student_id: 2, status: 'absent', remarks: 'Fever' });
  });

  it('trims remarks; clearing earlier remarks sends an empty string so the server clears them', () => {
    const marks = initialMarks(roster);
    marks.set(1, { status: 'leave', remarks: '  Wedding  ' });
    marks.set(2, { status: 'absent', remarks: '   ' });
    expect(recordsToSubmit(roster, marks)).toEqual([
      { student_id: 1, status: 'leave', remarks: 'Wedding' },
      { student_id: 2, status: 'absent', remarks: '' },
    ]);
  });

  it('counts each status as shown, locked records included', () => {
    const marks = initialMarks(roster);
    expect(countStatuses(roster, marks)).toEqual({ present: 1, absent: 1, late: 1, leave: 0 });
    marks.set(1, { status: 'absent', remarks: '' });
    expect(countStatuses(roster, marks)).toEqual({ present: 0, absent: 2, late: 1, leave: 0 });
  });
});
