import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TwoFactorStatus, User } from '@tuitiondesk/contract';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../features/auth/auth-provider';
import { ToastProvider } from '../../lib/toast';
import Shell from './shell';

const status: TwoFactorStatus = {
  enabled: false,
  enabled_at: null,
  setup_pending: false,
  recovery_codes_left: 0,
  required: false,
  required_for_admins: false,
};

function renderShell(user: User, twoFactor: TwoFactorStatus = status) {
  localStorage.setItem('token', 'token-1');
  localStorage.setItem('user', JSON.stringify(user));
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = new URL(String(input), 'http://localhost').pathname.replace('/api/v1', '');
    const reply = (code: number, body: unknown) =>
      new Response(JSON.stringify(body), { status: code, headers: { 'content-type': 'application/json' } });
    if (path === '/auth/me') return reply(200, user);
    if (path === '/auth/two-factor') return reply(200, twoFactor);
    if (path === '/auth/two-factor/setup') {
      return reply(200, {
        secret: 'JBSWY3DPEHPK3PXP',
        otpauth_uri: 'otpauth://totp/x',
        qr_code: 'data:,',
        digits: 6,
        period: 30,
      });
    }
    if (user.must_enrol_two_factor) return reply(403, { detail: 'Set up two-factor sign-in to continue' });
    if (path === '/activities/recent') return reply(200, { activities: [], count: 0 });
    return reply(404, { detail: 'Not found' });
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/dashboard']}>
        <ToastProvider>
          <AuthProvider>
            <Routes>
              <Route path="/" element={<Shell />}>
                <Route path="dashboard" element={<p>Dashboard page</p>} />
              </Route>
            </Routes>
          </AuthProvider>
        </ToastProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const teacher: User = {
  id: 4,
  username: 'tch0004',
  full_name: 'Tara Teacher',
  role: 'teacher',
  email: null,
  must_change_password: false,
  two_factor_enabled: false,
  must_enrol_two_factor: false,
};

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => vi.restoreAllMocks());

describe('the shell and two-factor sign-in', () => {
  it('opens the two-factor dialog from the account menu, and closes it', async () => {
    const u = userEvent.setup({ delay: null });
    renderShell(teacher);
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
    const admin: User = { ...teacher, id: 1, username: 'admin', role: 'admin', must_enrol_two_factor: true };
    renderShell(admin, { ...status, required: true, required_for_admins: true });
    const dialog = await screen.findByRole('dialog', { name: 'Set up two-factor sign-in' });
    expect(await screen.findByRole('img', { name: /QR code/ })).toBeInTheDocument();
    await u.keyboard('{Escape}');
    expect(dialog).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('asks for a new password before the authenticator when both are due', async () => {
    const admin: User = {
      ...teacher,
      id: 1,
      username: 'admin',
      role: 'admin',
      must_change_password: true,
      must_enrol_two_factor: true,
    };
    renderShell(admin, { ...status, required: true, required_for_admins: true });
    expect(await screen.findByRole('dialog', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Set up two-factor sign-in' })).not.toBeInTheDocument();
  });
});
