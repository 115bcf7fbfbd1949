import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, listOf, renderPage, student } from '../../testing';
import StudentsRoute from './students';

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => vi.restoreAllMocks());

describe('the Students route', () => {
  it('gives teachers and admins a Parent Access action that opens the dialog for that student', async () => {
    const user = userEvent.setup({ delay: null });
    const students = listOf(2, student);
    const { calls } = fakeApi({
      'GET /students/': () => [200, students],
      'GET /students/2/parent-access': () => [
        200,
        {
          phone: students[1]?.parent_phone,
          parent_name: 'Parent 2',
          children: [{ id: 2, unique_id: 'STU0002', full_name: 'Student 2', class_name: '7' }],
          has_code: false,
          issued_at: null,
          issued_by: null,
          last_sign_in_at: null,
          devices_with_notifications: 0,
        },
      ],
    });
    renderPage(<StudentsRoute />, { signedInAs: 'teacher' });
    await screen.findByText('Student 1');
    expect(screen.getByRole('button', { name: 'Parent access for Student 1' })).toBeInTheDocument();
    // The action stands before Edit in the row.
    const row = screen.getByRole('row', { name: /Student 2/ });
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Parent access for Student 2', 'Edit Student 2']);

    await user.click(screen.getByRole('button', { name: 'Parent access for Student 2' }));
    const dialog = await screen.findByRole('dialog', { name: /Parent Access/ });
    expect(await within(dialog).findByText('Not issued yet')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/students/2/parent-access')).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
