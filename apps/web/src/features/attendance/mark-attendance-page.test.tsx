import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MarkingScope, Roster } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDay, isoDaysAgo, todayIso } from '../../lib/dates';
import { deferred, fakeApi, markingScope, optionTexts, renderPage, rosterEntry } from '../../testing';
import MarkAttendancePage from './mark-attendance-page';

const yesterday = isoDaysAgo(1);
const adminScope: MarkingScope = markingScope();
/** A teacher of classes 7 and 9, who may mark today and the 2 days before. */
const teacherScope: MarkingScope = {
  ...adminScope,
  restricted: true,
  classes: ['7', '9'],
  earliest_date: isoDaysAgo(2),
};
const roster: Roster = {
  date: yesterday,
  class_name: '8',
  can_mark: true,
  cannot_mark_reason: null,
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

function rosterCalls(api: ReturnType<typeof fakeApi>) {
  return api.calls.filter((call) => call.url.pathname === '/api/v1/attendance/roster');
}

function row(name: string): HTMLElement {
  return screen.getByText(name).closest('li') as HTMLElement;
}

function pressed(name: string): string | null | undefined {
  return within(row(name))
    .getAllByRole('button')
    .find((button) => button.getAttribute('aria-pressed') === 'true')?.textContent;
}

async function findRow(name: string): Promise<HTMLElement> {
  return (await screen.findByText(name)).closest('li') as HTMLElement;
}

/** The server's answer to a queued submission that saved `marked` students and refused none. */
function answered(body: unknown, marked: number) {
  const sent = body as { submission_id: string; date: string };
  return {
    submission_id: sent.submission_id,
    class_name: '8',
    date: sent.date,
    saved_at: new Date().toISOString(),
    marked_count: marked,
    message: `Attendance marked for ${marked} student(s)`,
    refused: [],
  };
}

afterEach(() => vi.restoreAllMocks());

// jsdom draws MUI slowly, and test files share two cores: generous time per test.
describe('Mark Attendance screen', { timeout: 30_000 }, () => {
  it('reads class and date from the address and shows unmarked students as not marked', async () => {
    const api = fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, adminScope],
      'GET /api/v1/attendance/roster': () => [200, roster],
    });
    renderPage(<MarkAttendancePage />, {
      path: `/mark-attendance?class_name=8&date=${yesterday}`,
      signedInAs: 'admin',
    });
    expect(await screen.findByText('Asha Verma')).toBeInTheDocument();
    const query = rosterCalls(api)[0]?.url.searchParams;
    expect(query?.get('class_name')).toBe('8');
    expect(query?.get('date')).toBe(yesterday);

    expect(pressed('Asha Verma')).toBeUndefined();
    expect(within(row('Asha Verma')).getByText('Not marked')).toBeInTheDocument();
    expect(pressed('Bala Das')).toBe('Absent');
    expect(within(row('Bala Das')).getByRole('textbox', { name: 'Remarks for Bala Das' })).toHaveValue('Fever');
    expect(within(row('Bala Das')).getByText('Marked by Ravi Kumar at 09:05:00')).toBeInTheDocument();
    expect(screen.getByText('Present: 0')).toBeInTheDocument();
    expect(screen.getByText('Absent: 1')).toBeInTheDocument();
    expect(screen.getByText('Late: 1')).toBeInTheDocument();
    expect(screen.getByText('Not marked: 1')).toBeInTheDocument();
  });

  it('locks approved records: disabled, marked Approved, and not sent', async () => {
    const api = fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, adminScope],
      'GET /api/v1/attendance/roster': () => [200, roster],
      'POST /api/v1/attendance/submissions': (call) => [200, answered(call.body, 2)],
    });
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, {
      path: `/mark-attendance?class_name=8&date=${yesterday}`,
      signedInAs: 'admin',
    });
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
    expect(await screen.findByText(/^Saved at \d\d:\d\d/)).toBeInTheDocument();
    expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
      submission_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      date: yesterday,
      records: [
        { student_id: 1, status: 'leave', remarks: 'Wedding' },
        { student_id: 2, status: 'absent', remarks: 'Fever' },
      ],
    });
  });

  it('names each student the server could not save, until the teacher has read it', async () => {
    fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, adminScope],
      'GET /api/v1/attendance/roster': () => [200, roster],
      'POST /api/v1/attendance/submissions': (call) => [
        200,
        {
          ...answered(call.body, 1),
          message: 'Attendance marked for 1 student(s); 1 mark could not be saved',
          refused: [
            {
              student_id: 2,
              student_name: 'Bala Das',
              reason: 'Already approved by Admin for 2 Mar 2026, as Absent: it was not changed.',
            },
          ],
        },
      ],
    });
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, {
      path: `/mark-attendance?class_name=8&date=${yesterday}`,
      signedInAs: 'admin',
    });
    await user.click(await screen.findByRole('button', { name: 'Submit Attendance' }));
    const panel = (await screen.findByText(/1 not saved$/)).closest('[role="alert"]') as HTMLElement;
    expect(within(panel).getByText('Bala Das')).toBeInTheDocument();
    expect(within(panel).getByText(/Already approved by Admin for 2 Mar 2026, as Absent/)).toBeInTheDocument();
    expect(within(panel).getByText('The other 1 mark was saved.')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByText(/1 not saved$/)).not.toBeInTheDocument());
  });

  it('keeps the marks on the device when the server cannot be reached, and sends them when it can', async () => {
    let reachable = false;
    const api = fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, adminScope],
      'GET /api/v1/attendance/roster': () => [200, roster],
      'POST /api/v1/attendance/submissions': (call) => {
        if (!reachable) throw new TypeError('Failed to fetch');
        return [200, answered(call.body, 2)];
      },
    });
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, {
      path: `/mark-attendance?class_name=8&date=${yesterday}`,
      signedInAs: 'admin',
    });
    await user.click(within(await findRow('Asha Verma')).getByRole('button', { name: 'Absent' }));
    await user.click(screen.getByRole('button', { name: 'Submit Attendance' }));
    expect(await screen.findByText('2 marks waiting to be sent')).toBeInTheDocument();
    expect(await screen.findByText(/^Kept on this device at \d\d:\d\d.*waiting to be sent$/)).toBeInTheDocument();
    expect(
      await screen.findByText('No connection: the marks are kept on this device and sent when the network returns'),
    ).toBeInTheDocument();

    reachable = true;
    await user.click(screen.getByRole('button', { name: 'Send now' }));
    expect(await screen.findByText(/^Saved at \d\d:\d\d/)).toBeInTheDocument();
    expect(screen.queryByText('2 marks waiting to be sent')).not.toBeInTheDocument();
    const posts = api.calls
      .filter((call) => call.method === 'POST')
      .map((call) => call.body as { submission_id: string });
    expect(posts).toHaveLength(2);
    // The same submission both times: the server saves it once however often it arrives.
    expect(posts[1]?.submission_id).toBe(posts[0]?.submission_id);
  });

  it('says nothing is waiting while a Submit is on its first try, only Saving', async () => {
    const reply = deferred();
    fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, adminScope],
      'GET /api/v1/attendance/roster': () => [200, roster],
      'POST /api/v1/attendance/submissions': () => reply.promise,
    });
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, {
      path: `/mark-attendance?class_name=8&date=${yesterday}`,
      signedInAs: 'admin',
    });
    await user.click(await screen.findByRole('button', { name: 'Mark All Present' }));
    await user.click(screen.getByRole('button', { name: 'Submit Attendance' }));
    expect(await screen.findByText('Saving...')).toBeInTheDocument();
    expect(screen.queryByText(/waiting to be sent/)).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    reply.release([200, answered({ submission_id: '00000000-0000-4000-8000-000000000000', date: yesterday }, 2)]);
    expect(await screen.findByText('Attendance marked for 2 student(s)')).toBeInTheDocument();
    expect(screen.queryByText(/waiting to be sent/)).not.toBeInTheDocument();
  });

  it('keeps a register being marked across a reload', async () => {
    fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, adminScope],
      'GET /api/v1/attendance/roster': () => [200, roster],
    });
    const user = userEvent.setup();
    const first = renderPage(<MarkAttendancePage />, {
      path: `/mark-attendance?class_name=8&date=${yesterday}`,
      signedInAs: 'admin',
    });
    await user.click(within(await findRow('Asha Verma')).getByRole('button', { name: 'Late' }));
    first.unmount();

    renderPage(<MarkAttendancePage />, {
      path: `/mark-attendance?class_name=8&date=${yesterday}`,
      signedInAs: 'admin',
    });
    await findRow('Asha Verma');
    expect(pressed('Asha Verma')).toBe('Late');
  });

  it('asks for a class first, falls back to today for a future date, and says when a class is empty', async () => {
    const api = fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, adminScope],
      'GET /api/v1/attendance/roster': ({ url }) => [
        200,
        { date: url.searchParams.get('date'), class_name: url.searchParams.get('class_name'), students: [] },
      ],
    });
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, { path: '/mark-attendance?date=2999-01-01', signedInAs: 'admin' });
    expect(await screen.findByText('Choose a class')).toBeInTheDocument();
    expect(rosterCalls(api)).toHaveLength(0);

    await user.click(screen.getByRole('combobox', { name: 'Class' }));
    expect(optionTexts()).toEqual(['Class 7', 'Class 8', 'Class 9', 'Class 10']);
    await user.click(screen.getByRole('option', { name: 'Class 10' }));
    expect(await screen.findByText('No students in Class 10')).toBeInTheDocument();
    await waitFor(() => expect(rosterCalls(api)).toHaveLength(1));
    expect(rosterCalls(api)[0]?.url.searchParams.get('date')).toBe(todayIso());
  });
});

