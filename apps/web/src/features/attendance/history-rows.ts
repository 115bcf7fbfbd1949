import type { AttendanceRecord } from '@tuitiondesk/contract';
import { buildCsv } from '../../lib/csv';
import { STATUS_LABELS } from './attendance-status';

export interface HistorySummary {
  total: number;
  present: number;
  absent: number;
  /** Late plus leave: one card on the screen. */
  lateOrLeave: number;
}

export function summariseHistory(rows: readonly Pick<AttendanceRecord, 'status'>[]): HistorySummary {
  const summary: HistorySummary = { total: rows.length, present: 0, absent: 0, lateOrLeave: 0 };
  for (const row of rows) {
    if (row.status === 'present') summary.present += 1;
    else if (row.status === 'absent') summary.absent += 1;
    else summary.lateOrLeave += 1;
  }
  return summary;
}

/** Spec section 7, client-side export: these columns, in this order. */
export const HISTORY_CSV_COLUMNS = [
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
