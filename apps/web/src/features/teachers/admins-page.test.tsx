import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminAccount, PasswordReset, Teacher } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, json, listOf, teacher as makeTeacher, renderPage } from '../../testing';
import AdminsPage from './admins-page';
import TeachersPage from './teachers-page';

afterEach(() => vi.restoreAllMocks());

function admin(id: number, fields: Partial<AdminAccount> = {}): AdminAccount {
  return {
    id,
    username: id === 1 ? 'admin' : `deputy${id}`,
    full_name: id === 1 ? 'Centre Admin' : `Deputy ${id}`,
    disabled: false,
    must_change_password: false,
    two_factor_enabled: false,
    created_at: '2026-11-27T10:00:00+05:30',
    ...fields,
  };
}

const RESET: PasswordReset = {
  user_id: 102,
  username: 'tch0002',
  full_name: 'Teacher 2',
  role: 'teacher',
  new_password: 'Xq7mPa2vLk9sWt4d',
  message: 'Password reset',
};

describe('Reset password on the Teachers screen', () => {
  it('asks first, then shows the new password once; Cancel sends nothing', async () => {
    const user = userEvent.setup({ delay: null });
    const teachers: Teacher[] = listOf(2, (id) => makeTeacher(id));
    const { calls } = fakeApi({
      'GET /teachers/': () => [200, teachers],
      'GET /students/classes': () => [200, []],
      'POST /staff/102/reset-password': () => json(RESET),
    });
    renderPage(<TeachersPage />, { signedInAs: 'admin' });
    const reset = await screen.findByRole('button', { name: 'Reset password for Teacher 2' });

    await user.click(reset);
    let dialog = await screen.findByRole('dialog', { name: 'Reset password for Teacher 2' });
    expect(dialog).toHaveTextContent('Teacher 2 gets a new password, shown to you once');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await user.click(reset);
    dialog = await screen.findByRole('dialog', { name: 'Reset password for Teacher 2' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset password' }));
    const shown = await screen.findByRole('dialog', { name: 'Password reset' });
    expect(within(shown).getByText('Xq7mPa2vLk9sWt4d')).toBeInTheDocument();
    expect(within(shown).getByText('tch0002')).toBeInTheDocument();
    expect(shown).toHaveTextContent('This password will not be shown again.');
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/staff/102/reset-password',
    ]);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText('Xq7mPa2vLk9sWt4d')).not.toBeInTheDocument());
  });

  it('says what the server refused, in the dialog', async () => {
    const user = userEvent.setup({ delay: null });
    fakeApi({
      'GET /teachers/': () => [200, [makeTeacher(1)]],
      'GET /students/classes': () => [200, []],
      'POST /staff/101/reset-password': () => [404, { detail: 'Staff account with id 101 was not found' }],
    });
    renderPage(<TeachersPage />, { signedInAs: 'admin' });
    await user.click(await screen.findByRole('button', { name: 'Reset password for Teacher 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset password for Teacher 1' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset password' }));
    expect(await within(dialog).findByText('Staff account with id 101 was not found')).toBeInTheDocument();
  });
});

describe('the Admins screen', () => {
  it('lists admins; one’s own account offers nothing to switch off or remove', async () => {
    fakeApi({ 'GET /admins': () => [200, [admin(1), admin(2, { disabled: true, must_change_password: true })]] });
    renderPage(<AdminsPage />, { signedInAs: 'admin' });
    const own = await screen.findByRole('listitem', { name: 'Centre Admin' });
    expect(own).toHaveTextContent('(you)');
    expect(within(own).queryByRole('button')).not.toBeInTheDocument();
    const other = screen.getByRole('listitem', { name: 'Deputy 2' });
    expect(other).toHaveTextContent('Switched off');
    expect(other).toHaveTextContent('Must change password');
    expect(within(other).getByRole('button', { name: 'Switch on' })).toBeInTheDocument();
  });

  it('adds an admin and shows the initial password once', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = fakeApi({
      'GET /admins': () => [200, [admin(1)]],
      'POST /admins': () =>
        json({
          ...admin(3, { username: 'meena', full_name: 'Meena Rao' }),
          initial_password: 'Pw4Once9Only2Go7',
          message: 'ok',
        }),
    });
    renderPage(<AdminsPage />, { signedInAs: 'admin' });
    await user.click(await screen.findByRole('button', { name: 'Add Admin' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Admin' });
    const create = within(dialog).getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: /Full Name/ }), 'Meena Rao');
    await user.type(within(dialog).getByRole('textbox', { name: /Username/ }), ' meena ');
    await user.click(create);
    const shown = await screen.findByRole('dialog', { name: 'Admin account created' });
    expect(within(shown).getByText('Pw4Once9Only2Go7')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ username: 'meena', full_name: 'Meena Rao' });
  });

  it('switches an admin off, and says why the server refused a removal', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = fakeApi({
      'GET /admins': () => [200, [admin(1), admin(2)]],
      'POST /admins/2/disable': () => json(admin(2, { disabled: true })),
      'DELETE /admins/2': () => [
        409,
        { detail: 'Deputy 2 is the last admin account in use: add or switch on another admin first' },
      ],
    });
    renderPage(<AdminsPage />, { signedInAs: 'admin' });
    const other = await screen.findByRole('listitem', { name: 'Deputy 2' });
    await user.click(within(other).getByRole('button', { name: 'Switch off' }));
    expect(await screen.findByText('Deputy 2 is switched off and signed out.')).toBeInTheDocument();

    await user.click(within(other).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Deputy 2?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(/is the last admin account in use/)).toBeInTheDocument();
    expect(calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /admins/2/disable',
      'DELETE /admins/2',
    ]);
  });
});