describe('Mark Attendance for a teacher: their own classes and days (ADR 019)', { timeout: 30_000 }, () => {
  const emptyRoster = ({ url }: { url: URL }): [number, unknown] => [
    200,
    {
      date: url.searchParams.get('date'),
      class_name: url.searchParams.get('class_name'),
      can_mark: true,
      cannot_mark_reason: null,
      students: [],
    },
  ];

  it('lists only their classes, says which days they may mark, and offers no marking rules', async () => {
    fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, teacherScope],
      'GET /api/v1/attendance/roster': emptyRoster,
    });
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, { path: '/mark-attendance', signedInAs: 'admin' });
    expect(await screen.findByText('Choose a class')).toBeInTheDocument();
    expect(
      screen.getByText(
        `You can mark attendance for your classes 7, 9, from ${formatDay(isoDaysAgo(2))} to today (2 days back). An admin can mark earlier days.`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Marking rules' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Class' }));
    expect(optionTexts()).toEqual(['Class 7', 'Class 9']);
  });

  it('ignores a class that is not theirs and a date before their window in the address', async () => {
    const api = fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, teacherScope],
      'GET /api/v1/attendance/roster': emptyRoster,
    });
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, {
      path: `/mark-attendance?class_name=8&date=${isoDaysAgo(3)}`,
      signedInAs: 'admin',
    });
    expect(await screen.findByText('Choose a class')).toBeInTheDocument();
    expect(rosterCalls(api)).toHaveLength(0);
    await user.click(screen.getByRole('combobox', { name: 'Class' }));
    await user.click(screen.getByRole('option', { name: 'Class 9' }));
    await waitFor(() => expect(rosterCalls(api)).toHaveLength(1));
    expect(rosterCalls(api)[0]?.url.searchParams.get('class_name')).toBe('9');
    expect(rosterCalls(api)[0]?.url.searchParams.get('date')).toBe(todayIso());
  });

  it('keeps a date inside the window, and opens their only class straight away', async () => {
    const api = fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, { ...teacherScope, classes: ['10'] }],
      'GET /api/v1/attendance/roster': emptyRoster,
    });
    renderPage(<MarkAttendancePage />, { path: `/mark-attendance?date=${isoDaysAgo(2)}`, signedInAs: 'admin' });
    expect(await screen.findByText('No students in Class 10')).toBeInTheDocument();
    expect(rosterCalls(api)[0]?.url.searchParams.get('date')).toBe(isoDaysAgo(2));
    expect(screen.getByText(/for your class 10,/)).toBeInTheDocument();
  });

  it('says so when no class is assigned to them, and asks for no roster', async () => {
    const reason =
      'No class is assigned to you, so you cannot mark attendance. Ask an admin to assign your classes on the Teachers screen.';
    const api = fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, { ...teacherScope, classes: [], cannot_mark_reason: reason }],
    });
    renderPage(<MarkAttendancePage />, { path: '/mark-attendance?class_name=7', signedInAs: 'admin' });
    expect(await screen.findByText('No class is assigned to you')).toBeInTheDocument();
    expect(screen.getByText(reason)).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Class' })).not.toBeInTheDocument();
    expect(rosterCalls(api)).toHaveLength(0);
  });

  it('shows a roster it may not mark read-only, with the reason, and sends nothing', async () => {
    const reason = 'You can mark attendance only for your classes (7, 9). Class 8 is not assigned to you.';
    const api = fakeApi({
      // The scope read earlier still lists class 8; the roster, read now, says it was taken away.
      'GET /api/v1/attendance/marking-scope': () => [200, { ...teacherScope, classes: ['7', '8', '9'] }],
      'GET /api/v1/attendance/roster': () => [200, { ...roster, can_mark: false, cannot_mark_reason: reason }],
    });
    renderPage(<MarkAttendancePage />, {
      path: `/mark-attendance?class_name=8&date=${yesterday}`,
      signedInAs: 'admin',
    });
    expect(await screen.findByText(reason)).toBeInTheDocument();
    for (const button of within(row('Asha Verma')).getAllByRole('button')) expect(button).toBeDisabled();
    expect(within(row('Asha Verma')).getByRole('textbox', { name: 'Remarks for Asha Verma' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Submit Attendance' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Mark All Present' })).toBeDisabled();
    // The approved record still reads as approved, not as everything locked.
    expect(screen.getByText('1 approved record is locked and will not be sent.')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });
});

