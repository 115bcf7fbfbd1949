import { render, screen, waitFor } from '@testing-library/react';
import type { ParentChild } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../testing';
import { useCentreBrand } from './centre';
import { centreDayOf, centreTimeZone, setCentreTimeZone } from './centre-clock';
import { fullWhen, shortWhen } from './inbox-state';
import { Leave } from './leave';

/**
 * The parent app keeps the centre's clock (ADR 042), not the phone's: run where the phone's calendar
 * and the centre's are on different days at the same instant, whatever zone this machine is in.
 */
const NOW = new Date('2026-12-01T10:30:00Z');
const pad = (value: number) => String(value).padStart(2, '0');
const browserDay = (instant: Date) =>
  `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`;
const dayIn = (zone: string, instant: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
// UTC+14 and UTC−12 are 26 hours apart: at any instant the phone's day differs from one of them.
const ZONE = ['Pacific/Kiritimati', 'Etc/GMT+12'].find((zone) => dayIn(zone, NOW) !== browserDay(NOW)) as string;
const CENTRE_DAY = dayIn(ZONE, NOW);
const clock = (zone: string | undefined, instant: Date) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone }).format(
    instant,
  );

const children: ParentChild[] = [{ id: 1, unique_id: 'STU0001', full_name: 'Aarav Sharma', class_name: '8' }];

afterEach(() => {
  // Back on the phone's clock: the next test (or file) starts from no centre zone known.
  setCentreTimeZone(undefined);
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("the parent app on the centre's clock, with the phone a day apart", () => {
  it('takes the zone from the centre’s public answer', async () => {
    fakeApi({ 'GET /api/v1/centre': () => [200, { name: 'Bright Minds', logo_url: null, time_zone: ZONE }] });
    function Brand() {
      const centre = useCentreBrand();
      return <p>{centre?.name ?? ''}</p>;
    }
    render(<Brand />);
    expect(await screen.findByText('Bright Minds')).toBeInTheDocument();
    await waitFor(() => expect(centreTimeZone()).toBe(ZONE));
  });

  it('starts a leave request on the centre’s today, and refuses no day the centre is already on', async () => {
    expect(CENTRE_DAY).not.toBe(browserDay(NOW));
    setCentreTimeZone(ZONE);
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    fakeApi({ 'GET /api/v1/parent/leave-requests': () => [200, { requests: [] }] });
    render(<Leave list={children} />);
    const from = screen.getByLabelText('First day away');
    const to = screen.getByLabelText('Last day away');
    expect(from).toHaveValue(CENTRE_DAY);
    expect(from).toHaveAttribute('min', CENTRE_DAY);
    expect(to).toHaveValue(CENTRE_DAY);
    expect(await screen.findByText('You have not asked for leave yet.')).toBeInTheDocument();
  });

  it('shows a message of the centre’s today by its time on the centre’s clock, and its full date there', () => {
    setCentreTimeZone(ZONE);
    expect(centreDayOf(NOW)).toBe(CENTRE_DAY);
    const sent = new Date(NOW.getTime() - 20 * 60_000);
    expect(dayIn(ZONE, sent)).toBe(CENTRE_DAY);
    expect(shortWhen(sent.toISOString(), NOW)).toBe(clock(ZONE, sent));
    expect(shortWhen(sent.toISOString(), NOW)).not.toBe(clock(undefined, sent));
    expect(fullWhen(sent.toISOString())).toContain(clock(ZONE, sent));
    // A message of the centre's yesterday shows its day, not a time.
    const yesterday = new Date(NOW.getTime() - 30 * 3_600_000);
    expect(shortWhen(yesterday.toISOString(), NOW)).not.toMatch(/^\d\d:\d\d$/);
  });
});
