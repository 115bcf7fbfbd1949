import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CallListItem, Communication } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showLanguage } from '../../i18n';
import {
  deferred,
  type FakeReply,
  type FakeRoute,
  fakeApi,
  fill,
  communication as item,
  listOf,
  renderPage,
} from '../../testing';
import CommunicationsPage from './communications-page';
import { deliveryStatusColor, messagePreview } from './message-history-table';

const LONG = 'Dear parent, the centre is closed on Monday for the festival; classes resume Tuesday.';

const CLASSES = [
  { value: '7', label: 'Class 7' },
  { value: '8', label: 'Class 8' },
];

const HISTORY = '/communications/history';
const SEND = '/messages/send-to-parents';

/** Serves the history a page at a time (by limit and offset), the classes, and sending. */
function serve(history: Communication[], send: FakeRoute = () => [200, { message: 'ok' }]) {
  const api = fakeApi({
    [`GET ${HISTORY}`]: ({ url }) => {
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      return [200, history.slice(offset, offset + limit)];
    },
    'GET /students/classes': () => [200, CLASSES],
    [`POST ${SEND}`]: send,
  });
  return {
    /** The bodies sent, in order. */
    posts: () => api.calls.filter((call) => call.path === SEND).map((call) => call.body),
    /** The query of each history request, in order. */
    historyQueries: () => api.calls.filter((call) => call.path === HISTORY).map((call) => call.url.search),
  };
}

afterEach(() => vi.restoreAllMocks());

describe('messagePreview', () => {
  it('keeps the first 50 characters of a long message', () => {
    expect(messagePreview(LONG)).toBe(`${LONG.slice(0, 50)}…`);
    expect(LONG.slice(0, 50)).toHaveLength(50);
  });

  it('leaves a short message whole', () => {
    expect(messagePreview('See you Monday')).toBe('See you Monday');
    expect(messagePreview('x'.repeat(50))).toBe('x'.repeat(50));
  });
});

describe('deliveryStatusColor', () => {
  it('maps delivered, sent and failed, and anything else to default', () => {
    expect(deliveryStatusColor('delivered')).toBe('success');
    expect(deliveryStatusColor('sent')).toBe('info');
    expect(deliveryStatusColor('failed')).toBe('error');
    expect(deliveryStatusColor('queued')).toBe('default');
  });
});

describe('Message History', { timeout: 20_000 }, () => {
  it('shows type, subject with the preview, recipient, sent time and a coloured status chip', async () => {
    serve([
      item(1, { message: LONG, delivery_status: 'delivered' }),
      item(2, { message_type: 'WHATSAPP', delivery_status: 'failed', failure_reason: 'Number not on WhatsApp' }),
      item(3, { message_type: 'SMS' as 'IN_APP', delivery_status: 'queued' }),
      item(4, { kind: 'absence_alert', delivery_status: 'sent', reply: 'sick' }),
    ]);
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    const table = await screen.findByRole('table', { name: 'Message history' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0] as HTMLElement).getByText(`${LONG.slice(0, 50)}…`)).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText('Subject 1')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText('Meera Shah')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText('22 Nov 2026, 09:05')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByRole('img', { name: 'In-app message' })).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByRole('img', { name: 'WhatsApp' })).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByRole('img', { name: 'Other (SMS)' })).toBeInTheDocument();
    expect(within(rows[3] as HTMLElement).getByRole('img', { name: 'In-app message' })).toBeInTheDocument();
    expect(within(rows[3] as HTMLElement).getByText('Absence alert')).toBeInTheDocument();
    expect(within(rows[3] as HTMLElement).getByText('Replied: Sick')).toBeInTheDocument();

    const chip = (row: number, text: string) =>
      within(rows[row] as HTMLElement)
        .getByText(text)
        .closest('.MuiChip-root');
    expect(chip(0, 'Delivered')).toHaveClass('MuiChip-colorSuccess');
    expect(chip(1, 'Failed')).toHaveClass('MuiChip-colorError');
    expect(chip(2, 'Queued')).toHaveClass('MuiChip-colorDefault');
  });

  it('colours a sent message info', async () => {
    serve([item(1)]);
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    expect((await screen.findByText('Sent')).closest('.MuiChip-root')).toHaveClass('MuiChip-colorInfo');
  });

  it('pages through the history with limit and offset', async () => {
    const { historyQueries } = serve(listOf(30, item));
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    expect(await screen.findByText('Subject 25')).toBeInTheDocument();
    expect(screen.queryByText('Subject 26')).toBeNull();
    expect(historyQueries()[0]).toBe('?limit=26&offset=0');
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText('Subject 30')).toBeInTheDocument();
    expect(screen.getByText('26–30 of 30')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeDisabled();
  });

  it('has the four tabs, Message History first', async () => {
    serve([]);
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Message History',
      'Message Analytics',
      'Templates',
      'Call list',
      'Conversations',
    ]);
    expect(screen.getByRole('tab', { name: 'Message History' })).toHaveAttribute('aria-selected', 'true');
  });

  it('logs a failed history fetch and says the history could not be loaded, not that none was sent; Retry fetches it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let up = false;
    fakeApi(
      { [`GET ${HISTORY}`]: () => (up ? [200, [item(1)]] : [503, { detail: 'Database unavailable' }]) },
      { otherwise: () => [503, { detail: 'Database unavailable' }] },
    );
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    expect(await screen.findByText('The message history could not be loaded.')).toBeInTheDocument();
    expect(log).toHaveBeenCalled();
    expect(screen.queryByText('No messages sent yet')).toBeNull();
    expect(screen.queryByText('Database unavailable')).toBeNull();
    up = true;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Message history' })).toBeInTheDocument();
  });
});

