import type { AttendanceRecord } from '@tuitiondesk/contract';
import { buildCsv } from '../../lib/csv';
import { STATUS_LABELS } from './attendance-status';

/** The export, built in the browser: these columns, in this order. */
const HISTORY_CSV_COLUMNS = [
  'Student Name',
  'Student ID',
  'Class',
  'Date',
  'Status',
  'Marked By',
  'Approved By',
  'Remarks',
] as const;

export function historyCsvFilename(today: string): string {
  return `attendance_history_${today}.csv`;
}

/**
 * The CSV of the rows on screen. Dates stay yyyy-MM-dd so a spreadsheet sorts and reads them as dates;
 * a record still pending has an empty Approved By.
 */
export function buildHistoryCsv(rows: readonly AttendanceRecord[]): string {
  return buildCsv(
    HISTORY_CSV_COLUMNS,
    rows.map((row) => [
      row.student_name,
      row.student_unique_id,
      row.class_name,
      row.date,
      STATUS_LABELS[row.status],
      row.marked_by,
      row.approved_by ?? '',
      row.remarks ?? '',
    ]),
  );
}
