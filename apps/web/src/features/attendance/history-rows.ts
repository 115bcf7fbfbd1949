import type { AttendanceRecord } from '@tuitiondesk/contract';
import { englishText } from '../../i18n';
import { buildCsv } from '../../lib/csv';

/**
 * The export, built in the browser: these columns, in this order. A file for other systems: its
 * column names and status words are the spec's English in every language the console speaks.
 */
const HISTORY_CSV_COLUMNS = [
  'studentName',
  'studentId',
  'class',
  'date',
  'status',
  'markedBy',
  'approvedBy',
  'remarks',
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
    HISTORY_CSV_COLUMNS.map((column) => englishText(`attendance:history.${column}`)),
    rows.map((row) => [
      row.student_name,
      row.student_unique_id,
      row.class_name,
      row.date,
      englishText(`attendance:status.${row.status}`),
      row.marked_by,
      row.approved_by ?? '',
      row.remarks ?? '',
    ]),
  );
}
