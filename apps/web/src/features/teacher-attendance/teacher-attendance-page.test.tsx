import { LocalizationProvider } from '@mui/x-date-pickers';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TeacherAttendanceDay, TeacherAttendanceEntry } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../lib/toast';
import { buildTeacherRecords } from './attendance-marks';
import TeacherAttendancePage from './teacher-attendance-page';

// The suite shares busy machines: give slow renders time before a query gives up.
configure({ asyncUtilTimeout: 4000 });

function entry(id: number, name: string, change: Partial<TeacherAttendanceEntry> = {}): TeacherAttendanceEntry {
  return {
    teacher_id: id,
    teacher_unique_id: `TCH000${id}`,
    teacher_name: name,
    phone_number: `+9198765432${id}0`,
    status: 'not_marked',
    remarks: null,
    check_in_time: null,
    check_out_time: null,
    is_locked: false,
    ...change,
  };
}

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

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Serves the day; records every POST body by path. */
function serve(day: TeacherAttendanceDay, answers: Record<string, Response> = {}) {
  const posts: { path: string; body: unknown }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const path = new URL(String(input), 'http://localhost').pathname.replace('/api/v1', '');
    if (init?.method === 'POST') {
      posts.push({ path, body: init.body ? JSON.parse(String(init.body)) : undefined });
      return answers[path] ?? json({ message: 'ok' });
    }
    if (path.startsWith('/teacher-attendance/date/')) return json(day);
    return json({ detail: 'Not found' }, 404);
  });
  return posts;
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <QueryClientProvider client={client}>
        <ToastProvider>
          <TeacherAttendancePage />
        </ToastProvider>
      </QueryClientProvider>
    </LocalizationProvider>,
  );
}

/** Puts text in a field in one go (typing key by key is slow, and is not what these tests are about). */
async function fill(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
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

describe('Teacher Attendance', { timeout: 20_000 }, () => {
  it('refuses to save when no teacher is marked, and sends nothing', async () => {
    const posts = serve(dayOf([entry(1, 'Asha Rao'), entry(2, 'Ben Das')]));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Save Attendance' }));
    expect(await screen.findByText('Please mark attendance for at least one teacher')).toBeInTheDocument();
    expect(posts).toEqual([]);
  });

  it('shows Not Marked but does not let it be chosen, and labels each status', async () => {
    serve(dayOf([entry(1, 'Asha Rao')]));
    renderPage();
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
    const posts = serve(dayOf([entry(1, 'Asha Rao'), entry(2, 'Ben Das'), entry(3, 'Chitra Iyer')]), {
      '/teacher-attendance/mark': json({ marked_count: 2, message: 'Attendance saved successfully for 2 teachers!' }),
    });
    renderPage();
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Status of Asha Rao' }), 'present');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status of Chitra Iyer' }), 'on_leave');
    await userEvent.click(screen.getByRole('button', { name: 'Save Attendance' }));
    expect(await screen.findByText('Attendance saved successfully for 2 teachers!')).toBeInTheDocument();
    expect(posts).toEqual([
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
    renderPage();
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Status of Asha Rao' }), 'absent');
    await userEvent.click(screen.getByRole('button', { name: 'Save Attendance' }));
    expect(await screen.findByText('Failed to save teacher attendance')).toBeInTheDocument();
  });

  it('keeps Lock disabled until someone is marked', async () => {
    serve(dayOf([entry(1, 'Asha Rao')]));
    renderPage();
    expect(await screen.findByRole('button', { name: 'Lock Attendance' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save Attendance' })).toBeEnabled();
  });

  it('locks after a confirmation that says it is irreversible', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const posts = serve(dayOf([entry(1, 'Asha Rao', { status: 'present' })]), {
      '/teacher-attendance/lock/2026-11-22': json({
        date: '2026-11-22',
        is_locked: true,
        locked_count: 1,
        message: 'Attendance locked successfully for the date. No further edits allowed.',
      }),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Lock Attendance' }));
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining('irreversible'));
    expect(
      await screen.findByText('Attendance locked successfully for the date. No further edits allowed.'),
    ).toBeInTheDocument();
    expect(posts.map((post) => post.path)).toEqual(['/teacher-attendance/lock/2026-11-22']);
  });

  it('does not lock when the confirmation is declined', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const posts = serve(dayOf([entry(1, 'Asha Rao', { status: 'present' })]));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Lock Attendance' }));
    expect(posts).toEqual([]);
  });

  it('on a locked day warns, and disables the selects, Save and Lock', async () => {
    serve(dayOf([entry(1, 'Asha Rao', { status: 'present', remarks: 'On time' }), entry(2, 'Ben Das')], true));
    renderPage();
    expect(await screen.findByText('Attendance for this date is locked and cannot be modified.')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Status of Asha Rao' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Status of Ben Das' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save Attendance' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Lock Attendance' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Remarks for/ })).toBeNull();
    expect(screen.getByText('On time')).toBeInTheDocument();
  });

  it('saves remarks from the Add Remarks dialog', async () => {
    const posts = serve(dayOf([entry(1, 'Asha Rao')]), {
      '/teacher-attendance/update-remarks': json({ message: 'Remarks saved successfully.' }),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: /Remarks for Asha Rao/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Remarks' });
    const field = within(dialog).getByRole('textbox', { name: 'Remarks' });
    expect(field).toHaveAttribute('placeholder', 'Notes');
    await fill(field, 'Left early');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Remarks saved successfully.')).toBeInTheDocument();
    expect(posts).toEqual([
      {
        path: '/teacher-attendance/update-remarks',
        body: { teacher_id: 1, date: '2026-11-22', remarks: 'Left early' },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the remarks fallback inside the dialog when the save fails', async () => {
    serve(dayOf([entry(1, 'Asha Rao')]), { '/teacher-attendance/update-remarks': new Response('', { status: 500 }) });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: /Remarks for Asha Rao/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Remarks' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Failed to save remarks')).toBeInTheDocument();
  });
});
