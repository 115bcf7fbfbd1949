import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MessageAnalytics } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage } from '../../testing';
import { percent } from './analytics-tab';
import CommunicationsPage from './communications-page';

// The chart library draws with SVG measurements jsdom does not have: the lazy module is replaced by a
// list of what it was given, which is what this test checks.
vi.mock('./reach-chart', () => ({
  default: ({ days }: { days: MessageAnalytics['days'] }) => (
    <ul aria-label="Chart">
      {days.map((day) => (
        <li key={day.date}>{`${day.date}: ${day.in_app}/${day.whatsapp}/${day.sent_by_hand}/${day.not_reached}`}</li>
      ))}
    </ul>
  ),
}));

afterEach(() => vi.restoreAllMocks());

const counts = {
  families: 6,
  in_app: 2,
  whatsapp: 2,
  delivered: 4,
  read: 2,
  replies: 1,
  sent_by_hand: 1,
  not_reached: 1,
};
const ANALYTICS: MessageAnalytics = {
  from: '2026-10-24',
  to: '2026-11-22',
  totals: counts,
  sends: [
    {
      id: 7,
      kind: 'notice',
      subject: 'Exam timetable',
      recipients: 'all_parents',
      sent_at: '2026-11-20T09:00:00',
      sent_by: 'Centre Admin',
      ...counts,
    },
  ],
  days: [
    { date: '2026-11-21', ...counts },
    {
      date: '2026-11-22',
      families: 0,
      in_app: 0,
      whatsapp: 0,
      delivered: 0,
      read: 0,
      replies: 0,
      sent_by_hand: 0,
      not_reached: 0,
    },
  ],
  whatsapp_cost: {
    month: '2026-11',
    template_messages: 120,
    price_per_message: 0.115,
    currency: 'INR',
    estimate: 13.8,
  },
};

describe('Message Analytics', () => {
  it('shows the figures, the chart (loaded when the tab opens) and each message, and asks again for another period', async () => {
    const api = fakeApi({
      'GET /communications/history/grouped': () => [200, []],
      'GET /communications/analytics': () => [200, ANALYTICS],
    });
    renderPage(<CommunicationsPage />, { path: '/communications?tab=analytics', signedInAs: 'teacher' });
    expect(within(await screen.findByRole('group', { name: 'Families messaged' })).getByText('6')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Delivered' })).getByText('67%')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Reached on WhatsApp' })).getByText('2')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'WhatsApp this month' })).getByText('₹13.80')).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Chart' })).toHaveTextContent('2026-11-21: 2/2/1/1');
    // Sent by hand is a count of its own, in families, beside delivered, read and not reached.
    const byHand = screen.getByRole('group', { name: 'Sent by hand' });
    expect(within(byHand).getByText('1')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Not reached' })).getByText('1')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Messages sent' });
    expect(within(table).getByText('Exam timetable')).toBeInTheDocument();
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells[headers.indexOf('Sent by hand')]).toBe('1');
    expect(cells[headers.indexOf('Not reached')]).toBe('1');

    await userEvent.click(screen.getByRole('combobox', { name: 'Period' }));
    await userEvent.click(screen.getByRole('option', { name: 'Last 7 days' }));
    const queries = api.calls
      .filter((call) => call.path === '/communications/analytics')
      .map((call) => call.url.searchParams);
    const last = queries.at(-1);
    const span = (Date.parse(last?.get('to') ?? '') - Date.parse(last?.get('from') ?? '')) / 86_400_000;
    expect(span).toBe(6);
  });

  it('computes rates without dividing by nothing', () => {
    expect(percent(4, 6)).toBe('67%');
    expect(percent(0, 0)).toBe('-');
  });
});
