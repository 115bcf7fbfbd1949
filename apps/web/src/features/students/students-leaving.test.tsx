import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role, Student } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { todayIso } from '../../lib/dates';
import { type FakeRoute, fakeApi, json, listOf, renderPage, student } from '../../testing';
import { restoreQuestion } from './leaving-actions';
import { SCRUB_MONTHS_LABEL } from './scrub-setting';
import StudentsPage from './students-page';

/** The current students on GET /students/, those who left on ?status=left; the routes given besides. */
function openStudents(
  role: Role,
  lists: { current: Student[]; left?: Student[] },
  routes: Record<string, FakeRoute> = {},
) {
  const { calls } = fakeApi({
    'GET /students/': ({ url }) => [
      200,
      url.searchParams.get('status') === 'left' ? (lists.left ?? []) : lists.current,
    ],
    'GET /settings/students': () => [200, { scrub_left_after_months: 24 }],
    ...routes,
  });
  renderPage(<StudentsPage />, { signedInAs: role });
  return calls;
}

afterEach(() => vi.restoreAllMocks());

const gone = (id: number, fields: Partial<Student> = {}) =>
  student(id, { full_name: `Left ${id}`, left_on: '2026-10-31', ...fields });

describe('students who leave, on the Students screen', () => {
  it('marks a student as left on today by default, after the dialog that says what it does', async () => {
    const user = userEvent.setup({ delay: null });
    const calls = openStudents(
      'admin',
      { current: listOf(2, student) },
      {
        'POST /students/2/leave': ({ body }) => [200, { ...student(2), ...(body as object) }],
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Mark Student 2 as left' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark Student 2 as left?' });
    expect(dialog).toHaveTextContent(
      'Student 2 leaves the student list, the registers after that day and the messages to parents.',
    );
    expect(within(dialog).getByRole('group', { name: 'Left on' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Mark as left' }));
    expect(await screen.findByText('Student 2 marked as left.')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/students/2/leave')?.body).toEqual({ left_on: todayIso() });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The list is asked again once the server has the change.
    expect(calls.filter((call) => call.method === 'GET' && call.path === '/students/').length).toBeGreaterThan(1);
  });

  it('keeps the dialog open with the server detail when it refuses, and sends nothing when cancelled', async () => {
    const user = userEvent.setup({ delay: null });
    const calls = openStudents(
      'admin',
      { current: listOf(2, student) },
      {
        'POST /students/1/leave': () => json({ detail: 'Student 1 already left on 31 Oct 2026' }, 409),
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Mark Student 2 as left' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Mark Student 2 as left?' })).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Mark Student 1 as left' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark Student 1 as left?' });
    await user.click(within(dialog).getByRole('button', { name: 'Mark as left' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Student 1 already left on 31 Oct 2026');
  });

  it('lists the students who left with their day, and restores one after the confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true);
    const calls = openStudents(
      'admin',
      {
        current: listOf(1, student),
        left: [
          gone(7),
          gone(8, {
            full_name: 'Former student STU0008',
            scrubbed_at: '2026-11-01T00:00:00Z',
            parent_phone: '',
            parent_name: '',
          }),
        ],
      },
      { 'POST /students/7/restore': () => [200, student(7)] },
    );
    await screen.findByText('Student 1');
    await user.click(screen.getByRole('button', { name: 'Students who left' }));
    const row = (await screen.findByRole('row', { name: /Left 7/ })) as HTMLElement;
    expect(screen.getByRole('columnheader', { name: 'Left on' })).toBeInTheDocument();
    expect(within(row).getByText('31 Oct 2026')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /as left$/ })).not.toBeInTheDocument();
    // Once their data was removed there is nothing to restore.
    expect(screen.queryByRole('button', { name: 'Restore Former student STU0008' })).not.toBeInTheDocument();
    expect(calls.some((call) => call.url.search === '?status=left')).toBe(true);

    await user.click(within(row).getByRole('button', { name: 'Restore Left 7' }));
    expect(confirm).toHaveBeenLastCalledWith(restoreQuestion('Left 7'));
    expect(calls.some((call) => call.path === '/students/7/restore')).toBe(false);
    await user.click(within(row).getByRole('button', { name: 'Restore Left 7' }));
    expect(await screen.findByText('Left 7 restored.')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/students/7/restore')).toHaveLength(1);
  });

  it('says the refusal of a restore', async () => {
    const user = userEvent.setup({ delay: null });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    openStudents(
      'admin',
      { current: [], left: [gone(7)] },
      {
        'POST /students/7/restore': () => json({ detail: 'Left 7 has not left, so cannot be restored' }, 409),
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Students who left' }));
    await user.click(await screen.findByRole('button', { name: 'Restore Left 7' }));
    expect(await screen.findByText('Left 7 has not left, so cannot be restored')).toBeInTheDocument();
  });

  it('says when nobody has left', async () => {
    const user = userEvent.setup({ delay: null });
    openStudents('admin', { current: listOf(1, student), left: [] });
    await user.click(await screen.findByRole('button', { name: 'Students who left' }));
    expect(await screen.findByText('No students have left')).toBeInTheDocument();
  });

  it('gives teachers neither the switch nor Mark as left', async () => {
    const calls = openStudents('teacher', { current: listOf(2, student) });
    await screen.findByText('Student 1');
    expect(screen.queryByRole('button', { name: 'Students who left' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /as left$/ })).not.toBeInTheDocument();
    expect(calls.some((call) => call.path === '/settings/students')).toBe(false);
  });

  it('shows the months setting with the students who left; the server says what is wrong with a value', async () => {
    const user = userEvent.setup({ delay: null });
    const calls = openStudents(
      'admin',
      { current: [], left: [] },
      {
        'PUT /settings/students': ({ body }) =>
          (body as { scrub_left_after_months: number }).scrub_left_after_months === 0
            ? [422, { detail: 'scrub_left_after_months: must be a whole number of months from 1 to 120' }]
            : [200, body],
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Students who left' }));
    const field = await screen.findByRole('spinbutton', { name: SCRUB_MONTHS_LABEL });
    await waitFor(() => expect(field).toHaveValue(24));
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    await user.clear(field);
    await user.type(field, '0');
    await user.click(save);
    expect(
      await screen.findByText('scrub_left_after_months: must be a whole number of months from 1 to 120'),
    ).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, '36');
    await user.click(save);
    expect(await screen.findByText('Personal data will be removed 36 months after leaving')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      { scrub_left_after_months: 0 },
      { scrub_left_after_months: 36 },
    ]);
  });
});
