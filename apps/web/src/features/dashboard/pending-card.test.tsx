import { screen, within } from '@testing-library/react';
import type { MyClasses, Role } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { card, dashboardSummary, fakeApi, renderPage } from '../../testing';
import DashboardPage from './dashboard-page';

afterEach(() => vi.restoreAllMocks());

function renderAs(role: Role) {
  const noClasses: MyClasses = { date: '2026-11-22', classes: [], reminders: [] };
  fakeApi({
    'GET /dashboard/summary': () => [200, dashboardSummary()],
    'GET /dashboard/my-classes': () => [200, noClasses],
  });
  return renderPage(<DashboardPage />, { signedInAs: role });
}

describe('the Pending Approval card', () => {
  it('opens Attendance Approval for an admin, the whole card one link', async () => {
    renderAs('admin');
    const link = await screen.findByRole('link', { name: /Pending Approval/ });
    expect(link).toHaveAttribute('href', '/attendance');
    expect(within(link).getByText('17')).toBeInTheDocument();
    // The other figures have no page to open.
    expect(screen.getAllByRole('link').filter((element) => element.closest('.MuiCard-root'))).toHaveLength(1);
  });

  it('is not a link for a teacher, who has no Approval page', async () => {
    renderAs('teacher');
    expect(await within(card('Pending Approval')).findByText('17')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Pending Approval/ })).not.toBeInTheDocument();
  });
});
