import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { twoFactorStatusQuery } from '../../lib/auth/two-factor-status';
import { type FakeReply, fakeApi, renderPage, twoFactorOn } from '../../testing';
import { AdminTwoFactorSwitch, REQUIRE_FOR_ADMINS_LABEL } from './admin-two-factor-switch';

function renderSwitch(requiredForAdmins: boolean, reply: (body: unknown) => FakeReply) {
  const { calls } = fakeApi({ 'PUT /settings/two-factor': ({ body }) => reply(body) });
  const { client } = renderPage(<AdminTwoFactorSwitch requiredForAdmins={requiredForAdmins} />);
  return { calls, client };
}

afterEach(() => vi.restoreAllMocks());

describe("the centre's switch requiring two-factor sign-in of every admin", () => {
  it('shows the rule as given and turns it on, saying so; the account’s two-factor status is asked again', async () => {
    const u = userEvent.setup({ delay: null });
    const { calls, client } = renderSwitch(false, (body) => [200, body]);
    client.setQueryData(twoFactorStatusQuery().queryKey, twoFactorOn());
    const control = screen.getByRole('switch', { name: REQUIRE_FOR_ADMINS_LABEL });
    expect(control).not.toBeChecked();
    await u.click(control);
    expect(await screen.findByText('Two-factor sign-in is now required for every admin')).toBeInTheDocument();
    expect(calls.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'PUT', path: '/settings/two-factor', body: { require_admin_two_factor: true } },
    ]);
    expect(client.getQueryState(twoFactorStatusQuery().queryKey)?.isInvalidated).toBe(true);
  });

  it('turns it off, saying so', async () => {
    const u = userEvent.setup({ delay: null });
    const { calls } = renderSwitch(true, (body) => [200, body]);
    const control = screen.getByRole('switch', { name: REQUIRE_FOR_ADMINS_LABEL });
    expect(control).toBeChecked();
    await u.click(control);
    expect(await screen.findByText('Two-factor sign-in is no longer required for admins')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ require_admin_two_factor: false });
  });

  it("shows the server's refusal, or the fallback, and the rule as it was", async () => {
    const u = userEvent.setup({ delay: null });
    let reply: FakeReply = [409, { detail: 'Turn on two-factor sign-in for your own account first' }];
    renderSwitch(false, () => reply);
    const control = screen.getByRole('switch', { name: REQUIRE_FOR_ADMINS_LABEL });
    await u.click(control);
    expect(await screen.findByText('Turn on two-factor sign-in for your own account first')).toBeInTheDocument();
    await waitFor(() => expect(control).not.toBeChecked());

    reply = [500, {}];
    await u.click(control);
    expect(await screen.findByText('Failed to update settings')).toBeInTheDocument();
    await waitFor(() => expect(control).not.toBeChecked());
  });
});
