import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TeacherAttendanceDay, TeacherAttendanceEntry } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { teacherDayEntry as entry, type FakeReply, fakeApi, fill, renderAtWidth, renderPage } from '../../testing';
import { buildTeacherRecords } from './attendance-marks';
import TeacherAttendancePage from './teacher-attendance-page';

function dayOf(teachers: TeacherAttendanceEntry[], locked = false): TeacherAttendanceDay {
  const marked = teachers.filter((teacher) => teacher.status !== 'not_marked').length;
  return {
    date: '2026-11-22',
    total_teachers: teachers.length,
    marked_attendance: marked,
    pending_count: teachers.length - marked,
    is_locked: locked,
    locked_at: locked ? '2026-11-22T17:00:00+05:30' : null,
    locked_by: locked ? 'Centre Admin' : null,
    teachers: teachers.map((teacher) => ({ ...teacher, is_locked: locked })),
  };
}

/** Serves the day, whatever date is asked; answers each POST from `answers` by path, else "ok". */
function serve(day: TeacherAttendanceDay, answers: Record<string, FakeReply> = {}) {
  const api = fakeApi(
    {},
    {
      otherwise: ({ method, path }) => {
        if (method === 'POST') return answers[path] ?? [200, { message: 'ok' }];
        if (path.startsWith('/teacher-attendance/date/')) return [200, day];
        return [404, { detail: 'Not found' }];
      },
    },
  );
  return {
    /** Every POST, with its path and JSON body, in order. */
    posts: () => api.calls.filter((call) => call.method === 'POST').map(({ path, body }) => ({ path, body })),
  };
}

afterEach(() => vi.restoreAllMocks());

describe('buildTeacherRecords', () => {
  it('sends only marked teachers, with their remarks and no clock times', () => {
    const teachers = [
      entry(1, 'Asha Rao', { status: 'present', remarks: 'On time' }),
      entry(2, 'Ben Das'),
      entry(3, 'Chitra Iyer'),
    ];
    const edits = new Map([[3, 'half_day' as const]]);
    expect(buildTeacherRecords(teachers, edits)).toEqual([
      { teacher_id: 1, status: 'present', remarks: 'On time', check_in_time: null, check_out_time: null },
      { teacher_id: 3, status: 'half_day', remarks: null, check_in_time: null, check_out_time: null },
    ]);
  });

  it('is empty when nobody is marked', () => {
    expect(buildTeacherRecords([entry(1, 'Asha Rao'), entry(2, 'Ben Das')], new Map())).toEqual([]);
  });
});

