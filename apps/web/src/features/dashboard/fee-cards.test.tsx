import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Ageing, Collections } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { card, dashboardSummary, type FakeRoute, fakeApi, renderPage } from '../../testing';
import DashboardPage from './dashboard-page';

afterEach(() => vi.restoreAllMocks());

const COLLECTED: Collections = {
  from: '2026-11-28',
  to: '2026-11-28',
  amount_paise: 375050,
  payments: 3,
  reversals: 0,
  by_mode: [],
  by_staff: [],
};

// Two families owe ₹3,750.50 past its due date; ₹999.00 more is owed but not due yet (in 0-30).
const AGEING: Ageing = {
  as_of: '2026-11-28',
  buckets: [
    { bucket: '0-30', amount_paise: 249900, families: 2 },
    { bucket: '31-60', amount_paise: 225050, families: 1 },
    { bucket: '61-90', amount_paise: 0, families: 0 },
    { bucket: '90+', amount_paise: 0, families: 0 },
  ],
  total_paise: 474950,
  families: 3,
  overdue_paise: 375050,
  overdue_families: 2,
};

function serve(routes: Record<string, FakeRoute> = {}) {
  return fakeApi({
    'GET /dashboard/summary': () => [200, dashboardSummary()],
    'GET /dashboard/my-classes': () => [200, { date: '2026-11-22', classes: [], reminders: [] }],
    'GET /fees/collections': () => [200, COLLECTED],
    'GET /fees/ageing': () => [200, AGEING],
    ...routes,
  });
}

describe('Dashboard fee cards', () => {
  it("show an admin today's collections and what families owe past the due date, each opening Fees", async () => {
    const api = serve();
    renderPage(<DashboardPage />, { signedInAs: 'admin' });
    expect(await within(card('Collected today')).findByText('₹3,750.50')).toBeInTheDocument();
    expect(within(card('Collected today')).getByText('3 payments')).toBeInTheDocument();
    expect(await within(card('Overdue')).findByText('₹3,750.50')).toBeInTheDocument();
    expect(within(card('Overdue')).getByText('2 families owe past the due date')).toBeInTheDocument();
    for (const label of ['Collected today', 'Overdue']) {
      expect(within(card(label)).getByRole('link')).toHaveAttribute('href', '/fees');
    }
    const collections = api.calls.find((call) => call.path === '/fees/collections');
    expect(collections?.url.searchParams.get('period')).toBe('today');
  });

  it('show a teacher no fee card, and never ask /fees for one', async () => {
    const api = serve();
    renderPage(<DashboardPage />, { signedInAs: 'teacher' });
    expect(await within(card('Total Students')).findByText('120')).toBeInTheDocument();
    expect(screen.queryByText('Collected today')).not.toBeInTheDocument();
    expect(screen.queryByText('Overdue')).not.toBeInTheDocument();
    expect(api.calls.some((call) => call.path.startsWith('/fees'))).toBe(false);
  });

  it('say a figure they could not load, with Retry, never a ₹0.00', async () => {
    let failing = true;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve({
      'GET /fees/ageing': () => (failing ? [500, { detail: 'Internal Server Error' }] : [200, AGEING]),
    });
    renderPage(<DashboardPage />, { signedInAs: 'admin' });
    expect(await within(card('Collected today')).findByText('₹3,750.50')).toBeInTheDocument();
    const overdue = await waitFor(() => {
      const found = card('Overdue');
      expect(within(found).getByText('Could not be loaded.')).toBeInTheDocument();
      return found;
    });
    expect(within(overdue).queryByText(/₹/)).not.toBeInTheDocument();
    failing = false;
    await userEvent.click(within(overdue).getByRole('button', { name: 'Retry' }));
    expect(await within(card('Overdue')).findByText('2 families owe past the due date')).toBeInTheDocument();
  });

  it('show nothing owed as ₹0.00 only when the server says so', async () => {
    serve({
      'GET /fees/ageing': () => [200, { ...AGEING, overdue_paise: 0, overdue_families: 0 }],
      'GET /fees/collections': () => [200, { ...COLLECTED, amount_paise: 0, payments: 0 }],
    });
    renderPage(<DashboardPage />, { signedInAs: 'admin' });
    expect(await within(card('Overdue')).findByText('₹0.00')).toBeInTheDocument();
    expect(within(card('Overdue')).getByText('0 families owe past the due date')).toBeInTheDocument();
    expect(within(card('Collected today')).getByText('0 payments')).toBeInTheDocument();
  });
});
