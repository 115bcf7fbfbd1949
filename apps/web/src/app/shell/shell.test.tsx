import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role, TwoFactorStatus, User } from '@tuitiondesk/contract';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeRoute, fakeTwoFactorServer, renderPage, twoFactorStatus } from '../../testing';
import Shell from './shell';

/**
 * The shell at /dashboard, for an account whose two-factor sign-in is `status`. While the account must
 * set it up, the server refuses everything else (403), as the real one does.
 */
function renderShell(
  role: Role,
  status: TwoFactorStatus,
  fields: Partial<User> = {},
  routes: Record<string, FakeRoute> = {},
) {
  const mustEnrol = status.required && !status.enabled;
  const { account } = fakeTwoFactorServer({
    role,
    status,
    fields,
    routes: mustEnrol ? {} : { 'GET /activities/recent': () => [200, { activities: [], count: 0 }], ...routes },
    otherwise: mustEnrol ? () => [403, { detail: 'Set up two-factor sign-in to continue' }] : undefined,
  });
  renderPage(
    <Routes>
      <Route path="/" element={<Shell />}>
        <Route path="dashboard" element={<p>Dashboard page</p>} />
      </Route>
    </Routes>,
    { path: '/dashboard', signedInAs: account },
  );
}

const required = twoFactorStatus({ required: true, required_for_admins: true });

afterEach(() => vi.restoreAllMocks());

describe('the shell and two-factor sign-in', () => {
  it('opens the two-factor dialog from the account menu, and closes it', async () => {
    const u = userEvent.setup({ delay: null });
    renderShell('teacher', twoFactorStatus());
    await screen.findByText('Dashboard page');
    await u.click(screen.getByRole('button', { name: 'Account' }));
    await u.click(screen.getByRole('menuitem', { name: 'Two-factor sign-in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Two-factor sign-in' });
    expect(await screen.findByRole('button', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Close' }));
    await vi.waitFor(() => expect(dialog).not.toBeInTheDocument());
  });

  it('lets an admin change their own password from the account menu', async () => {
    const u = userEvent.setup({ delay: null });
    const changes: unknown[] = [];
    renderShell(
      'admin',
      twoFactorStatus(),
      {},
      {
        'POST /auth/change-password': ({ body }) => {
          changes.push(body);
          const user: unknown = JSON.parse(localStorage.getItem('user') ?? 'null');
          return [200, { message: 'ok', access_token: 'new-token', token_type: 'bearer', user }];
        },
      },
    );
    await screen.findByText('Dashboard page');
    await u.click(screen.getByRole('button', { name: 'Account' }));
    await u.click(screen.getByRole('menuitem', { name: 'Change Password' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Change Password' }));
    await u.type(dialog.getByLabelText(/^Current Password/), 'old-secret-words');
    await u.type(dialog.getByLabelText(/^New Password/), 'river-lantern-meadow-9');
    await u.type(dialog.getByLabelText(/^Confirm New Password/), 'river-lantern-meadow-9');
    await u.click(dialog.getByRole('button', { name: 'Change Password' }));
    await vi.waitFor(() =>
      expect(changes).toEqual([{ current_password: 'old-secret-words', new_password: 'river-lantern-meadow-9' }]),
    );
    expect(await screen.findByText('Password changed successfully.')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('new-token');
  });

  it('asks the first admin for their own password without saying an administrator set it', async () => {
    renderShell('admin', twoFactorStatus(), { must_change_password: true });
    const dialog = within(await screen.findByRole('dialog', { name: 'Choose a new password' }));
    expect(
      dialog.getByText('This password was given to you, not chosen by you. Choose your own before you continue.'),
    ).toBeInTheDocument();
    expect(dialog.queryByText(/administrator/)).toBeNull();
  });

  it('makes an admin whom the centre requires to set it up do so first, with no way to dismiss it', async () => {
    const u = userEvent.setup({ delay: null });
    renderShell('admin', required);
    const dialog = await screen.findByRole('dialog', { name: 'Set up two-factor sign-in' });
    expect(await screen.findByRole('img', { name: /QR code/ })).toBeInTheDocument();
    await u.keyboard('{Escape}');
    expect(dialog).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('asks for a new password before the authenticator when both are due', async () => {
    renderShell('admin', required, { must_change_password: true });
    expect(await screen.findByRole('dialog', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Set up two-factor sign-in' })).not.toBeInTheDocument();
  });
});
