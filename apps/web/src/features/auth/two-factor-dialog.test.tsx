import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role, TwoFactorStatus, User } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../lib/toast';
import { AuthProvider } from './auth-provider';
import { groupSecret, RECOVERY_CODES_FILE, REQUIRE_FOR_ADMINS_LABEL, TwoFactorDialog } from './two-factor-dialog';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, i) => `ABCD${i}-EFGH${i}`);
const QR = `data:image/svg+xml;base64,${btoa('<svg xmlns="http://www.w3.org/2000/svg"/>')}`;

interface Call {
  method: string;
  path: string;
  body: unknown;
}

const off: TwoFactorStatus = {
  enabled: false,
  enabled_at: null,
  setup_pending: false,
  recovery_codes_left: 0,
  required: false,
  required_for_admins: false,
};
const on: TwoFactorStatus = { ...off, enabled: true, enabled_at: '2026-11-20T10:00:00+05:30', recovery_codes_left: 8 };

/** A fake server holding one account's two-factor state; answers by method and path and records each call. */
function fakeServer(
  role: Role,
  initial: TwoFactorStatus,
  answers: Record<string, (body: unknown) => [number, unknown]> = {},
) {
  let status = initial;
  const user = (): User => ({
    id: 1,
    username: role === 'admin' ? 'admin' : 'tch0001',
    full_name: role === 'admin' ? 'Administrator' : 'Tara Teacher',
    role,
    email: null,
    must_change_password: false,
    two_factor_enabled: status.enabled,
    must_enrol_two_factor: status.required && !status.enabled,
  });
  localStorage.setItem('token', 'test-token');
  localStorage.setItem('user', JSON.stringify(user()));
  const calls: Call[] = [];
  // As the server does: turning two-factor sign-in on or off ends every session but the caller's,
  // which gets a new token; the old one is refused from then on.
  let currentToken = 'test-token';
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const path = url.pathname.replace('/api/v1', '');
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body });
    const reply = (code: number, data: unknown) =>
      new Response(JSON.stringify(data), { status: code, headers: { 'content-type': 'application/json' } });
    const authorization = (init?.headers as Record<string, string> | undefined)?.authorization;
    if (authorization !== `Bearer ${currentToken}`) return reply(401, { detail: 'Your session has ended' });
    const custom = answers[`${method} ${path}`];
    if (custom) {
      const [code, data] = custom(body);
      return reply(code, data);
    }
    if (method === 'GET' && path === '/auth/me') return reply(200, user());
    if (method === 'GET' && path === '/auth/two-factor') return reply(200, status);
    if (method === 'POST' && path === '/auth/two-factor/setup') {
      status = { ...status, setup_pending: true };
      return reply(200, { secret: SECRET, otpauth_uri: 'otpauth://totp/x', qr_code: QR, digits: 6, period: 30 });
    }
    if (method === 'POST' && path === '/auth/two-factor/confirm') {
      if ((body as { otp: string }).otp !== '123456') return reply(400, { detail: 'That code is not right.' });
      status = { ...status, enabled: true, setup_pending: false, recovery_codes_left: 10 };
      currentToken = 'token-after-enrolling';
      return reply(200, { message: 'on', recovery_codes: CODES, access_token: currentToken, token_type: 'bearer' });
    }
    if (method === 'POST' && path === '/auth/two-factor/disable') {
      status = { ...off, required_for_admins: status.required_for_admins };
      currentToken = 'token-after-turning-off';
      return reply(200, { message: 'Two-factor sign-in is off.', access_token: currentToken, token_type: 'bearer' });
    }
    if (method === 'PUT' && path === '/settings/two-factor') {
      const next = (body as { require_admin_two_factor: boolean }).require_admin_two_factor;
      status = { ...status, required_for_admins: next, required: role === 'admin' && next };
      return reply(200, { require_admin_two_factor: next });
    }
    return reply(404, { detail: 'Not found' });
  });
  return calls;
}

function renderDialog(mode: 'account' | 'required' = 'account') {
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <AuthProvider>
          <TwoFactorDialog open mode={mode} onClose={onClose} />
        </AuthProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return onClose;
}

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => vi.restoreAllMocks());

