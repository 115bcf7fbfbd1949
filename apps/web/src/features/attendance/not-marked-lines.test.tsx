import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDay, todayIso } from '../../lib/dates';
import { fakeApi, renderPage } from '../../testing';
import ApprovalPage from './approval-page';

const today = todayIso();

afterEach(() => vi.restoreAllMocks());

describe('Approval says which classes have students not marked (ADR 048)', { timeout: 30_000 }, () => {
  it('lists "Class 8: 9 students not marked" for the day, each a link to its register', async () => {
    const api = fakeApi({
      'GET /api/v1/attendance/pending-approval': () => [200, []],
      'GET /api/v1/attendance/not-marked': () => [
        200,
        {
          date: today,
          classes: [
            { class_name: '8', students: 34, not_marked: 9 },
            { class_name: '10', students: 12, not_marked: 1 },
          ],
        },
      ],
    });
    renderPage(<ApprovalPage />);
    const lines = await screen.findByRole('alert', { name: `Not every student is marked on ${formatDay(today)}:` });
    const links = within(lines).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Class 8: 9 students not marked',
      'Class 10: 1 student not marked',
    ]);
    expect(links[0]).toHaveAttribute('href', `/mark-attendance?class_name=8&date=${today}`);
    const call = api.calls.find((c) => c.url.pathname === '/api/v1/attendance/not-marked');
    expect(call?.url.searchParams.get('date')).toBe(today);
  });

  it('says nothing when every student has a mark', async () => {
    fakeApi({
      'GET /api/v1/attendance/pending-approval': () => [200, []],
      'GET /api/v1/attendance/not-marked': () => [200, { date: today, classes: [] }],
    });
    renderPage(<ApprovalPage />);
    await screen.findByText('No Pending Attendance Records');
    expect(screen.queryByText(/not marked/)).not.toBeInTheDocument();
  });
});
