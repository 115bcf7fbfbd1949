import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage, user } from '../../testing';
import LoginPage from './login-page';

const ENTER_CODE = 'Enter the 6-digit code from your authenticator app';
const WRONG_CODE = 'That code is not right. Enter the current code from your authenticator app, or a recovery code.';

const account = user('teacher', { two_factor_enabled: true, must_enrol_two_factor: false });

/** The login call as the server answers it for an account with two-factor sign-in and code 123456. */
function fakeLogin(options: { recoveryCode?: string } = {}) {
  const forms: Record<string, string>[] = [];
  fakeApi({
    'POST /auth/login': ({ body }) => {
      const form = Object.fromEntries(new URLSearchParams(body as URLSearchParams));
      forms.push(form);
      if (form.password !== 'right-password') return [401, { detail: 'Incorrect username or password' }];
      if (!form.otp) return [401, { detail: ENTER_CODE, otp_required: true }];
      if (form.otp !== '123456' && form.otp !== options.recoveryCode) {
        return [401, { detail: WRONG_CODE, otp_required: true }];
      }
      return [200, { access_token: 'a-token', token_type: 'bearer', expires_in: 3600, user: account }];
    },
  });
  return forms;
}

/** The sign-in screen, signed out, with the dashboard it goes to. */
function renderLogin() {
  renderPage(
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/dashboard" element={<p>The dashboard</p>} />
    </Routes>,
    { path: '/login', signedInAs: null },
  );
}

async function signIn(password = 'right-password') {
  const u = userEvent.setup({ delay: null });
  await u.type(screen.getByLabelText(/^Username/), 'tch0001');
  await u.type(screen.getByLabelText(/^Password/), password);
  await u.click(screen.getByRole('button', { name: 'Sign In' }));
  return u;
}

beforeEach(() => {
  // The API client leaves 401s alone on the sign-in screen, as in the browser.
  window.history.pushState({}, '', '/login');
});
afterEach(() => {
  vi.restoreAllMocks();
  window.history.pushState({}, '', '/');
});

describe('signing in with two-factor', () => {
  it('asks for the code after the password, then signs in with it', async () => {
    const forms = fakeLogin();
    renderLogin();
    expect(screen.queryByLabelText(/Authentication code/)).not.toBeInTheDocument();
    const u = await signIn();

    expect(await screen.findByText(ENTER_CODE)).toBeInTheDocument();
    // A question, not an error: the password was right.
    expect(screen.getByText(ENTER_CODE).closest('[role="alert"]')).toHaveClass('MuiAlert-colorInfo');
    const field = screen.getByLabelText(/^Authentication code/);
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(field).toHaveAttribute('inputmode', 'numeric');
    await waitFor(() => expect(field).toHaveFocus());
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled();

    await u.type(field, '123456');
    await u.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('The dashboard')).toBeInTheDocument();
    expect(forms).toEqual([
      { username: 'tch0001', password: 'right-password' },
      { username: 'tch0001', password: 'right-password', otp: '123456' },
    ]);
    expect(localStorage.getItem('token')).toBe('a-token');
  });

  it('shows a wrong code as an error, clears the field, and keeps asking', async () => {
    fakeLogin();
    renderLogin();
    const u = await signIn();
    const field = await screen.findByLabelText(/^Authentication code/);
    await u.type(field, '000000');
    await u.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(WRONG_CODE)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Authentication code/)).toHaveValue('');
    // Typing clears the error, as for any sign-in error.
    await u.type(screen.getByLabelText(/^Authentication code/), '1');
    expect(screen.queryByText(WRONG_CODE)).not.toBeInTheDocument();
  });

  it('takes a recovery code in place of the app code', async () => {
    const forms = fakeLogin({ recoveryCode: 'ABCDE-FGHJK' });
    renderLogin();
    const u = await signIn();
    await screen.findByLabelText(/^Authentication code/);
    await u.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    const field = screen.getByLabelText(/^Recovery code/);
    expect(field).not.toHaveAttribute('inputmode', 'numeric');
    await u.type(field, 'ABCDE-FGHJK');
    await u.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('The dashboard')).toBeInTheDocument();
    expect(forms.at(-1)).toEqual({ username: 'tch0001', password: 'right-password', otp: 'ABCDE-FGHJK' });
  });

  it('goes back to username and password when the username changes, and never asks after a wrong password', async () => {
    fakeLogin();
    renderLogin();
    const u = await signIn();
    await screen.findByLabelText(/^Authentication code/);
    await u.type(screen.getByLabelText(/^Username/), 'x');
    expect(screen.queryByLabelText(/^Authentication code/)).not.toBeInTheDocument();
    expect(screen.queryByText(ENTER_CODE)).not.toBeInTheDocument();

    await u.clear(screen.getByLabelText(/^Password/));
    await u.type(screen.getByLabelText(/^Password/), 'wrong');
    await u.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Incorrect username or password')).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Authentication code/)).not.toBeInTheDocument();
  });
});

describe('a forgotten password', () => {
  it('says what to do: staff ask an admin, the owner runs the server command', async () => {
    const u = userEvent.setup({ delay: null });
    fakeLogin();
    renderLogin();
    const forgot = await screen.findByRole('button', { name: 'Forgot your password?' });
    expect(forgot).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText(/ask an admin of the centre/)).not.toBeInTheDocument();
    await u.click(forgot);
    expect(forgot).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(/Teachers and staff: ask an admin of the centre to reset it/)).toBeInTheDocument();
    expect(screen.getByText(/The owner \(the admin account\)/)).toBeInTheDocument();
    expect(screen.getByText('npm run reset-password -- admin')).toBeInTheDocument();
    await u.click(forgot);
    expect(screen.queryByText('npm run reset-password -- admin')).not.toBeInTheDocument();
  });
});
