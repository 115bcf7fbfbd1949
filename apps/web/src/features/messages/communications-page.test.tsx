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
  familyMessage,
  fill,
  communication as item,
  loneMessageGroup,
  renderPage,
} from '../../testing';
import CommunicationsPage from './communications-page';
import { deliveryStatusColor, messagePreview } from './message-history-table';

const LONG = 'Dear parent, the centre is closed on Monday for the festival; classes resume Tuesday.';

const CLASSES = [
  { value: '7', label: 'Class 7' },
  { value: '8', label: 'Class 8' },
];

const HISTORY = '/communications/history/grouped';
const SEND = '/messages/send-to-parents';

/** Serves the history a page at a time (by limit and offset), the classes, and sending. */
function serve(history: Communication[], send: FakeRoute = () => [200, { message: 'ok' }]) {
  const api = fakeApi({
    [`GET ${HISTORY}`]: ({ url }) => {
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      return [
        200,
        history.slice(offset, offset + limit).map((entry) => loneMessageGroup(familyMessage(entry.id, entry))),
      ];
    },
    'GET /students/classes': () => [200, CLASSES],
    [`POST ${SEND}`]: send,
  });
  return {
    /** The bodies sent, in order. */
    posts: () => api.calls.filter((call) => call.path === SEND).map((call) => call.body),
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

describe('Message History', () => {
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
      {
        [`GET ${HISTORY}`]: () =>
          up ? [200, [loneMessageGroup(familyMessage(1))]] : [503, { detail: 'Database unavailable' }],
      },
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

describe('Send Message dialog', () => {
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
    reach: 'not_reached',
    students: 'Asha Shah',
    language: 'en',
    text: 'Centre: Exam timetable\n\nThe timetable is out.',
    whatsapp_link: 'https://wa.me/919812345678?text=Centre',
    sms_link: 'sms:+919812345678?&body=Centre',
    sent_by_hand_at: null,
    sent_by_hand_by: null,
    ...fields,
  });

  it('opens from a link, lists who to ring or message by hand with tel:, WhatsApp and SMS links, and ticks each', async () => {
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
      entry({ kind: 'fee_reminder', subject: 'Fees due' }),
    ];
    const ticks: unknown[] = [];
    fakeApi({
      [`GET ${HISTORY}`]: () => [200, []],
      'GET /communications/call-list': () => [200, { items, waiting_count: items.length, not_reached_minutes: 30 }],
      'PUT /communications/call-list/1/sent-by-hand': () => {
        ticks.push('sent by hand');
        items = items.map((item) =>
          item.message_id === 1
            ? {
                ...item,
                reach: 'sent_by_hand',
                sent_by_hand_at: '2026-11-22T10:00:00',
                sent_by_hand_by: 'Centre Admin',
              }
            : item,
        );
        return [200, { items, waiting_count: 1, not_reached_minutes: 30 }];
      },
      'PUT /communications/call-list/2': ({ body }) => {
        ticks.push(body);
        items = items.map((item) =>
          item.message_id === 2 ? { ...item, called_at: '2026-11-22T10:05:00', called_by: 'Centre Admin' } : item,
        );
        return [200, { items, waiting_count: 0, not_reached_minutes: 30 }];
      },
    });
    renderPage(<CommunicationsPage />, { path: '/communications?tab=call-list', signedInAs: 'teacher' });
    const list = await screen.findByRole('list', { name: 'Call list' });
    expect(screen.getByRole('tab', { name: 'Call list' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText(/^2 families to message or call\./)).toBeInTheDocument();
    const rows = within(list).getAllByRole('listitem');
    expect(within(rows[0] as HTMLElement).getByText('Asked to be called')).toBeInTheDocument();
    expect(
      within(rows[1] as HTMLElement).getByRole('link', { name: 'Call Meera Shah on +919812345678' }),
    ).toHaveAttribute('href', 'tel:+919812345678');
    expect(
      within(rows[1] as HTMLElement).getByText(/^Not reached: No channel reaches this family/),
    ).toBeInTheDocument();

    const meera = rows[1] as HTMLElement;
    expect(within(meera).getByText('Students: Asha Shah')).toBeInTheDocument();
    expect(within(meera).getByText(/^Fee reminder: Fees due, /)).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText(/^Absence alert: Absence alert, /)).toBeInTheDocument();
    expect(within(meera).getByRole('link', { name: 'Send on WhatsApp to Meera Shah' })).toHaveAttribute(
      'href',
      'https://wa.me/919812345678?text=Centre',
    );
    expect(within(meera).getByRole('link', { name: 'Send an SMS to Meera Shah' })).toHaveAttribute(
      'href',
      'sms:+919812345678?&body=Centre',
    );
    // Nothing reached Meera: no call tick, the message goes by hand; Ravi asked for a call: no links.
    expect(within(meera).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).queryByRole('link', { name: /WhatsApp/ })).not.toBeInTheDocument();

    await user.click(within(meera).getByRole('button', { name: 'Mark as sent by hand to Meera Shah' }));
    expect(await screen.findByText('Sent by hand by Centre Admin')).toBeInTheDocument();
    await user.click(within(rows[0] as HTMLElement).getByRole('checkbox', { name: 'Called Ravi Rao' }));
    expect(await screen.findByText('Called by Centre Admin')).toBeInTheDocument();
    expect(ticks).toEqual(['sent by hand', { called: true }]);
  });

  it('says so when nobody needs a call', async () => {
    fakeApi({
      [`GET ${HISTORY}`]: () => [200, []],
      'GET /communications/call-list': () => [200, { items: [], waiting_count: 0, not_reached_minutes: 30 }],
    });
    renderPage(<CommunicationsPage />, { path: '/communications?tab=call-list', signedInAs: 'teacher' });
    expect(await screen.findByText('Nobody to call')).toBeInTheDocument();
  });
});

describe('in Hindi', () => {
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
    expect(within(table).getByRole('columnheader', { name: 'संदेश' })).toBeInTheDocument();
    expect(within(table).getByText('अनुपस्थिति सूचना')).toBeInTheDocument();
    expect(within(table).getByText('जवाब दिया: बीमार')).toBeInTheDocument();
    expect(within(table).getByText('पहुँचा')).toBeInTheDocument();
    // The subject is what staff typed: never translated.
    expect(within(table).getByText('Subject 1')).toBeInTheDocument();
  });
});
