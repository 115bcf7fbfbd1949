import { describe, expect, it } from 'vitest';
import { record } from '../../testing';
import { filterRecords, NO_FILTERS } from './record-filters';

const asha = record({ student_name: 'Asha Verma', student_unique_id: 'STU0001', class_name: '7', status: 'present' });
const ravi = record({ student_name: 'Ravi Nair', student_unique_id: 'STU0002', class_name: '8', status: 'absent' });
const meera = record({ student_name: 'Meera Iyer', student_unique_id: 'STU0010', class_name: '10', status: 'late' });
const all = [asha, ravi, meera];

describe('record filters (approval and history)', () => {
  it('keeps everything with no filters', () => {
    expect(filterRecords(all, NO_FILTERS)).toEqual(all);
  });

  it('searches name and student ID, case-insensitively, ignoring surrounding spaces', () => {
    expect(filterRecords(all, { ...NO_FILTERS, search: '  asha ' })).toEqual([asha]);
    expect(filterRecords(all, { ...NO_FILTERS, search: 'stu001' })).toEqual([meera]);
    expect(filterRecords(all, { ...NO_FILTERS, search: 'IYER' })).toEqual([meera]);
    expect(filterRecords(all, { ...NO_FILTERS, search: 'nobody' })).toEqual([]);
  });

  it('narrows by status and by class, and combines all three', () => {
    expect(filterRecords(all, { ...NO_FILTERS, status: 'absent' })).toEqual([ravi]);
    expect(filterRecords(all, { ...NO_FILTERS, className: '10' })).toEqual([meera]);
    expect(filterRecords(all, { search: 'stu', status: 'present', className: '7' })).toEqual([asha]);
    expect(filterRecords(all, { search: 'ravi', status: 'present', className: '' })).toEqual([]);
  });
});
