import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Roster } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoDaysAgo, todayIso } from '../../lib/dates';
import { rosterEntry } from './fixtures';
import MarkAttendancePage from './mark-attendance-page';
import { fakeApi, renderPage } from './test-providers';

const yesterday = isoDaysAgo(1);
const roster: Roster = {
  date: yesterday,
  class_name: '8',
  students: [
    rosterEntry({ student_id: 1, student_name: 'Asha Verma' }),
    rosterEntry({
      student_id: 2,
      student_name: 'Bala Das',
      attendance_id: 20,
      status: 'absent',
      remarks: 'Fever',
      marked_by: 'Ravi Kumar',
      marked_at: `${yesterday}T09:05:00`,
    }),
    rosterEntry({ student_id: 3, student_name: 'Chitra Rao', attendance_id: 30, status: 'late', is_approved: true }),
  ],
};

function row(name: string): HTMLElement {
  return screen.getByText(name).closest('li') as HTMLElement;
}

function pressed(name: string): string | null | undefined {
  return within(row(name))
    .getAllByRole('button')
    .find((button) => button.getAttribute('aria-pressed') === 'true')?.textContent;
}

afterEach(() => vi.restoreAllMocks());

// jsdom draws MUI slowly, and test files share two cores: generous time per test.
describe('Mark Attendance screen', { timeout: 30_000 }, () => {
  it('reads class and date from the address and shows unmarked students as present', async () => {
    const api = fakeApi({ 'GET /api/v1/attendance/roster': () => [200, roster] });
    renderPage(<MarkAttendancePage />, `/mark-attendance?class_name=8&date=${yesterday}`);
    expect(await screen.findByText('Asha Verma')).toBeInTheDocument();
    const query = api.calls[0]?.url.searchParams;
    expect(query?.get('class_name')).toBe('8');
    expect(query?.get('date')).toBe(yesterday);

    expect(pressed('Asha Verma')).toBe('Present');
    expect(within(row('Asha Verma')).getByText('Not marked yet')).toBeInTheDocument();
    expect(pressed('Bala Das')).toBe('Absent');
    expect(within(row('Bala Das')).getByRole('textbox', { name: 'Remarks for Bala Das' })).toHaveValue('Fever');
    expect(within(row('Bala Das')).getByText('Marked by Ravi Kumar at 09:05:00')).toBeInTheDocument();
    expect(screen.getByText('Present: 1')).toBeInTheDocument();
    expect(screen.getByText('Absent: 1')).toBeInTheDocument();
    expect(screen.getByText('Late: 1')).toBeInTheDocument();
  });

  it('locks approved records: disabled, marked Approved, and not sent', async () => {
    const api = fakeApi({
      'GET /api/v1/attendance/roster': () => [200, roster],
      'POST /api/v1/attendance/mark': () => [200, { marked_count: 2, message: 'Attendance marked for 2 student(s)' }],
    });
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, `/mark-attendance?class_name=8&date=${yesterday}`);
    await screen.findByText('Chitra Rao');
    const chitra = row('Chitra Rao');
    expect(within(chitra).getByText('Approved')).toBeInTheDocument();
    for (const button of within(chitra).getAllByRole('button')) expect(button).toBeDisabled();
    expect(within(chitra).getByRole('textbox', { name: 'Remarks for Chitra Rao' })).toBeDisabled();
    expect(screen.getByText('1 approved record is locked and will not be sent.')).toBeInTheDocument();

    await user.click(within(row('Asha Verma')).getByRole('button', { name: 'Leave' }));
    await user.type(within(row('Asha Verma')).getByRole('textbox', { name: 'Remarks for Asha Verma' }), ' Wedding ');
    expect(screen.getByText('Leave: 1')).toBeInTheDocument();
    expect(screen.getByText('Present: 0')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit Attendance' }));

    expect(await screen.findByText('Attendance marked for 2 student(s)')).toBeInTheDocument();
    expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
      date: yesterday,
      records: [
        { student_id: 1, status: 'leave', remarks: 'Wedding' },
        { student_id: 2, status: 'absent', remarks: 'Fever' },
      ],
    });
  });

  it("shows the server's detail when saving fails, else Failed to save attendance", async () => {
    let answer: [number, unknown] = [
      409,
      { detail: 'Attendance for Bala Das on 2026-03-02 is already approved and cannot be changed' },
    ];
    fakeApi({
      'GET /api/v1/attendance/roster': () => [200, roster],
      'POST /api/v1/attendance/mark': () => answer,
    });
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, `/mark-attendance?class_name=8&date=${yesterday}`);
    await user.click(await screen.findByRole('button', { name: 'Submit Attendance' }));
    expect(await screen.findByText(/is already approved and cannot be changed/)).toBeInTheDocument();
    answer = [500, {}];
    await user.click(screen.getByRole('button', { name: 'Submit Attendance' }));
    expect(await screen.findByText('Failed to save attendance')).toBeInTheDocument();
  });

  it('asks for a class first, falls back to today for a future date, and says when a class is empty', async () => {
    const api = fakeApi({
      'GET /api/v1/attendance/roster': ({ url }) => [
        200,
        { date: url.searchParams.get('date'), class_name: url.searchParams.get('class_name'), students: [] },
      ],
    });
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, '/mark-attendance?date=2999-01-01');
    expect(screen.getByText('Choose a class')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);

    await user.click(screen.getByRole('combobox', { name: 'Class' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Class 7',
      'Class 8',
      'Class 9',
      'Class 10',
    ]);
    await user.click(screen.getByRole('option', { name: 'Class 10' }));
    expect(await screen.findByText('No students in Class 10')).toBeInTheDocument();
    await waitFor(() => expect(api.calls).toHaveLength(1));
    expect(api.calls[0]?.url.searchParams.get('date')).toBe(todayIso());
  });
});
