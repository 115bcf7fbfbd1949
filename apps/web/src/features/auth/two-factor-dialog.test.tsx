import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role, TwoFactorStatus } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  RECOVERY_CODES as CODES,
  type FakeRoute,
  fakeTwoFactorServer,
  SETUP_QR as QR,
  renderPage,
  SETUP_SECRET as SECRET,
  twoFactorOn,
  twoFactorStatus,
} from '../../testing';
import { groupSecret } from './authenticator-key';
import { RECOVERY_CODES_FILE } from './recovery-codes';
import { TwoFactorDialog } from './two-factor-dialog';

type Props = Parameters<typeof TwoFactorDialog>[0];

const off = twoFactorStatus();
const on = twoFactorOn();

/** The dialog as the account menu (or the centre's requirement) opens it, for an account of `role`. */
function renderDialog(
  role: Role,
  status: TwoFactorStatus,
  options: { mode?: 'account' | 'required'; routes?: Record<string, FakeRoute> } & Pick<Props, 'afterStatus'> = {},
) {
  const { mode = 'account', routes, afterStatus } = options;
  const { calls, account } = fakeTwoFactorServer({ role, status, routes });
  const onClose = vi.fn();
  const dialog = <TwoFactorDialog open mode={mode} onClose={onClose} afterStatus={afterStatus} />;
  const { unmount } = renderPage(dialog, { signedInAs: account });
  return { calls, onClose, unmount };
}

afterEach(() => vi.restoreAllMocks());

describe('the two-factor dialog', () => {
  it('sets up an authenticator: QR code and key, one code, then the recovery codes once', async () => {
    const u = userEvent.setup({ delay: null });
    const createObjectURL = vi.fn(() => 'blob:codes');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { calls, onClose } = renderDialog('teacher', off);

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
    const { calls } = renderDialog('teacher', on);
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
    renderDialog('teacher', on, {
      routes: { 'POST /auth/two-factor/disable': () => [400, { detail: 'Current password is incorrect' }] },
    });
    await u.type(await screen.findByLabelText(/^Current Password/), 'wrong');
    await u.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    await u.type(screen.getByLabelText(/^Recovery code/), 'ABCDE-FGHJK');
    await u.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
  });

  it('places what the app gives it below the status once it is on, with that status; not before, not when required', async () => {
    const afterStatus = (status: TwoFactorStatus) => <p>Placed by the app: {status.recovery_codes_left} codes left</p>;
    const first = renderDialog('admin', on, { afterStatus });
    expect(await screen.findByText('Placed by the app: 8 codes left')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Turn off' })).toBeInTheDocument();
    first.unmount();
    vi.restoreAllMocks();

    const second = renderDialog('admin', off, { afterStatus });
    expect(await screen.findByRole('button', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
    expect(screen.queryByText(/Placed by the app/)).not.toBeInTheDocument();
    second.unmount();
    vi.restoreAllMocks();

    renderDialog('admin', twoFactorOn({ required: true, required_for_admins: true }), {
      mode: 'required',
      afterStatus,
    });
    expect(await screen.findByText(/so it stays on/)).toBeInTheDocument();
    expect(screen.queryByText(/Placed by the app/)).not.toBeInTheDocument();
  });

  it('when required, starts the setup at once and offers only signing out', async () => {
    const { calls } = renderDialog('admin', twoFactorStatus({ required: true, required_for_admins: true }), {
      mode: 'required',
    });
    expect(
      await screen.findByText(/requires two-factor sign-in for every admin\. Set it up to continue/),
    ).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: /QR code/ })).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/auth/two-factor/setup')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
  });
});
