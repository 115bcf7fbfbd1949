/** The account dialogs in another language: their texts come from the `account` catalogue. */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showLanguage } from '../../i18n';
import { fakeApi, fakeTwoFactorServer, renderPage, twoFactorOn, user } from '../../testing';
import { ChangePasswordDialog } from './change-password-dialog';
import { TwoFactorDialog } from './two-factor-dialog';

afterEach(async () => {
  vi.restoreAllMocks();
  await showLanguage('en');
});

describe('the account dialogs in Hindi', () => {
  it('shows the change-password dialog in Hindi', async () => {
    await showLanguage('hi');
    fakeApi({});
    renderPage(<ChangePasswordDialog open mode="signed-in" onClose={() => undefined} />, { signedInAs: user() });
    expect(await screen.findByRole('heading', { name: 'पासवर्ड बदलें' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^नए पासवर्ड की पुष्टि करें/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'रद्द करें' })).toBeInTheDocument();
  });

  it('shows two-factor sign-in, on, with its recovery codes counted in Hindi', async () => {
    await showLanguage('hi');
    const { account } = fakeTwoFactorServer({ role: 'teacher', status: twoFactorOn() });
    renderPage(<TwoFactorDialog open mode="account" onClose={() => undefined} />, { signedInAs: account });
    expect(await screen.findByRole('heading', { name: 'दो-चरणीय साइन-इन' })).toBeInTheDocument();
    expect(await screen.findByText('8 रिकवरी कोड बचे हैं।')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'बंद करें' })).toBeInTheDocument();
  });
});
