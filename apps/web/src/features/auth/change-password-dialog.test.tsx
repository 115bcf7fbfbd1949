import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage, user } from '../../testing';
import { ChangePasswordDialog } from './change-password-dialog';

const account = user('teacher', { full_name: 'Anita Rao', two_factor_enabled: false, must_enrol_two_factor: false });

/** The server's refusals, as the policy words them (apps/server/src/lib/password-policy.ts). */
const REFUSALS: Record<string, string> = {
  password123:
    'new_password: is a common password with a few characters added or swapped; choose one that is harder to guess',
  'anita-2024': 'new_password: must not contain your name (Anita)',
  'tch0001-x': 'new_password: must not contain your username (tch0001)',
  '        ': 'new_password: cannot be only spaces',
};

/** A server that signs in with `current-one` and refuses the new passwords above; records each change sent. */
function fakeServer() {
  const changes: unknown[] = [];
  fakeApi({
    'GET /auth/me': () => [200, account],
    'POST /auth/login': ({ body }) => {
      const form = new URLSearchParams(body as URLSearchParams);
      if (form.get('password') !== 'current-one') return [401, { detail: 'Incorrect username or password' }];
      return [200, { access_token: 'sign-in-token', token_type: 'bearer', expires_in: 3600, user: account }];
    },
    'POST /auth/change-password': ({ body }) => {
      const change = body as { current_password: string; new_password: string };
      changes.push(change);
      if (change.current_password !== 'current-one') return [400, { detail: 'Current password is incorrect' }];
      const refusal = REFUSALS[change.new_password];
      if (refusal) return [422, { detail: refusal }];
      return [200, { message: 'ok', access_token: 'new-token', token_type: 'bearer', user: account }];
    },
  });
  return changes;
}

/** The dialog from the dashboard (signed in) or from the sign-in screen (signed out). */
function renderDialog(mode: 'sign-in' | 'signed-in', onClose = () => {}) {
  renderPage(<ChangePasswordDialog open mode={mode} onClose={onClose} initialUsername="tch0001" />, {
    signedInAs: mode === 'signed-in' ? account : null,
  });
  return screen.getByRole('dialog');
}

async function fill(dialog: HTMLElement, fields: { current: string; next: string; confirm?: string }) {
  const u = userEvent.setup({ delay: null });
  const box = within(dialog);
  await u.clear(box.getByLabelText(/^Current Password/));
  await u.type(box.getByLabelText(/^Current Password/), fields.current);
  await u.clear(box.getByLabelText(/^New Password/));
  await u.type(box.getByLabelText(/^New Password/), fields.next);
  await u.clear(box.getByLabelText(/^Confirm New Password/));
  await u.type(box.getByLabelText(/^Confirm New Password/), fields.confirm ?? fields.next);
  await u.click(box.getByRole('button', { name: 'Change Password' }));
  return u;
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe("the server's refusal of a new password", () => {
  it.each(Object.entries(REFUSALS))(
    'shows "%s" refused under the New Password field, marked invalid and focused, not as a form error',
    async (password, detail) => {
      const changes = fakeServer();
      const dialog = renderDialog('signed-in');
      await fill(dialog, { current: 'current-one', next: password });

      const field = within(dialog).getByLabelText(/^New Password/);
      const shown = detail.replace('new_password: ', 'New password ');
      await waitFor(() => expect(field).toHaveAccessibleDescription(shown));
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveFocus();
      expect(within(dialog).queryByRole('alert')).toBeNull();
      expect(changes).toEqual([{ current_password: 'current-one', new_password: password }]);
      // Still signed in with the old token: nothing changed.
      expect(localStorage.getItem('token')).toBe('test-token');
    },
  );

  it('clears the refusal as the field is edited, and a better password then goes through', async () => {
    const changes = fakeServer();
    const onClose = vi.fn();
    const dialog = renderDialog('signed-in', onClose);
    const u = await fill(dialog, { current: 'current-one', next: 'anita-2024' });
    const field = within(dialog).getByLabelText(/^New Password/);
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));

    await u.type(field, '!');
    expect(field).toHaveAttribute('aria-invalid', 'false');
    expect(within(dialog).queryByText(/must not contain your name/)).toBeNull();

    await fill(dialog, { current: 'current-one', next: 'violet-harbour-27' });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(changes).toHaveLength(2);
    expect(localStorage.getItem('token')).toBe('new-token');
  });

  it('shows it under the field on the sign-in screen too, after signing in', async () => {
    fakeServer();
    const dialog = renderDialog('sign-in');
    await fill(dialog, { current: 'current-one', next: 'tch0001-x' });
    const field = within(dialog).getByLabelText(/^New Password/);
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription('New password must not contain your username (tch0001)'),
    );
    expect(within(dialog).queryByText(/Password changed successfully/)).toBeNull();
  });

  it('keeps other failures as the form error above the fields', async () => {
    fakeServer();
    const dialog = renderDialog('signed-in');
    await fill(dialog, { current: 'not-the-one', next: 'violet-harbour-27' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Current password is incorrect');
    expect(within(dialog).getByLabelText(/^New Password/)).toHaveAttribute('aria-invalid', 'false');
  });
});

describe("the dialog's own checks", () => {
  it('puts a short new password under its field, a mismatch under the confirmation, and sends neither', async () => {
    const changes = fakeServer();
    const dialog = renderDialog('signed-in');
    await fill(dialog, { current: 'current-one', next: 'short' });
    expect(within(dialog).getByLabelText(/^New Password/)).toHaveAccessibleDescription(
      'New password must be at least 6 characters',
    );
    await fill(dialog, { current: 'current-one', next: 'long-enough', confirm: 'long-enougH' });
    expect(within(dialog).getByLabelText(/^Confirm New Password/)).toHaveAccessibleDescription(
      'New passwords do not match',
    );
    expect(within(dialog).getByLabelText(/^New Password/)).toHaveAttribute('aria-invalid', 'false');
    expect(changes).toEqual([]);
  });

  it('says All fields are required above the fields', async () => {
    fakeServer();
    const dialog = renderDialog('signed-in');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('All fields are required');
  });
});
