import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FeePromise, FeeReminderSchedule } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { centreTimeZone, formatDayTime } from '../../lib/dates';
import { type FakeRoute, fakeApi, fill, renderAtWidth, renderPage } from '../../testing';
import { RemindersTab } from './reminders-tab';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const SCHEDULE: FeeReminderSchedule = {
  enabled: true,
  offsets: [-3, 0, 3, 7],
  hour: 9,
  last_run: null,
  whatsapp_template: true,
};

const PROMISE: FeePromise = {
  family_id: 4,
  parent_name: 'Farah Siddiqui',
  parent_phone: '+919800044444',
  promised_on: '2026-12-05',
  made_at: '2026-11-28T05:00:00.000Z',
  via: 'whatsapp',
  balance_paise: 250000,
};

/** The server's reminder routes, the settings kept as a PUT leaves them. */
function serve(routes: Record<string, FakeRoute> = {}, start: FeeReminderSchedule = SCHEDULE) {
  let settings = start;
  return fakeApi({
    'GET /fees/reminders/settings': () => [200, settings],
    'PUT /fees/reminders/settings': ({ body }) => {
      settings = { ...settings, ...(body as object) };
      return [200, settings];
    },
    'GET /fees/promises': () => [200, { promises: [] }],
    ...routes,
  });
}

const days = () => within(screen.getByTestId('reminder-days'));

