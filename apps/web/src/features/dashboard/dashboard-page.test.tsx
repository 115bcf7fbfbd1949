import { screen, within } from '@testing-library/react';
import type { DashboardSummary, Role } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { card, dashboardSummary, fakeApi, renderPage } from '../../testing';
import DashboardPage from './dashboard-page';

const summary = dashboardSummary();

/** The dashboard for a signed-in `role`; the summary is answered when `answer` settles (at once by default). */
function renderAs(role: Role, answer: () => Promise<DashboardSummary> = async () => summary) {
  fakeApi({ 'GET /dashboard/summary': async () => [200, await answer()] });
  return renderPage(<DashboardPage />, { signedInAs: role });
}

afterEach(() => vi.restoreAllMocks());

describe('Dashboard', { timeout: 20_000 }, () => {
  it('shows each figure on its card, the attendance rate with a percent sign and messages_sent', async () => {
    renderAs('admin');
    expect(await within(card('Total Students')).findByText('120')).toBeInTheDocument();
    expect(within(card('Total Students')).getByText('Active enrolled')).toBeInTheDocument();
    expect(within(card('Teachers')).getByText('9')).toBeInTheDocument();
    expect(within(card('Teachers')).getByText('Active staff')).toBeInTheDocument();
    expect(within(card('Pending Approval')).getByText('17')).toBeInTheDocument();
    expect(within(card('Pending Approval')).getByText('Attendance records')).toBeInTheDocument();
    expect(within(card('Messages Sent')).getByText('43')).toBeInTheDocument();
    expect(within(card('Messages Sent')).getByText('This month')).toBeInTheDocument();
    expect(within(card('Attendance Rate')).getByText('92.5%')).toBeInTheDocument();
    expect(within(card('Attendance Rate')).getByText('This month avg')).toBeInTheDocument();
    expect(within(card('Active Classes')).getByText('4')).toBeInTheDocument();
    // Nobody to call: no line about it.
    expect(screen.queryByText(/not reached by any message/)).not.toBeInTheDocument();
  });

  it('says how many families no message reached, with one tap to the call list', async () => {
    fakeApi({ 'GET /dashboard/summary': () => [200, dashboardSummary({ not_reached: 3 })] });
    renderPage(<DashboardPage />, { signedInAs: 'teacher' });
    expect(
      await screen.findByText('3 families were not reached by any message, or asked to be called.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the call list' })).toHaveAttribute(
      'href',
      '/communications?tab=call-list',
    );
  });

  it('shows skeletons, not made-up numbers, until the summary arrives', async () => {
    let release: (value: DashboardSummary) => void = () => undefined;
    const pending = new Promise<DashboardSummary>((resolve) => {
      release = resolve;
    });
    renderAs('admin', () => pending);
    for (const label of ['Total Students', 'Teachers', 'Pending Approval', 'Messages Sent', 'Attendance Rate']) {
      expect(screen.getByLabelText(`Loading ${label}`)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Loading Active Classes')).toBeInTheDocument();
    for (const placeholder of ['23', '145', '92%', '8']) expect(screen.queryByText(placeholder)).toBeNull();
    release(summary);
    expect(await screen.findByText('92.5%')).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading Total Students')).toBeNull();
  });

  it('lists the classes without attendance today, each linking to Mark Attendance', async () => {
    renderAs('admin');
    const link = await screen.findByRole('link', { name: /Class 8/ });
    expect(link).toHaveAttribute('href', '/mark-attendance?class_name=8');
    expect(link).toHaveTextContent('31 student(s)');
  });

  it('says so when every class is marked', async () => {
    renderAs('admin', async () => ({ ...summary, classes_without_attendance: [] }));
    expect(await screen.findByText('Attendance has been marked for every class today.')).toBeInTheDocument();
  });

  it('greets the user by name and places what the app gives it beside the greeting', async () => {
    fakeApi({ 'GET /dashboard/summary': () => [200, summary] });
    renderPage(<DashboardPage actions={<button type="button">Placed by the app</button>} />, { signedInAs: 'teacher' });
    expect(await screen.findByText('Welcome back, Asha Rao!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Placed by the app' })).toBeInTheDocument();
  });

  it('only logs a failed fetch', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAs('admin', async () => {
      throw new Error('down');
    });
    await vi.waitFor(() => expect(log).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(within(card('Total Students')).getByText('—')).toBeInTheDocument();
  });
});
