import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Centre } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserTimeZone, centreDayOf, centreTimeZone, formatDayTime, setCentreTimeZone } from '../../lib/dates';
import { fakeApi, renderPage } from '../../testing';
import { CentreSettingsPage } from './centre-settings-page';

afterEach(() => vi.restoreAllMocks());

const centre = (fields: Partial<Centre> = {}): Centre => ({
  name: 'Bright Minds',
  logo_url: null,
  time_zone: 'Asia/Kolkata',
  today: '2026-12-01',
  utc_offset_minutes: 330,
  needs_set_up: false,
  fixed_by_server: { name: false, time_zone: false },
  ...fields,
});

describe('Centre settings', () => {
  it('shows the name and zone, saves only what changed, and says so', async () => {
    const user = userEvent.setup();
    const puts: unknown[] = [];
    fakeApi({
      'GET /settings/centre': () => [200, centre()],
      'PUT /settings/centre': ({ body }) => {
        puts.push(body);
        return [200, centre({ name: 'Bright Minds Tuition' })];
      },
    });
    renderPage(<CentreSettingsPage countryCode={<p>country code here</p>} onSetUp={() => undefined} />);
    const name = await screen.findByRole('textbox', { name: 'Centre name' });
    await waitFor(() => expect(name).toHaveValue('Bright Minds'));
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Asia/Kolkata');
    expect(screen.getByText(/Today at the centre: 01 Dec 2026/)).toBeInTheDocument();
    expect(screen.getByText('country code here')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage classes and subjects' })).toHaveAttribute('href', '/classes');
    await user.clear(name);
    await user.type(name, 'Bright Minds Tuition');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Centre settings saved')).toBeInTheDocument();
    expect(puts).toEqual([{ name: 'Bright Minds Tuition' }]);
  });

  it('on the first set-up starts from the browser zone and goes on once saved; a refusal shows on its field', async () => {
    const user = userEvent.setup();
    const puts: unknown[] = [];
    let refuse = true;
    fakeApi({
      'GET /settings/centre': () => [200, centre({ name: 'TuitionDesk', time_zone: 'UTC', needs_set_up: true })],
      'PUT /settings/centre': ({ body }) => {
        puts.push(body);
        if (refuse) {
          refuse = false;
          return [422, { detail: 'name: must not be empty: enter the name families know the centre by' }];
        }
        return [200, centre()];
      },
    });
    const onSetUp = vi.fn();
    renderPage(<CentreSettingsPage countryCode={null} onSetUp={onSetUp} />);
    expect(await screen.findByRole('heading', { name: 'Set up your centre' })).toBeInTheDocument();
    const zone = screen.getByRole('combobox', { name: 'Time zone' });
    await waitFor(() => expect(zone).toHaveValue(browserTimeZone()));
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    const name = screen.getByRole('textbox', { name: 'Centre name' });
    await waitFor(() => expect(name).toHaveAccessibleDescription(/^Must not be empty/));
    expect(onSetUp).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(onSetUp).toHaveBeenCalledTimes(1));
    expect(puts.at(-1)).toEqual({ name: 'TuitionDesk', time_zone: browserTimeZone() });
  });

  it('shows a zone the server fixes as fixed, and never sends it', async () => {
    const user = userEvent.setup();
    const puts: unknown[] = [];
    fakeApi({
      'GET /settings/centre': () => [200, centre({ fixed_by_server: { name: false, time_zone: true } })],
      'PUT /settings/centre': ({ body }) => {
        puts.push(body);
        return [200, centre({ name: 'Other' })];
      },
    });
    renderPage(<CentreSettingsPage countryCode={null} onSetUp={() => undefined} />);
    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    await waitFor(() => expect(zone).toBeDisabled());
    expect(screen.getByText(/Fixed by the server \(TZ\)/)).toBeInTheDocument();
    const name = screen.getByRole('textbox', { name: 'Centre name' });
    await user.clear(name);
    await user.type(name, 'Other');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toEqual([{ name: 'Other' }]));
  });
});

describe("the console's clock is the centre's", () => {
  it('"today" and the times shown follow the centre zone, not the browser\'s', () => {
    const before = centreTimeZone();
    try {
      setCentreTimeZone('Asia/Kolkata');
      // 20:00 UTC on 30 Nov is 01:30 on 1 Dec in India.
      expect(centreDayOf(new Date('2026-11-30T20:00:00Z'))).toBe('2026-12-01');
      expect(formatDayTime('2026-11-30T20:00:00.000Z')).toBe('01 Dec 2026, 01:30');
      setCentreTimeZone('UTC');
      expect(centreDayOf(new Date('2026-11-30T20:00:00Z'))).toBe('2026-11-30');
      expect(formatDayTime('2026-12-01T01:30:00.000+05:30')).toBe('30 Nov 2026, 20:00');
    } finally {
      setCentreTimeZone(before);
    }
  });
});
