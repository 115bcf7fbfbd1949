import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FeeChargeSchedule } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { centreTimeZone, formatDayTime, todayIso } from '../../lib/dates';
import { fakeApi, renderPage } from '../../testing';
import { ChargeRunTab, monthName } from './charge-run-tab';

afterEach(() => vi.restoreAllMocks());

const SCHEDULE: FeeChargeSchedule = { automatic: true, day: 1, hour: 6, last_run: null };

/** The server's run: the first time a month is run it raises `first`, then nothing. */
function serve(first: number) {
  const months = new Set<string>();
  return fakeApi({
    'POST /fees/charges/run': ({ body }) => {
      const { month } = body as { month: string };
      const created = months.has(month) ? 0 : first;
      months.add(month);
      return [200, { created }];
    },
    'GET /fees/charges/schedule': () => [200, SCHEDULE],
    'PUT /fees/charges/schedule': ({ body }) => [200, { ...SCHEDULE, ...(body as object) }],
  });
}

describe('Fees › Charge run', () => {
  it('says when the run last happened, by itself or by hand, and that it never ran before the first', async () => {
    let schedule: FeeChargeSchedule = SCHEDULE;
    fakeApi({ 'GET /fees/charges/schedule': () => [200, schedule] });
    const first = renderPage(<ChargeRunTab />, { signedInAs: 'admin' });
    expect(await screen.findByText('No charge run yet.')).toBeInTheDocument();
    first.unmount();

    const at = '2026-11-01T00:30:00.000Z';
    schedule = { ...SCHEDULE, last_run: { month: '2026-11', automatic: true, at, created: 240 } };
    const second = renderPage(<ChargeRunTab />, { signedInAs: 'admin' });
    expect(
      await screen.findByText(`Last run by itself on ${formatDayTime(at)}: November 2026, 240 entries raised.`),
    ).toBeInTheDocument();
    second.unmount();

    schedule = { ...SCHEDULE, last_run: { month: '2026-10', automatic: false, at, created: 1 } };
    renderPage(<ChargeRunTab />, { signedInAs: 'admin' });
    expect(
      await screen.findByText(`Last run by hand on ${formatDayTime(at)}: October 2026, 1 entry raised.`),
    ).toBeInTheDocument();
  });

  it("raises this month's charges by default, then says nothing new was raised when run again", async () => {
    const api = serve(7);
    renderPage(<ChargeRunTab />, { signedInAs: 'admin' });
    const thisMonth = todayIso().slice(0, 7);
    expect(screen.getByLabelText('Month')).toHaveValue(thisMonth);
    expect(
      screen.getByText('Running a month again never charges twice: it raises only what is new or changed since.'),
    ).toBeInTheDocument();
    const button = screen.getByRole('button', { name: `Raise charges for ${monthName(thisMonth)}` });
    await userEvent.click(button);
    expect(await screen.findByText(`7 charges raised for ${monthName(thisMonth)}.`)).toBeInTheDocument();
    expect(api.calls.find((call) => call.path === '/fees/charges/run')?.body).toEqual({ month: thisMonth });

    await userEvent.click(button);
    expect(
      await screen.findByText(`Nothing new was raised: ${monthName(thisMonth)} was already charged.`),
    ).toBeInTheDocument();
    expect(screen.queryByText(/charges raised/)).not.toBeInTheDocument();
  });

  it('runs another month chosen, says one charge in the singular, and refuses a month after next', async () => {
    const api = serve(1);
    renderPage(<ChargeRunTab />, { signedInAs: 'admin' });
    const month = screen.getByLabelText('Month');
    await userEvent.clear(month);
    await userEvent.type(month, '2026-10');
    await userEvent.click(screen.getByRole('button', { name: 'Raise charges for October 2026' }));
    expect(await screen.findByText('1 charge raised for October 2026.')).toBeInTheDocument();

    await userEvent.clear(month);
    await userEvent.type(month, '2999-01');
    expect(screen.getByText('Months after next month cannot be run yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Raise charges for January 2999' })).toBeDisabled();
    expect(api.calls.filter((call) => call.path === '/fees/charges/run')).toHaveLength(1);
  });

  it("shows the server's refusal of a run", async () => {
    fakeApi({
      'POST /fees/charges/run': () => [422, { detail: 'month: must be a month written yyyy-MM, e.g. 2026-11' }],
      'GET /fees/charges/schedule': () => [200, SCHEDULE],
    });
    renderPage(<ChargeRunTab />, { signedInAs: 'admin' });
    await userEvent.click(screen.getByRole('button', { name: /Raise charges for/ }));
    expect(await screen.findByText('Must be a month written yyyy-MM, e.g. 2026-11')).toBeInTheDocument();
    expect(screen.getByLabelText('Month')).toHaveAttribute('aria-invalid', 'true');
  });

  it('says a failed run above the result, never that charges were raised', async () => {
    fakeApi({
      'POST /fees/charges/run': () => [500, { detail: 'Internal Server Error' }],
      'GET /fees/charges/schedule': () => [200, SCHEDULE],
    });
    renderPage(<ChargeRunTab />, { signedInAs: 'admin' });
    await userEvent.click(screen.getByRole('button', { name: /Raise charges for/ }));
    expect(await screen.findByText('Internal Server Error')).toBeInTheDocument();
    expect(screen.queryByText(/raised/)).not.toBeInTheDocument();
  });

  it("shows the automatic run's day and hour in the centre's zone, and turns it off", async () => {
    const api = serve(0);
    renderPage(<ChargeRunTab />, { signedInAs: 'admin' });
    expect(
      await screen.findByText(
        `Every day at 06:00 (${centreTimeZone()}) the run charges the month before and, from day 1, the current month.`,
      ),
    ).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save schedule' });
    expect(save).toBeDisabled();
    await userEvent.click(screen.getByLabelText('Raise charges by themselves'));
    expect(screen.getByText('Off: charges are raised only when you run them here.')).toBeInTheDocument();
    await userEvent.click(save);
    await waitFor(() =>
      expect(api.calls.find((call) => call.method === 'PUT')?.body).toEqual({ automatic: false, day: 1, hour: 6 }),
    );
    expect(await screen.findByText('Schedule saved')).toBeInTheDocument();
  });

  it('says the schedule could not be loaded, with Retry', async () => {
    fakeApi({ 'GET /fees/charges/schedule': () => [500, { detail: 'Internal Server Error' }] });
    renderPage(<ChargeRunTab />, { signedInAs: 'admin' });
    const section = await screen.findByRole('region', { name: 'Automatic run' });
    expect(await within(section).findByText('The schedule could not be loaded.')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