describe('the marking rules, for admins', { timeout: 30_000 }, () => {
  it('shows the saved rules and saves new ones', async () => {
    let rules = { teacher_mark_days_back: 2, teachers_mark_any_class: false };
    const api = fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, adminScope],
      'GET /api/v1/settings/marking': () => [200, rules],
      'PUT /api/v1/settings/marking': ({ body }) => {
        rules = body as typeof rules;
        return [200, rules];
      },
    });
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, { path: '/mark-attendance', signedInAs: 'admin' });
    await user.click(await screen.findByRole('button', { name: 'Marking rules' }));
    const days = await screen.findByRole('textbox', { name: 'Days back a teacher may mark' });
    expect(days).toHaveValue('2');
    const anyClass = screen.getByRole('switch', { name: /Any teacher may mark any class/ });
    expect(anyClass).not.toBeChecked();

    await user.clear(days);
    await user.type(days, '40');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter a whole number from 0 to 31')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'PUT')).toEqual([]);

    await user.clear(days);
    await user.type(days, '5');
    await user.click(anyClass);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Marking rules saved')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      { teacher_mark_days_back: 5, teachers_mark_any_class: true },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows the server's refusal in the dialog", async () => {
    fakeApi({
      'GET /api/v1/attendance/marking-scope': () => [200, adminScope],
      'GET /api/v1/settings/marking': () => [200, { teacher_mark_days_back: 2, teachers_mark_any_class: false }],
      'PUT /api/v1/settings/marking': () => [403, { detail: 'You do not have permission to do this' }],
    });
    const user = userEvent.setup();
    renderPage(<MarkAttendancePage />, { path: '/mark-attendance', signedInAs: 'admin' });
    await user.click(await screen.findByRole('button', { name: 'Marking rules' }));
    await screen.findByRole('textbox', { name: 'Days back a teacher may mark' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await within(screen.getByRole('dialog')).findByText('You do not have permission to do this'),
    ).toBeInTheDocument();
  });
});
