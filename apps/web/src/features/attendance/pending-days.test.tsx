import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AttendanceRecord, PendingDay } from '@tuitiondesk/contract';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDay, isoDaysAgo, todayIso } from '../../lib/dates';
import { fakeApi, record, renderPage } from '../../testing';
import ApprovalPage, { alertedText } from './approval-page';
import { otherPendingDays, pendingDayLabel } from './pending-days';

const today = todayIso();
const twoDaysAgo = isoDaysAgo(2);
const fiveDaysAgo = isoDaysAgo(5);

const earlier: AttendanceRecord[] = [
  record({ id: 11, student_name: 'Ira Menon', class_name: '8', status: 'absent' }),
  record({ id: 12, student_name: 'Jai Kapoor', class_name: '8', status: 'present' }),
  record({ id: 13, student_name: 'Kavya Iyer', class_name: '9', status: 'late' }),
].map((r) => ({ ...r, date: twoDaysAgo, marked_at: `${twoDaysAgo}T09:00:00` }));

afterEach(() => vi.restoreAllMocks());

/** The pending list of each date, and the days with pending records as the server counts them. */
function serve(byDate: Map<string, AttendanceRecord[]>) {
  const days = (): PendingDay[] =>
    [...byDate]
      .filter(([, records]) => records.length > 0)
      .map(([date, records]) => ({ date, pending: records.length }))
      .sort((a, b) => b.date.localeCompare(a.date));
  return fakeApi({
    'GET /api/v1/attendance/pending-approval': ({ url }) => [
      200,
      byDate.get(url.searchParams.get('attendance_date') ?? '') ?? [],
    ],
    'GET /api/v1/attendance/pending-days': () => [200, days()],
    'POST /api/v1/attendance/approve': ({ body }) => {
      const ids = (body as { attendance_ids: number[] }).attendance_ids;
      for (const [date, records] of byDate)
        byDate.set(
          date,
          records.filter((r) => !ids.includes(r.id)),
        );
      return [200, { approved_count: ids.length, message: 'ignored', alerted_families: 2 }];
    },
  });
}

function otherDays() {
  return screen.getByRole('group', { name: 'Also waiting for approval:' });
}

describe('pending records of other days on the Approval page', { timeout: 30_000 }, () => {
  it('names each day with its count as "3 pending on Mon 23 Nov 2026", leaving out the page\'s own day', () => {
    expect(pendingDayLabel({ date: '2026-11-23', pending: 3 })).toBe('3 pending on Mon 23 Nov 2026');
    const days = [
      { date: '2026-11-26', pending: 4 },
      { date: '2026-11-23', pending: 3 },
    ];
    expect(otherPendingDays(days, '2026-11-26')).toEqual([{ date: '2026-11-23', pending: 3 }]);
  });

  it('opened on today with nothing pending today, shows the earlier days and reaches one in one tap', async () => {
    const byDate = new Map([
      [twoDaysAgo, earlier],
      [fiveDaysAgo, [{ ...record({ id: 21, student_name: 'Lata Rao' }), date: fiveDaysAgo }]],
    ]);
    const api = serve(byDate);
    const user = userEvent.setup();
    renderPage(<ApprovalPage />);

    const chip = await screen.findByRole('button', {
      name: `3 pending on ${dayjs(twoDaysAgo).format('ddd DD MMM YYYY')}`,
    });
    expect(within(otherDays()).getByRole('button', { name: /^1 pending on / })).toBeInTheDocument();
    // Today has nothing, but it does not claim that all is approved.
    expect(screen.getByText('No Pending Attendance Records')).toBeInTheDocument();
    expect(
      screen.getByText(
        `Nothing waits for approval on ${formatDay(today)}, but 4 record(s) on other days do: choose a day above.`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/has been approved/)).not.toBeInTheDocument();

    await user.click(chip);
    expect(await screen.findByText('Ira Menon')).toBeInTheDocument();
    expect(screen.getByText('3 Pending')).toBeInTheDocument();
    const field = screen.getByRole('group', { name: 'Attendance Date' });
    const sections = ['Day', 'Month', 'Year'].map(
      (name) => within(field).getByRole('spinbutton', { name }).textContent,
    );
    expect(sections.join(' ')).toBe(formatDay(twoDaysAgo));
    const asked = api.calls.filter((call) => call.url.pathname === '/api/v1/attendance/pending-approval');
    expect(asked.at(-1)?.url.searchParams.get('attendance_date')).toBe(twoDaysAgo);
    // The day shown is no longer offered; the other one still is.
    expect(within(otherDays()).queryByRole('button', { name: /^3 pending on / })).not.toBeInTheDocument();
    expect(within(otherDays()).getByRole('button', { name: /^1 pending on / })).toBeInTheDocument();
  });

  it('approving a day in full drops it from the list and says how many families were alerted', async () => {
    serve(new Map([[twoDaysAgo, earlier]]));
    const user = userEvent.setup();
    renderPage(<ApprovalPage />);
    await user.click(await screen.findByRole('button', { name: /^3 pending on / }));
    await screen.findByText('Ira Menon');
    await user.click(screen.getByRole('button', { name: 'Select All' }));
    await user.click(screen.getByRole('button', { name: 'Approve Attendance (3)' }));

    expect(
      await screen.findByText('Successfully approved 3 attendance record(s). Absence alerts sent to 2 families.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Ira Menon')).not.toBeInTheDocument());
    expect(screen.queryByRole('group', { name: 'Also waiting for approval:' })).not.toBeInTheDocument();
    expect(screen.getByText(`All attendance for ${formatDay(twoDaysAgo)} has been approved.`)).toBeInTheDocument();
  });

  it('says nothing of alerts when none went out, and one family in the singular', () => {
    expect(alertedText({ alerted_families: 0 })).toBe('');
    expect(alertedText({ alerted_families: 1 })).toBe(' Absence alerts sent to 1 family.');
    expect(alertedText({ alerted_families: 3 })).toBe(' Absence alerts sent to 3 families.');
  });

  it('says which channel reaches the alerted families, never "sent" of those none reaches (ADR 044)', () => {
    expect(alertedText({ alerted_families: 3, alert_reach: { in_app: 1, whatsapp: 0, no_channel: 2 } })).toBe(
      ' Absence alerts for 3 families: 1 in the app, 0 on WhatsApp, 2 with no channel yet: they go on your send list.',
    );
    expect(alertedText({ alerted_families: 1, alert_reach: { in_app: 0, whatsapp: 0, no_channel: 1 } })).toBe(
      ' Absence alerts for 1 family: 0 in the app, 0 on WhatsApp, 1 with no channel yet: they go on your send list.',
    );
  });

  it('shows more than eight days behind one button', async () => {
    const byDate = new Map<string, AttendanceRecord[]>(
      Array.from({ length: 10 }, (_, index) => {
        const date = isoDaysAgo(index + 1);
        return [date, [{ ...record({ id: 100 + index }), date }]];
      }),
    );
    serve(byDate);
    const user = userEvent.setup();
    renderPage(<ApprovalPage />);
    await screen.findByRole('button', { name: 'Show 2 more days' });
    expect(within(otherDays()).getAllByRole('button', { name: /pending on/ })).toHaveLength(8);
    await user.click(screen.getByRole('button', { name: 'Show 2 more days' }));
    expect(within(otherDays()).getAllByRole('button', { name: /pending on/ })).toHaveLength(10);
  });
});
