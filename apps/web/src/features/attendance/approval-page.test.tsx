import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AttendanceRecord } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { todayIso } from '../../lib/dates';
import { fakeApi, record, renderPage } from '../../testing';
import ApprovalPage from './approval-page';
import { allPendingQuery } from './pending-count';

const today = todayIso();
const pending: AttendanceRecord[] = [
  // The factory numbers each record's student: STU0001 for id 1, and so on.
  record({ id: 1, student_name: 'Asha Verma', class_name: '7', status: 'present' }),
  record({
    id: 2,
    student_name: 'Bala Das',
    class_name: '7',
    status: 'absent',
    remarks: 'Fever',
    parent_reason: 'Sick',
  }),
  record({ id: 3, student_name: 'Chitra Rao', class_name: '10', status: 'late' }),
  record({ id: 4, student_name: 'Dev Singh', class_name: '8', status: 'leave' }),
].map((r) => ({ ...r, date: today, marked_at: `${today}T09:05:07` }));

function panel(name: string) {
  return screen.getByRole('checkbox', { name: `Select all in ${name}` });
}

afterEach(() => vi.restoreAllMocks());

// jsdom draws MUI slowly, and test files share two cores: generous time per test.
describe('Attendance Approval screen', { timeout: 30_000 }, () => {
  it("groups today's pending records by class with a count chip and the table's columns", async () => {
    const api = fakeApi({ 'GET /api/v1/attendance/pending-approval': () => [200, pending] });
    renderPage(<ApprovalPage />);
    expect(await screen.findByText('Asha Verma')).toBeInTheDocument();
    const pendingCall = api.calls.find((call) => call.url.pathname === '/api/v1/attendance/pending-approval');
    expect(pendingCall?.url.searchParams.get('attendance_date')).toBe(today);

    const classes = screen.getAllByRole('button', { name: /^Class \d+/ }).map((b) => b.textContent);
    expect(classes).toEqual(['Class 72 students', 'Class 81 student', 'Class 101 student']);
    expect(screen.getByText('4 Pending')).toBeInTheDocument();

    const table = screen.getByRole('table', { name: 'Pending attendance, Class 7' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Select', 'Student', 'ID', 'Status', 'Remarks', 'Parent Phone', 'Marked At']);
    const bala = within(table).getByText('Bala Das').closest('tr') as HTMLElement;
    expect(within(bala).getByText('ABSENT')).toBeInTheDocument();
    expect(within(bala).getByText('Fever')).toBeInTheDocument();
    // The parent's one-tap reply shows under the remarks.
    expect(within(bala).getByText('Parent: Sick')).toBeInTheDocument();
    expect(within(bala).getByText('09:05:07')).toBeInTheDocument();
    const asha = within(table).getByText('Asha Verma').closest('tr') as HTMLElement;
    expect(within(asha).getByText('-')).toBeInTheDocument();
  });

  it('a class checkbox is checked when all its rows are selected and indeterminate when some are', async () => {
    fakeApi({ 'GET /api/v1/attendance/pending-approval': () => [200, pending] });
    const user = userEvent.setup();
    renderPage(<ApprovalPage />);
    await screen.findByText('Asha Verma');

    await user.click(screen.getByRole('checkbox', { name: 'Select Asha Verma' }));
    expect(panel('Class 7')).not.toBeChecked();
    expect(panel('Class 7')).toHaveAttribute('data-indeterminate', 'true');
    expect(screen.getByRole('button', { name: 'Approve Attendance (1)' })).toBeEnabled();

    await user.click(panel('Class 7'));
    expect(panel('Class 7')).toBeChecked();
    expect(panel('Class 7')).toHaveAttribute('data-indeterminate', 'false');
    expect(screen.getByRole('checkbox', { name: 'Select Bala Das' })).toBeChecked();
    expect(panel('Class 8')).not.toBeChecked();
    expect(screen.getByText('2 Selected')).toBeInTheDocument();

    await user.click(panel('Class 7'));
    expect(panel('Class 7')).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Approve Attendance (0)' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Select All' }));
    expect(screen.getByRole('button', { name: 'Approve Attendance (4)' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect(screen.getByText('0 Selected')).toBeInTheDocument();
  });

  it('search, status and class filters narrow the panels; Select All takes only what matches', async () => {
    fakeApi({ 'GET /api/v1/attendance/pending-approval': () => [200, pending] });
    const user = userEvent.setup();
    renderPage(<ApprovalPage />);
    await screen.findByText('Asha Verma');

    await user.type(screen.getByRole('searchbox', { name: 'Search by name or ID' }), 'stu0003');
    expect(screen.getByText('Chitra Rao')).toBeInTheDocument();
    expect(screen.queryByText('Asha Verma')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Select All' }));
    expect(screen.getByRole('button', { name: 'Approve Attendance (1)' })).toBeInTheDocument();
    await user.clear(screen.getByRole('searchbox', { name: 'Search by name or ID' }));
    expect(screen.getByText('1 Selected')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(screen.getByRole('option', { name: 'Absent' }));
    expect(screen.getByText('Bala Das')).toBeInTheDocument();
    expect(screen.queryByText('Dev Singh')).not.toBeInTheDocument();
    expect(screen.getByText('1 Selected (1 hidden by filters)')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Class' }));
    await user.click(screen.getByRole('option', { name: 'Class 8' }));
    expect(screen.getByText('No Pending Attendance Records')).toBeInTheDocument();
    expect(screen.getByText('No records match your filters.')).toBeInTheDocument();
  });

  it('approves the selection, says how many, and clears it', async () => {
    let list = pending;
    const api = fakeApi({
      'GET /api/v1/attendance/pending-approval': () => [200, list],
      'POST /api/v1/attendance/approve': ({ body }) => {
        const ids = (body as { attendance_ids: number[] }).attendance_ids;
        list = list.filter((r) => !ids.includes(r.id));
        return [200, { approved_count: ids.length, message: 'ignored' }];
      },
    });
    const user = userEvent.setup();
    const { client } = renderPage(<ApprovalPage />);
    client.setQueryData(allPendingQuery().queryKey, pending);
    await screen.findByText('Asha Verma');
    await user.click(panel('Class 7'));
    await user.click(screen.getByRole('button', { name: 'Approve Attendance (2)' }));

    expect(await screen.findByText('Successfully approved 2 attendance record(s).')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ attendance_ids: [1, 2] });
    await waitFor(() => expect(screen.queryByText('Asha Verma')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Approve Attendance (0)' })).toBeDisabled();
    expect(screen.getByText('2 Pending')).toBeInTheDocument();
    // The sidebar's badge count is refreshed too.
    expect(client.getQueryState(allPendingQuery().queryKey)?.isInvalidated).toBe(true);
  });

  it("shows the server's detail when approval fails, else the fallback", async () => {
    let answer: [number, unknown] = [409, { detail: 'These attendance records are already approved' }];
    fakeApi({
      'GET /api/v1/attendance/pending-approval': () => [200, pending],
      'POST /api/v1/attendance/approve': () => answer,
    });
    const user = userEvent.setup();
    renderPage(<ApprovalPage />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select Dev Singh' }));
    await user.click(screen.getByRole('button', { name: 'Approve Attendance (1)' }));
    expect(await screen.findByText('These attendance records are already approved')).toBeInTheDocument();

    answer = [500, {}];
    await user.click(screen.getByRole('button', { name: 'Approve Attendance (1)' }));
    expect(await screen.findByText('Failed to approve attendance records')).toBeInTheDocument();
  });

  it('shows the settings the app places under the toolbar, and none of its own', async () => {
    const api = fakeApi({ 'GET /api/v1/attendance/pending-approval': () => [200, pending] });
    const first = renderPage(<ApprovalPage />);
    await screen.findByText('Asha Verma');
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    expect(api.calls.map((call) => call.url.pathname)).not.toContain('/api/v1/settings');
    first.unmount();

    renderPage(<ApprovalPage settings={<p>Placed by the app</p>} />);
    expect(await screen.findByText('Placed by the app')).toBeInTheDocument();
  });

  it('says everything is approved when nothing is pending, and shows fetch errors', async () => {
    let answer: [number, unknown] = [200, []];
    fakeApi({ 'GET /api/v1/attendance/pending-approval': () => answer });
    const first = renderPage(<ApprovalPage />);
    expect(await screen.findByText('No Pending Attendance Records')).toBeInTheDocument();
    expect(screen.getByText(/^All attendance for .+ has been approved\.$/)).toBeInTheDocument();
    first.unmount();

    answer = [500, {}];
    renderPage(<ApprovalPage />);
    expect(await screen.findByText('Failed to fetch pending attendance')).toBeInTheDocument();
  });
});
