import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { card, dashboardSummary, fakeApi, renderPage } from '../../testing';
import DashboardRoute from './dashboard';

const summary = dashboardSummary({ classes_without_attendance: [] });

afterEach(() => vi.restoreAllMocks());

describe('the Dashboard route', () => {
  it('offers Change Password to teachers, opening the dialog', async () => {
    fakeApi({ 'GET /dashboard/summary': () => [200, summary] });
    renderPage(<DashboardRoute />, { signedInAs: 'teacher' });
    expect(await screen.findByText(/Asha Rao/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText(/^Current Password/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^New Password/)).toBeInTheDocument();
  });

  it('does not offer Change Password to admins', async () => {
    fakeApi({ 'GET /dashboard/summary': () => [200, summary] });
    renderPage(<DashboardRoute />, { signedInAs: 'admin' });
    expect(await within(card('Total Students')).findByText('120')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change Password' })).toBeNull();
  });
});
