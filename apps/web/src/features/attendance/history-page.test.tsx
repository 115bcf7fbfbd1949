import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AttendanceRecord } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoDaysAgo, todayIso } from '../../lib/dates';
import { record } from './fixtures';
import HistoryPage from './history-page';
import { fakeApi, renderPage } from './test-providers';

const history: AttendanceRecord[] = [
  record({
    id: 1,
    student_name: 'Asha Verma',
    student_unique_id: 'STU0001',
    class_name: '7',
    status: 'present',
    date: '2026-03-02',
    approved_by: 'Administrator',
  }),
  record({
    id: 2,
    student_name: 'Bala Das',
    student_unique_id: 'STU0002',
    class_name: '7',
    status: 'absent',
    remarks: 'Fever',
  }),
  record({ id: 3, student_name: 'Chitra Rao', student_unique_id: 'STU0003', class_name: '9', status: 'late' }),
  record({ id: 4, student_name: 'Dev Singh', student_unique_id: 'STU0004', class_name: '10', status: 'leave' }),
  record({
    id: 5,
    student_name: 'Asha Verma',
    student_unique_id: 'STU0001',
    class_name: '7',
    status: 'present',
    date: '2026-03-01',
  }),
];

function card(label: string): string | null | undefined {
  return screen.getByText(label).nextElementSibling?.textContent;
}

function bodyRows(): HTMLElement[] {
  const table = screen.getByRole('table', { name: 'Attendance history' });
  return within(table).getAllByRole('row').slice(1);
}

afterEach(() => vi.restoreAllMocks());

// jsdom draws MUI slowly, and test files share two cores: generous time per test.
describe('Attendance History screen', { timeout: 30_000 }, () => {
  it('loads the last 7 days and shows the summary cards and table', async () => {
    const api = fakeApi({ 'GET /api/v1/attendance/history': () => [200, history] });
    renderPage(<HistoryPage />);
    expect(screen.getByText('Loading attendance records...')).toBeInTheDocument();
    expect(await screen.findByText('Bala Das')).toBeInTheDocument();

    const query = api.calls[0]?.url.searchParams;
    expect(query?.get('start_date')).toBe(isoDaysAgo(7));
    expect(query?.get('end_date')).toBe(todayIso());

    expect(card('Total Records')).toBe('5');
    expect(card('Present')).toBe('2');
    expect(card('Absent')).toBe('1');
    expect(card('Late/Leave')).toBe('2');

    const headers = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Student',
      'Student ID',
      'Class',
      'Date',
      'Status',
      'Marked By',
      'Approved By',
      'Remarks',
    ]);
    const first = bodyRows()[0] as HTMLElement;
    expect(within(first).getByText('02 Mar 2026')).toBeInTheDocument();
    expect(within(first).getByText('PRESENT')).toBeInTheDocument();
    expect(within(first).getByText('Administrator')).toBeInTheDocument();
    expect(within(first).getByText('-')).toBeInTheDocument();
  });

  it('search, status and class narrow the rows and the summary counts', async () => {
    fakeApi({ 'GET /api/v1/attendance/history': () => [200, history] });
    const user = userEvent.setup();
    renderPage(<HistoryPage />);
    await screen.findByText('Bala Das');

    await user.type(screen.getByRole('searchbox', { name: 'Search by name or student ID' }), 'stu0001');
    expect(bodyRows()).toHaveLength(2);
    expect(card('Total Records')).toBe('2');
    expect(card('Present')).toBe('2');
    await user.clear(screen.getByRole('searchbox', { name: 'Search by name or student ID' }));

    await user.click(screen.getByRole('combobox', { name: 'Class' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All',
      'Class 7',
      'Class 8',
      'Class 9',
      'Class 10',
    ]);
    await user.click(screen.getByRole('option', { name: 'Class 7' }));
    expect(bodyRows()).toHaveLength(3);
    expect(card('Absent')).toBe('1');
    expect(card('Late/Leave')).toBe('0');

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All',
      'Present',
      'Absent',
      'Late',
      'Leave',
    ]);
    await user.click(screen.getByRole('option', { name: 'Leave' }));
    expect(screen.getByText('No attendance records found for the selected filters.')).toBeInTheDocument();
    expect(card('Total Records')).toBe('0');
  });

  it('exports the filtered rows as attendance_history_<today>.csv', async () => {
    fakeApi({ 'GET /api/v1/attendance/history': () => [200, history] });
    let saved: Blob | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved = blob as Blob;
      return 'blob:history';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    let filename = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      filename = this.download;
    });
    const user = userEvent.setup();
    renderPage(<HistoryPage />);
    await screen.findByText('Bala Das');
    await user.type(screen.getByRole('searchbox', { name: 'Search by name or student ID' }), 'bala');
    await user.click(screen.getByRole('button', { name: 'Export' }));

    expect(filename).toBe(`attendance_history_${todayIso()}.csv`);
    const text = new TextDecoder().decode(await (saved as Blob).arrayBuffer());
    expect(text.split('\r\n')).toEqual([
      '"Student Name","Student ID","Class","Date","Status","Marked By","Approved By","Remarks"',
      '"Bala Das","STU0002","7","2026-03-02","Absent","Ravi Kumar","","Fever"',
      '',
    ]);
  });

  it('alerts No data to export when nothing is shown', async () => {
    fakeApi({ 'GET /api/v1/attendance/history': () => [200, []] });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderPage(<HistoryPage />);
    expect(await screen.findByText('No attendance records found for the selected filters.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(alert).toHaveBeenCalledWith('No data to export');
  });

  it('only logs a fetch error and shows the list empty', async () => {
    fakeApi({ 'GET /api/v1/attendance/history': () => [500, { detail: 'Internal server error' }] });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPage(<HistoryPage />);
    expect(await screen.findByText('No attendance records found for the selected filters.')).toBeInTheDocument();
    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(card('Total Records')).toBe('0');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('pages through thousands of rows', async () => {
    const many = Array.from({ length: 2400 }, (_, index) =>
      record({ id: 1000 + index, student_name: `Pupil ${index}`, student_unique_id: `STU${1000 + index}` }),
    );
    fakeApi({ 'GET /api/v1/attendance/history': () => [200, many] });
    const user = userEvent.setup();
    renderPage(<HistoryPage />);
    await screen.findByText('Pupil 0');
    expect(bodyRows()).toHaveLength(25);
    expect(screen.getByText('1–25 of 2,400')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(screen.getByText('Pupil 25')).toBeInTheDocument();
    expect(card('Total Records')).toBe('2400');
  });
});
