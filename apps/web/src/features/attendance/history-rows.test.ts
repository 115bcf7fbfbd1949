import type { AttendanceRecord } from '@tuitiondesk/contract';
import { describe, expect, it } from 'vitest';
import { CSV_BOM } from '../../lib/csv';
import { record } from '../../testing';
import { buildHistoryCsv, historyCsvFilename } from './history-rows';

/** The export of records with these fields, line by line (CRLF), after the BOM it must start with. */
function exportedLines(...rows: Partial<AttendanceRecord>[]): string[] {
  const csv = buildHistoryCsv(rows.map((fields) => record(fields)));
  expect(csv.startsWith(CSV_BOM)).toBe(true);
  return csv.slice(CSV_BOM.length).split('\r\n');
}

describe('attendance history rows', () => {
  it('names the export after today', () => {
    expect(historyCsvFilename('2026-03-09')).toBe('attendance_history_2026-03-09.csv');
  });

  it('exports the columns in order, one line per row, with BOM and CRLF', () => {
    const lines = exportedLines(
      {
        student_name: 'Asha Verma',
        student_unique_id: 'STU0001',
        class_name: '8',
        date: '2026-03-02',
        status: 'late',
        marked_by: 'Ravi Kumar',
        approved_by: 'Administrator',
        remarks: 'Bus was late, "again"',
      },
      { student_name: 'Dev', student_unique_id: 'STU0002', status: 'absent', approved_by: null, remarks: null },
    );
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    expect(lines[0]).toBe('"Student Name","Student ID","Class","Date","Status","Marked By","Approved By","Remarks"');
    expect(lines[1]).toBe(
      '"Asha Verma","STU0001","8","2026-03-02","Late","Ravi Kumar","Administrator","Bus was late, ""again"""',
    );
    expect(lines[2]).toBe('"Dev","STU0002","7","2026-03-02","Absent","Ravi Kumar","",""');
  });

  it('neutralises formula text that staff typed into names or remarks', () => {
    const [, row] = exportedLines({
      student_name: '=cmd|"/c calc"!A1',
      student_unique_id: 'STU0009',
      remarks: '@SUM(1+1)',
      marked_by: '-Admin',
      approved_by: '+Boss',
    });
    expect(row).toBe('"\'=cmd|""/c calc""!A1","STU0009","7","2026-03-02","Present","\'-Admin","\'+Boss","\'@SUM(1+1)"');
  });
});
