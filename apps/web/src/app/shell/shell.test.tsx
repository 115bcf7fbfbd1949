import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role, TwoFactorStatus, User } from '@tuitiondesk/contract';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeTwoFactorServer, renderPage, twoFactorStatus } from '../../testing';
import Shell from './shell';

/**
 * The shell at /dashboard, for an account whose two-factor sign-in is `status`. While the account must
 * set it up, the server refuses everything else (403), as the real one does.
 */
function renderShell(role: Role, status: TwoFactorStatus, fields: Partial<User> = {}) {
  const mustEnrol = status.required && !status.enabled;
  const { account } = fakeTwoFactorServer({
    role,
    status,
    fields,
    routes: mustEnrol ? {} : { 'GET /activities/recent': () => [200, { activities: [], count: 0 }] },
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

vi.setConfig({ testTimeout: 20_000 });
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
