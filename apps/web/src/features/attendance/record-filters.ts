import type { AttendanceRecord, AttendanceStatus, ClassName } from '@tuitiondesk/contract';

/** What the approval and history screens narrow their records by; '' means all. */
export interface RecordFilters {
  search: string;
  status: AttendanceStatus | '';
  className: ClassName | '';
}

export const NO_FILTERS: RecordFilters = { search: '', status: '', className: '' };

type Filterable = Pick<AttendanceRecord, 'student_name' | 'student_unique_id' | 'status' | 'class_name'>;

/** Search is case-insensitive over the student's name and ID. */
export function filterRecords<T extends Filterable>(records: readonly T[], filters: RecordFilters): T[] {
  const needle = filters.search.trim().toLowerCase();
  return records.filter(
    (record) =>
      (filters.status === '' || record.status === filters.status) &&
      (filters.className === '' || record.class_name === filters.className) &&
      (needle === '' ||
        record.student_name.toLowerCase().includes(needle) ||
        record.student_unique_id.toLowerCase().includes(needle)),
  );
}