describe('Fees › Reminders', () => {
  it('shows the days as chips, the hour, and saves a day added and a day removed', async () => {
    const api = serve();
    renderPage(<RemindersTab />, { signedInAs: 'admin' });
    expect(within(await screen.findByTestId('reminder-days')).getByText('3 days before')).toBeInTheDocument();
    expect(days().getByText('On the due day')).toBeInTheDocument();
    expect(days().getByText('3 days after')).toBeInTheDocument();
    expect(days().getByText('7 days after')).toBeInTheDocument();
    // A chip is named by its day alone; its remove icon says what it does.
    expect(days().getByRole('button', { name: '7 days after' })).toBeInTheDocument();
    expect(screen.getByLabelText('Send reminders by themselves')).toBeChecked();
    expect(
      screen.getByText(
        `Every day at 09:00 (${centreTimeZone()}) families who still owe are reminded on these days around each due date.`,
      ),
    ).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save reminders' });
    expect(save).toBeDisabled();

    await userEvent.click(screen.getByRole('img', { name: 'Remove 3 days after' }));
    expect(days().queryByText('3 days after')).not.toBeInTheDocument();
    const count = screen.getByLabelText('Number of days');
    await userEvent.clear(count);
    await fill(count, '1');
    await userEvent.click(screen.getByRole('combobox', { name: 'When' }));
    await userEvent.click(screen.getByRole('option', { name: 'After the due day' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add a day' }));
    expect(days().getByText('1 day after')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Hour' }));
    await userEvent.click(screen.getByRole('option', { name: '18:00' }));
    await userEvent.click(save);
    expect(await screen.findByText('Reminder schedule saved')).toBeInTheDocument();
    expect(api.calls.find((call) => call.method === 'PUT')?.body).toEqual({
      enabled: true,
      offsets: [-3, 0, 1, 7],
      hour: 18,
    });
    await waitFor(() => expect(save).toBeDisabled());
  });

  it('refuses a day already listed, or out of range, without asking the server', async () => {
    const api = serve();
    renderPage(<RemindersTab />, { signedInAs: 'admin' });
    await screen.findByTestId('reminder-days');
    const count = screen.getByLabelText('Number of days');
    await userEvent.clear(count);
    await fill(count, '3');
    await userEvent.click(screen.getByRole('button', { name: 'Add a day' }));
    expect(screen.getByRole('alert')).toHaveTextContent('That day is already listed');
    await userEvent.clear(count);
    await fill(count, '31');
    await userEvent.click(screen.getByRole('button', { name: 'Add a day' }));
    expect(screen.getByRole('alert')).toHaveTextContent('From 1 to 30 days');
    expect(days().getAllByRole('button')).toHaveLength(4);
    expect(screen.getByRole('button', { name: 'Save reminders' })).toBeDisabled();
    expect(api.calls.filter((call) => call.method === 'PUT')).toHaveLength(0);
  });

  it("shows the server's refusal of the days on the days, and of the hour on the hour", async () => {
    let refusal = 'offsets: must not list a day twice';
    serve({ 'PUT /fees/reminders/settings': () => [422, { detail: refusal }] });
    renderPage(<RemindersTab />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByLabelText('Send reminders by themselves'));
    expect(screen.getByText('Off: reminders go out only when you send them here.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save reminders' }));
    expect(await screen.findByText('Must not list a day twice')).toBeInTheDocument();
    expect(screen.queryByText('Reminder schedule saved')).not.toBeInTheDocument();

    refusal = 'hour: must be an hour from 0 to 23';
    await userEvent.click(screen.getByRole('button', { name: 'Save reminders' }));
    expect(await screen.findByText('Must be an hour from 0 to 23')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Hour' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Must not list a day twice')).not.toBeInTheDocument();

    refusal = 'offsets[1]: must be a whole number of days from -30 to 90';
    await userEvent.click(screen.getByRole('button', { name: 'Save reminders' }));
    expect(await screen.findByText('Must be a whole number of days from -30 to 90')).toBeInTheDocument();
  });

  it("says the last round's figures, and sends today's round only once confirmed", async () => {
    const at = '2026-11-28T03:30:00.000Z';
    const last = { at, sent: 12, skipped_paid: 3, skipped_promised: 2 };
    const api = serve(
      { 'POST /fees/reminders/run': () => [200, { sent: 1, skipped_paid: 0, skipped_promised: 1, at }] },
      { ...SCHEDULE, last_run: last },
    );
    renderPage(<RemindersTab />, { signedInAs: 'admin' });
    expect(
      await screen.findByText(`Last sent ${formatDayTime(at)}: 12 families reminded, 3 had paid, 2 had promised`),
    ).toBeInTheDocument();
    const sendNow = screen.getByRole('button', { name: "Send today's reminders now" });
    await userEvent.click(sendNow);
    await userEvent.click(
      within(screen.getByRole('dialog', { name: "Send today's reminders now?" })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.filter((call) => call.path === '/fees/reminders/run')).toHaveLength(0);

    await userEvent.click(sendNow);
    const dialog = screen.getByRole('dialog', { name: "Send today's reminders now?" });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Sent: 1 family reminded, 0 had paid, 1 had promised')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.filter((call) => call.method === 'POST' && call.path === '/fees/reminders/run')).toHaveLength(1);
  });

  it('says in the dialog why a round failed, and never that it was sent', async () => {
    serve({ 'POST /fees/reminders/run': () => [503, { detail: 'The database is unavailable' }] });
    renderPage(<RemindersTab />, { signedInAs: 'admin' });
    expect(await screen.findByText('No reminders sent yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: "Send today's reminders now" }));
    const dialog = screen.getByRole('dialog', { name: "Send today's reminders now?" });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('The database is unavailable')).toBeInTheDocument();
    expect(screen.queryByText(/^Sent:/)).not.toBeInTheDocument();
  });

  it('says whether WhatsApp carries reminders', async () => {
    serve({}, { ...SCHEDULE, whatsapp_template: false });
    const first = renderPage(<RemindersTab />, { signedInAs: 'admin' });
    expect(
      await screen.findByText('WhatsApp does not carry reminders: Families without the app go on the send list.'),
    ).toBeInTheDocument();
    first.unmount();
    vi.restoreAllMocks();
    serve();
    renderPage(<RemindersTab />, { signedInAs: 'admin' });
    expect(
      await screen.findByText(
        'WhatsApp carries reminders, with the pay link and quick replies, to families without the app.',
      ),
    ).toBeInTheDocument();
  });

  it('lists the promises to pay: family, phone left to right, the day and the balance; as cards at 390 px', async () => {
    serve({ 'GET /fees/promises': () => [200, { promises: [PROMISE] }] });
    const wide = renderPage(<RemindersTab />, { signedInAs: 'admin' });
    const row = await screen.findByRole('row', { name: /Farah Siddiqui/ });
    expect(within(row).getByText('+919800044444').closest('bdi')).toHaveAttribute('dir', 'ltr');
    expect(within(row).getByText('05 Dec 2026')).toBeInTheDocument();
    expect(within(row).getByText('₹2,500.00')).toBeInTheDocument();
    wide.unmount();

    renderAtWidth(390);
    renderPage(<RemindersTab />, { signedInAs: 'admin' });
    const card = await screen.findByRole('listitem', { name: 'Farah Siddiqui' });
    expect(within(card).getByText('05 Dec 2026')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says when no family has promised, and when the settings could not be loaded', async () => {
    fakeApi({
      'GET /fees/reminders/settings': () => [500, { detail: 'Internal Server Error' }],
      'GET /fees/promises': () => [200, { promises: [] }],
    });
    renderPage(<RemindersTab />, { signedInAs: 'admin' });
    expect(await screen.findByText('No family has a promise to pay now.')).toBeInTheDocument();
    const schedule = screen.getByRole('region', { name: 'Schedule' });
    expect(await within(schedule).findByText('Internal Server Error')).toBeInTheDocument();
    expect(within(schedule).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: "Send today's reminders now" })).not.toBeInTheDocument();
  });
});