describe('Teacher Attendance', () => {
  it('refuses to save when no teacher is marked, and sends nothing', async () => {
    const { posts } = serve(dayOf([entry(1, 'Asha Rao'), entry(2, 'Ben Das')]));
    renderPage(<TeacherAttendancePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Save Attendance' }));
    expect(await screen.findByText('Please mark attendance for at least one teacher')).toBeInTheDocument();
    expect(posts()).toEqual([]);
  });

  it('shows Not Marked but does not let it be chosen, and labels each status', async () => {
    serve(dayOf([entry(1, 'Asha Rao')]));
    renderPage(<TeacherAttendancePage />);
    const select = await screen.findByRole('combobox', { name: 'Status of Asha Rao' });
    expect(select).toHaveValue('not_marked');
    const options = within(select).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Not Marked',
      'Present',
      'Absent',
      'Half Day',
      'On Leave',
    ]);
    expect(within(select).getByRole('option', { name: 'Not Marked' })).toBeDisabled();
  });

  it('saves only the marked teachers and says how many', async () => {
    const { posts } = serve(dayOf([entry(1, 'Asha Rao'), entry(2, 'Ben Das'), entry(3, 'Chitra Iyer')]), {
      '/teacher-attendance/mark': [200, { marked_count: 2, message: 'Attendance saved successfully for 2 teachers!' }],
    });
    renderPage(<TeacherAttendancePage />);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Status of Asha Rao' }), 'present');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status of Chitra Iyer' }), 'on_leave');
    await userEvent.click(screen.getByRole('button', { name: 'Save Attendance' }));
    expect(await screen.findByText('Attendance saved successfully for 2 teachers!')).toBeInTheDocument();
    expect(posts()).toEqual([
      {
        path: '/teacher-attendance/mark',
        body: {
          date: '2026-11-22',
          teacher_records: [
            { teacher_id: 1, status: 'present', remarks: null, check_in_time: null, check_out_time: null },
            { teacher_id: 3, status: 'on_leave', remarks: null, check_in_time: null, check_out_time: null },
          ],
        },
      },
    ]);
  });

  it('shows the fallback when a save fails without a detail', async () => {
    serve(dayOf([entry(1, 'Asha Rao')]), { '/teacher-attendance/mark': new Response('', { status: 500 }) });
    renderPage(<TeacherAttendancePage />);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Status of Asha Rao' }), 'absent');
    await userEvent.click(screen.getByRole('button', { name: 'Save Attendance' }));
    expect(await screen.findByText('Failed to save teacher attendance')).toBeInTheDocument();
  });

  it('keeps Lock disabled until someone is marked', async () => {
    serve(dayOf([entry(1, 'Asha Rao')]));
    renderPage(<TeacherAttendancePage />);
    expect(await screen.findByRole('button', { name: 'Lock Attendance' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save Attendance' })).toBeEnabled();
  });

  it('locks after a confirmation that says it is irreversible', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { posts } = serve(dayOf([entry(1, 'Asha Rao', { status: 'present' })]), {
      '/teacher-attendance/lock/2026-11-22': [
        200,
        {
          date: '2026-11-22',
          is_locked: true,
          locked_count: 1,
          message: 'Attendance locked successfully for the date. No further edits allowed.',
        },
      ],
    });
    renderPage(<TeacherAttendancePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Lock Attendance' }));
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining('irreversible'));
    expect(
      await screen.findByText('Attendance locked successfully for the date. No further edits allowed.'),
    ).toBeInTheDocument();
    expect(posts().map((post) => post.path)).toEqual(['/teacher-attendance/lock/2026-11-22']);
  });

  it('does not lock when the confirmation is declined', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { posts } = serve(dayOf([entry(1, 'Asha Rao', { status: 'present' })]));
    renderPage(<TeacherAttendancePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Lock Attendance' }));
    expect(posts()).toEqual([]);
  });

  it('on a locked day warns, and disables the selects, Save and Lock', async () => {
    serve(dayOf([entry(1, 'Asha Rao', { status: 'present', remarks: 'On time' }), entry(2, 'Ben Das')], true));
    renderPage(<TeacherAttendancePage />);
    expect(await screen.findByText('Attendance for this date is locked and cannot be modified.')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Status of Asha Rao' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Status of Ben Das' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save Attendance' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Lock Attendance' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Remarks for/ })).toBeNull();
    expect(screen.getByText('On time')).toBeInTheDocument();
  });

  it('saves remarks from the Add Remarks dialog', async () => {
    const { posts } = serve(dayOf([entry(1, 'Asha Rao')]), {
      '/teacher-attendance/update-remarks': [200, { message: 'Remarks saved successfully.' }],
    });
    renderPage(<TeacherAttendancePage />);
    await userEvent.click(await screen.findByRole('button', { name: /Remarks for Asha Rao/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Remarks' });
    const field = within(dialog).getByRole('textbox', { name: 'Remarks' });
    expect(field).toHaveAttribute('placeholder', 'Notes');
    await fill(field, 'Left early');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Remarks saved successfully.')).toBeInTheDocument();
    expect(posts()).toEqual([
      {
        path: '/teacher-attendance/update-remarks',
        body: { teacher_id: 1, date: '2026-11-22', remarks: 'Left early' },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the remarks fallback inside the dialog when the save fails', async () => {
    serve(dayOf([entry(1, 'Asha Rao')]), { '/teacher-attendance/update-remarks': new Response('', { status: 500 }) });
    renderPage(<TeacherAttendancePage />);
    await userEvent.click(await screen.findByRole('button', { name: /Remarks for Asha Rao/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Remarks' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Failed to save remarks')).toBeInTheDocument();
  });
});

describe('Teacher Attendance on a phone', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('gives each teacher a card with every column, the status picker and remarks in it', async () => {
    renderAtWidth(390);
    const { posts } = serve(dayOf([entry(1, 'Asha Rao'), entry(2, 'Ben Das', { remarks: 'Left early' })]));
    renderPage(<TeacherAttendancePage />);
    const list = await screen.findByRole('list', { name: 'Teacher attendance, 22 Nov 2026' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const card = within(list).getByRole('listitem', { name: 'Ben Das' });
    expect([...card.querySelectorAll('dt')].map((term) => term.textContent)).toEqual([
      'Teacher ID',
      'Phone',
      'Status',
      'Remarks',
    ]);
    expect(within(card).getByText('TCH0002')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: /^Remarks for Ben Das:\s*Left early$/ })).toBeInTheDocument();
    await userEvent.selectOptions(within(card).getByRole('combobox', { name: 'Status of Ben Das' }), 'present');
    await userEvent.click(screen.getByRole('button', { name: 'Save Attendance' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.body).toMatchObject({ teacher_records: [{ teacher_id: 2, status: 'present' }] });
  });

  it('disables every status picker on a locked day', async () => {
    renderAtWidth(390);
    serve(dayOf([entry(1, 'Asha Rao', { status: 'present' })], true));
    renderPage(<TeacherAttendancePage />);
    const card = await screen.findByRole('listitem', { name: 'Asha Rao' });
    expect(within(card).getByRole('combobox', { name: 'Status of Asha Rao' })).toBeDisabled();
    expect(within(card).getByText('-')).toBeInTheDocument();
  });
});