describe('the two-factor dialog', () => {
  it('sets up an authenticator: QR code and key, one code, then the recovery codes once', async () => {
    const u = userEvent.setup({ delay: null });
    const calls = fakeServer('teacher', off);
    const createObjectURL = vi.fn(() => 'blob:codes');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const onClose = renderDialog();

    await u.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    const qr = await screen.findByRole('img', { name: 'QR code to scan with your authenticator app' });
    expect(qr).toHaveAttribute('src', QR);
    expect(screen.getByTestId('two-factor-secret')).toHaveTextContent(groupSecret(SECRET));
    expect(groupSecret(SECRET)).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');

    const field = screen.getByLabelText(/^Authentication code/);
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    await u.type(field, '000000');
    await u.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('That code is not right.')).toBeInTheDocument();

    await u.type(screen.getByLabelText(/^Authentication code/), '123 456');
    await u.click(screen.getByRole('button', { name: 'Confirm' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(screen.getByRole('heading', { name: 'Save your recovery codes' })).toBeInTheDocument();
    expect(screen.getByText(/They will not be shown again/)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/auth/two-factor/confirm').map((c) => c.body)).toEqual([
      { otp: '000000' },
      { otp: '123456' },
    ]);

    await u.click(screen.getByRole('button', { name: 'Download codes' }));
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    const text = await blob.text();
    for (const code of CODES) expect(text).toContain(code);
    expect(RECOVERY_CODES_FILE).toBe('tuitiondesk-recovery-codes.txt');

    const done = screen.getByRole('button', { name: 'Done' });
    expect(done).toBeDisabled();
    await u.click(screen.getByRole('checkbox', { name: 'I have saved my recovery codes' }));
    await u.click(done);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ two_factor_enabled: true });
    // The session goes on with the token the server handed over; nothing was refused on the old one.
    expect(localStorage.getItem('token')).toBe('token-after-enrolling');
  });

  it('shows an account with it on, and turns it off with the password and a code', async () => {
    const u = userEvent.setup({ delay: null });
    const calls = fakeServer('teacher', on);
    renderDialog();
    expect(await screen.findByText(/Two-factor sign-in is on/)).toBeInTheDocument();
    expect(screen.getByText('8 recovery codes left.')).toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();

    await u.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(screen.getByText('All fields are required')).toBeInTheDocument();
    await u.type(screen.getByLabelText(/^Current Password/), 'my-password');
    await u.type(screen.getByLabelText(/^Authentication code/), '654321');
    await u.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Two-factor sign-in turned off')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/auth/two-factor/disable')?.body).toEqual({
      current_password: 'my-password',
      otp: '654321',
    });
    expect(await screen.findByRole('button', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('token-after-turning-off');
  });

  it('shows the server’s words when turning off fails', async () => {
    const u = userEvent.setup({ delay: null });
    fakeServer('teacher', on, {
      'POST /auth/two-factor/disable': () => [400, { detail: 'Current password is incorrect' }],
    });
    renderDialog();
    await u.type(await screen.findByLabelText(/^Current Password/), 'wrong');
    await u.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    await u.type(screen.getByLabelText(/^Recovery code/), 'ABCDE-FGHJK');
    await u.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
  });

  it('gives an admin with it on the switch that requires it for every admin; then it stays on', async () => {
    const u = userEvent.setup({ delay: null });
    const calls = fakeServer('admin', on);
    renderDialog();
    const control = await screen.findByRole('switch', { name: REQUIRE_FOR_ADMINS_LABEL });
    expect(control).not.toBeChecked();
    await u.click(control);
    expect(await screen.findByText('Two-factor sign-in is now required for every admin')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      method: 'PUT',
      path: '/settings/two-factor',
      body: { require_admin_two_factor: true },
    });
    await waitFor(() => expect(screen.getByRole('switch', { name: REQUIRE_FOR_ADMINS_LABEL })).toBeChecked());
    expect(await screen.findByText(/so it stays on/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn off' })).not.toBeInTheDocument();
  });

  it('shows a refused switch change as a toast', async () => {
    const u = userEvent.setup({ delay: null });
    fakeServer('admin', on, {
      'PUT /settings/two-factor': () => [409, { detail: 'Turn on two-factor sign-in for your own account first' }],
    });
    renderDialog();
    await u.click(await screen.findByRole('switch', { name: REQUIRE_FOR_ADMINS_LABEL }));
    expect(await screen.findByText('Turn on two-factor sign-in for your own account first')).toBeInTheDocument();
  });

  it('when required, starts the setup at once and offers only signing out', async () => {
    const calls = fakeServer('admin', { ...off, required: true, required_for_admins: true });
    renderDialog('required');
    expect(
      await screen.findByText(/requires two-factor sign-in for every admin\. Set it up to continue/),
    ).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: /QR code/ })).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/auth/two-factor/setup')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
  });
});
