import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role, TwoFactorStatus } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REQUIRE_FOR_ADMINS_LABEL } from '../../features/settings/admin-two-factor-switch';
import { type FakeRoute, fakeTwoFactorServer, renderPage, twoFactorOn, twoFactorStatus } from '../../testing';
import { AccountTwoFactorDialog } from './account-two-factor';

function renderAccountDialog(role: Role, status: TwoFactorStatus, routes: Record<string, FakeRoute> = {}) {
  const { calls, account } = fakeTwoFactorServer({ role, status, routes });
  renderPage(<AccountTwoFactorDialog open onClose={() => undefined} />, { signedInAs: account });
  return calls;
}

afterEach(() => vi.restoreAllMocks());

describe("the account menu's two-factor dialog", () => {
  it('gives an admin with it on the switch that requires it for every admin; then it stays on', async () => {
    const u = userEvent.setup({ delay: null });
    const calls = renderAccountDialog('admin', twoFactorOn());
    const control = await screen.findByRole('switch', { name: REQUIRE_FOR_ADMINS_LABEL });
    expect(control).not.toBeChecked();
    expect(screen.getByText(/^Centre setting\. Admins who have not set it up must do so/)).toBeInTheDocument();
    await u.click(control);
    expect(await screen.findByText('Two-factor sign-in is now required for every admin')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').map(({ path, body }) => ({ path, body }))).toEqual([
      { path: '/settings/two-factor', body: { require_admin_two_factor: true } },
    ]);
    await waitFor(() => expect(screen.getByRole('switch', { name: REQUIRE_FOR_ADMINS_LABEL })).toBeChecked());
    // The account's status follows the centre's rule: required now, so it cannot be turned off.
    expect(await screen.findByText(/so it stays on/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn off' })).not.toBeInTheDocument();
  });

  it('shows a refused switch change as a toast, and the switch as it was', async () => {
    const u = userEvent.setup({ delay: null });
    renderAccountDialog('admin', twoFactorOn(), {
      'PUT /settings/two-factor': () => [409, { detail: 'Turn on two-factor sign-in for your own account first' }],
    });
    await u.click(await screen.findByRole('switch', { name: REQUIRE_FOR_ADMINS_LABEL }));
    expect(await screen.findByText('Turn on two-factor sign-in for your own account first')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('switch', { name: REQUIRE_FOR_ADMINS_LABEL })).not.toBeChecked());
  });

  it('gives no switch to an admin without two-factor sign-in on', async () => {
    renderAccountDialog('admin', twoFactorStatus());
    expect(await screen.findByRole('button', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });

  it('gives a teacher with it on no switch', async () => {
    renderAccountDialog('teacher', twoFactorOn());
    expect(await screen.findByText('8 recovery codes left.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Turn off' })).toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });
});
