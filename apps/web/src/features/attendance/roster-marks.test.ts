import { describe, expect, it } from 'vitest';
import { rosterEntry } from '../../testing';
import { countStatuses, initialMarks, recordsToSubmit } from './roster-marks';

const unmarked = rosterEntry({ student_id: 1 });
const absent = rosterEntry({ student_id: 2, attendance_id: 20, status: 'absent', remarks: 'Fever', marked_by: 'Ravi' });
const approved = rosterEntry({ student_id: 3, attendance_id: 30, status: 'late', is_approved: true });
const roster = [unmarked, absent, approved];

describe('marking a class', () => {
  it('starts unmarked students as not marked (never silently present) and shows existing marks as they are', () => {
    const marks = initialMarks(roster);
    expect(marks.get(1)).toEqual({ status: null, remarks: '' });
    expect(marks.get(2)).toEqual({ status: 'absent', remarks: 'Fever' });
    expect(marks.get(3)).toEqual({ status: 'late', remarks: '' });
  });

  it('sends the marked students but the approved (locked) ones; a student not marked is left out', () => {
    expect(recordsToSubmit(roster, initialMarks(roster))).toEqual([
      { student_id: 2, status: 'absent', remarks: 'Fever' },
    ]);
    const marks = initialMarks(roster);
    marks.set(1, { status: 'present', remarks: '' });
    const records = recordsToSubmit(roster, marks);
    expect(records.map((r) => r.student_id)).toEqual([1, 2]);
    expect(records[0]).toEqual({ student_id: 1, status: 'present', remarks: null });
  });

  it('starts a student with approved leave as Leave, so it is marked and sent', () => {
    const onLeave = rosterEntry({
      student_id: 4,
      leave: { id: 9, status: 'approved', reason: 'Wedding', from_date: '2026-11-22', to_date: '2026-11-22' },
    });
    expect(initialMarks([onLeave]).get(4)?.status).toBe('leave');
    expect(recordsToSubmit([onLeave], initialMarks([onLeave]))).toEqual([
      { student_id: 4, status: 'leave', remarks: null },
    ]);
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

  it('counts each status as shown, locked records included, and the students not marked apart', () => {
    const marks = initialMarks(roster);
    expect(countStatuses(roster, marks)).toEqual({ present: 0, absent: 1, late: 1, leave: 0, not_marked: 1 });
    marks.set(1, { status: 'absent', remarks: '' });
    expect(countStatuses(roster, marks)).toEqual({ present: 0, absent: 2, late: 1, leave: 0, not_marked: 0 });
  });
});
