import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CreatedTeacher } from '@tuitiondesk/contract';
import { describe, expect, it, vi } from 'vitest';
import { renderPage, teacher } from '../../testing';
import { InitialPasswordDialog } from './initial-password-dialog';

const created: CreatedTeacher = {
  ...teacher(9, { user_id: 19, full_name: 'Priya Sharma', first_name: 'Priya', last_name: 'Sharma' }),
  initial_password: 'k7Qp-2mXz-9fRt',
  message: 'Teacher created',
};

describe('the initial-password dialog', () => {
  it('shows the username and password once, with the warning, and copies them', async () => {
    const user = userEvent.setup({ delay: null });
    const onClose = vi.fn();
    renderPage(<InitialPasswordDialog teacher={created} onClose={onClose} />);

    expect(screen.getByRole('dialog', { name: 'Teacher sign-in created' })).toBeInTheDocument();
    expect(screen.getByText('tch0009')).toBeInTheDocument();
    expect(screen.getByText('k7Qp-2mXz-9fRt')).toBeInTheDocument();
    expect(screen.getByText(/will not be shown again/)).toHaveTextContent(
      'This password will not be shown again. Copy it now and hand it to the teacher, who must change it at first sign-in.',
    );

    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('Username: tch0009\nInitial password: k7Qp-2mXz-9fRt');

    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('says how to copy by hand when the clipboard is refused', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage(<InitialPasswordDialog teacher={created} onClose={() => {}} />);
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText(/Select the password and copy it by hand/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });
});