describe('Send Message dialog', { timeout: 20_000 }, () => {
  async function openDialog() {
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    return screen.findByRole('dialog', { name: 'Send Message' });
  }

  it('offers the fixed type and All Parents plus the classes', async () => {
    serve([]);
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    const dialog = await openDialog();
    expect(within(dialog).getByRole('textbox', { name: 'Message Type' })).toHaveValue(
      'In-App Message + Push Notification',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Message' })).toHaveAttribute('rows', '4');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Recipients' }));
    const options = await screen.findAllByRole('option');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3));
    expect(options[0]).toHaveTextContent('All Parents');
    expect(screen.getByRole('option', { name: 'Class 8' })).toBeInTheDocument();
  });

  it('refuses a blank subject or message after trimming, with an alert', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const { posts } = serve([]);
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    const dialog = await openDialog();
    await fill(within(dialog).getByRole('textbox', { name: 'Subject' }), '   ');
    await fill(within(dialog).getByRole('textbox', { name: 'Message' }), 'Hello');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Message' }));
    expect(alert).toHaveBeenCalledWith('Please fill in both subject and message');
    await fill(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Holiday');
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'Message' }));
    await fill(within(dialog).getByRole('textbox', { name: 'Message' }), '  \n ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Message' }));
    expect(alert).toHaveBeenCalledTimes(2);
    expect(posts()).toEqual([]);
  });

  it('sends to a class, shows Sending... meanwhile, then the server message', async () => {
    const reply = deferred();
    const { posts } = serve([], () => reply.promise);
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Recipients' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Class 7' }));
    await fill(within(dialog).getByRole('textbox', { name: 'Subject' }), ' Holiday ');
    await fill(within(dialog).getByRole('textbox', { name: 'Message' }), 'Closed on Monday.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Message' }));
    expect(await within(dialog).findByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect(posts()).toEqual([{ subject: 'Holiday', message: 'Closed on Monday.', recipients: '7' }]);
    reply.release([200, { message: 'Message sent to 12 parent(s)', recipients_count: 12 }]);
    expect(await screen.findByText('Message sent to 12 parent(s)')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says "Messages sent successfully!" when the answer has no message', async () => {
    serve([], () => [200, {}]);
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    const dialog = await openDialog();
    await fill(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Holiday');
    await fill(within(dialog).getByRole('textbox', { name: 'Message' }), 'Closed.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Messages sent successfully!')).toBeInTheDocument();
  });

  it('alerts the failure: the detail, or the fallback', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    let answer: FakeReply = [422, { detail: 'recipients: no parents found for Class 9' }];
    serve([], () => answer);
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    const dialog = await openDialog();
    await fill(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Holiday');
    await fill(within(dialog).getByRole('textbox', { name: 'Message' }), 'Closed.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Message' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('recipients: no parents found for Class 9'));
    answer = new Response('', { status: 500 });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Message' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to send messages. Please try again.'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

describe('the call list', () => {
  const entry = (fields: Partial<CallListItem>): CallListItem => ({
    message_id: 1,
    phone: '+919812345678',
    recipient_name: 'Meera Shah',
    subject: 'Exam timetable',
    kind: 'notice',
    sent_at: '2026-11-22T09:05:00',
    reason: 'not_reached',
    delivery_status: 'failed',
    failure_reason: 'No channel reaches this family: no parent app notifications and no WhatsApp opt-in.',
    called_at: null,
    called_by: null,
    ...fields,
  });

  it('opens from a link, lists who to ring with a tel: link and why, and ticks a call', async () => {
    const user = userEvent.setup({ delay: null });
    let items = [
      entry({
        message_id: 2,
        recipient_name: 'Ravi Rao',
        phone: '+919800000002',
        reason: 'call_requested',
        kind: 'absence_alert',
        subject: 'Absence alert',
        delivery_status: 'read',
        failure_reason: null,
      }),
      entry({}),
    ];
    const ticks: unknown[] = [];
    fakeApi({
      'GET /communications/history': () => [200, []],
      'GET /communications/call-list': () => [200, { items, waiting_count: items.length, not_reached_minutes: 30 }],
      'PUT /communications/call-list/1': ({ body }) => {
        ticks.push(body);
        items = items.map((item) =>
          item.message_id === 1 ? { ...item, called_at: '2026-11-22T10:00:00', called_by: 'Centre Admin' } : item,
        );
        return [200, { items, waiting_count: 1, not_reached_minutes: 30 }];
      },
    });
    renderPage(<CommunicationsPage />, { path: '/communications?tab=call-list', signedInAs: 'teacher' });
    const list = await screen.findByRole('list', { name: 'Call list' });
    expect(screen.getByRole('tab', { name: 'Call list' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText(/2 families to call/)).toBeInTheDocument();
    const rows = within(list).getAllByRole('listitem');
    expect(within(rows[0] as HTMLElement).getByText('Asked to be called')).toBeInTheDocument();
    expect(
      within(rows[1] as HTMLElement).getByRole('link', { name: 'Call Meera Shah on +919812345678' }),
    ).toHaveAttribute('href', 'tel:+919812345678');
    expect(
      within(rows[1] as HTMLElement).getByText(/^Not reached: No channel reaches this family/),
    ).toBeInTheDocument();

    await user.click(within(rows[1] as HTMLElement).getByRole('checkbox', { name: 'Called Meera Shah' }));
    expect(ticks).toEqual([{ called: true }]);
    expect(await screen.findByText('Called by Centre Admin')).toBeInTheDocument();
  });

  it('says so when nobody needs a call', async () => {
    fakeApi({
      'GET /communications/history': () => [200, []],
      'GET /communications/call-list': () => [200, { items: [], waiting_count: 0, not_reached_minutes: 30 }],
    });
    renderPage(<CommunicationsPage />, { path: '/communications?tab=call-list', signedInAs: 'teacher' });
    expect(await screen.findByText('Nobody to call')).toBeInTheDocument();
  });
});

describe('in Hindi', { timeout: 20_000 }, () => {
  afterEach(async () => {
    await showLanguage('en');
  });

  it('shows the page, its tabs and the history in Hindi, the texts staff wrote as written', async () => {
    await showLanguage('hi');
    serve([item(1, { kind: 'absence_alert', delivery_status: 'delivered', reply: 'sick' })]);
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    expect(screen.getByRole('heading', { name: 'संचार' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'संदेश इतिहास' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'टेम्पलेट' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'संदेश भेजें' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'संदेश इतिहास' });
    expect(within(table).getByRole('columnheader', { name: 'विषय' })).toBeInTheDocument();
    expect(within(table).getByText('अनुपस्थिति सूचना')).toBeInTheDocument();
    expect(within(table).getByText('जवाब दिया: बीमार')).toBeInTheDocument();
    expect(within(table).getByText('पहुँचा')).toBeInTheDocument();
    // The subject is what staff typed: never translated.
    expect(within(table).getByText('Subject 1')).toBeInTheDocument();
  });
});
