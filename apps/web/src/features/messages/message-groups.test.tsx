import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FamilyMessage, MessageGroup } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showLanguage } from '../../i18n';
import { fakeApi, familyMessage, loneMessageGroup, renderAtWidth, renderPage } from '../../testing';
import CommunicationsPage from './communications-page';

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await showLanguage('en');
});

const GROUPED = '/communications/history/grouped';

const family = (id: number, fields: Partial<FamilyMessage> = {}) =>
  familyMessage(id, { subject: 'Sports day', message: 'Sports day is on Friday.', ...fields });

function send(sendId: number, fields: Partial<MessageGroup> = {}): MessageGroup {
  return {
    send_id: sendId,
    kind: 'notice',
    subject: `Notice ${sendId}`,
    message: 'Sports day is on Friday.',
    recipients: '7',
    sent_at: '2026-11-22T09:05:00',
    sent_by: 'Centre Admin',
    families: 141,
    read: 1,
    delivered: 12,
    sent_by_hand: 3,
    not_reached: 125,
    waiting: 0,
    replies: 0,
    family: null,
    ...fields,
  };
}

const FAMILIES: FamilyMessage[] = [
  family(21, { recipient_name: 'Asha Rao', recipient: '+919800000021', delivery_status: 'read', reach: 'read' }),
  family(22, {
    recipient_name: 'Ravi Iyer',
    recipient: '+919800000022',
    delivery_status: 'failed',
    failure_reason: 'No channel reaches this family',
    reach: 'sent_by_hand',
    sent_by_hand_at: '2026-11-22T10:00:00',
    sent_by_hand_by: 'Priya Nair',
  }),
  family(23, {
    recipient_name: 'Meena Das',
    recipient: '+919800000023',
    delivery_status: 'failed',
    reach: 'not_reached',
  }),
];

function serve(groups: MessageGroup[]) {
  return fakeApi({
    [`GET ${GROUPED}`]: ({ url }) => {
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      return [200, groups.slice(offset, offset + limit)];
    },
    'GET /communications/history/sends/12': () => [200, FAMILIES],
    'GET /classes': () => [200, [{ value: '7', label: 'Class 7', display_label: 'Class 7', archived: false }]],
  });
}

describe('Message History, a row a message', () => {
  it('counts each send in families and opens its families beneath it, each with its status', async () => {
    const user = userEvent.setup({ delay: null });
    const api = serve([
      send(12, { subject: 'Sports day', families: 141, delivered: 12, read: 1, sent_by_hand: 3, not_reached: 125 }),
      send(11, {
        subject: 'Alerts',
        kind: 'absence_alert',
        recipients: 'approval',
        families: 2,
        delivered: 0,
        read: 0,
        sent_by_hand: 0,
        not_reached: 0,
        waiting: 2,
        replies: 1,
      }),
    ]);
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    const table = await screen.findByRole('table', { name: 'Message history' });
    const [, sports, alerts] = within(table).getAllByRole('row') as HTMLElement[];
    expect(
      within(sports as HTMLElement).getByText('Sent to 141: 12 delivered, 1 read, 3 sent by hand, 125 not reached'),
    ).toBeInTheDocument();
    expect(within(sports as HTMLElement).getByText('Class 7')).toBeInTheDocument();
    expect(within(sports as HTMLElement).getByText('by Centre Admin')).toBeInTheDocument();
    expect(within(sports as HTMLElement).getByText('22 Nov 2026, 09:05')).toBeInTheDocument();
    expect(within(alerts as HTMLElement).getByText('Absence alert')).toBeInTheDocument();
    expect(within(alerts as HTMLElement).getByText('Families of students marked absent or late')).toBeInTheDocument();
    expect(within(alerts as HTMLElement).getByText('Sent to 2: 2 waiting')).toBeInTheDocument();
    expect(within(alerts as HTMLElement).getByText('1 reply')).toBeInTheDocument();
    expect(api.calls.find((call) => call.path === GROUPED)?.url.search).toBe('?limit=26&offset=0');
    // Nothing is fetched for the families until a send is opened.
    expect(api.calls.some((call) => call.path.startsWith('/communications/history/sends/'))).toBe(false);

    const open = within(sports as HTMLElement).getByRole('button', { name: 'Show the 141 families' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await user.click(open);
    const families = await screen.findByRole('table', { name: 'Families: Sports day' });
    expect(within(sports as HTMLElement).getByRole('button', { name: 'Hide the families' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    const [, asha, ravi, meena] = within(families).getAllByRole('row') as HTMLElement[];
    expect(within(asha as HTMLElement).getByText('Asha Rao')).toBeInTheDocument();
    expect(within(asha as HTMLElement).getByRole('img', { name: 'In-app message' })).toBeInTheDocument();
    expect(
      within(asha as HTMLElement)
        .getByText('Read')
        .closest('.MuiChip-root'),
    ).toHaveClass('MuiChip-colorSuccess');
    expect(
      within(ravi as HTMLElement)
        .getByText('Failed')
        .closest('.MuiChip-root'),
    ).toHaveClass('MuiChip-colorError');
    expect(within(ravi as HTMLElement).getByText('Sent by hand by Priya Nair, 22 Nov 2026, 10:00')).toBeInTheDocument();
    expect(within(meena as HTMLElement).getByText('Not reached')).toBeInTheDocument();
    expect(within(meena as HTMLElement).getByText('+919800000023')).toBeInTheDocument();

    await user.click(within(sports as HTMLElement).getByRole('button', { name: 'Hide the families' }));
    expect(screen.queryByRole('table', { name: 'Families: Sports day' })).toBeNull();
  });

  it('shows a message to one family as its row: the channel, its status and the reply', async () => {
    serve([
      loneMessageGroup(
        family(31, {
          kind: 'whatsapp',
          message_type: 'WHATSAPP',
          subject: 'WhatsApp message',
          delivery_status: 'queued',
          recipient_name: 'Kiran Shah',
        }),
      ),
      loneMessageGroup(
        family(32, {
          kind: 'leave_notice',
          subject: 'Leave approved',
          delivery_status: 'delivered',
          reach: 'delivered',
          reply: 'sick',
        }),
        { delivered: 1, waiting: 0 },
      ),
      loneMessageGroup(family(33, { kind: 'fee_reminder', subject: 'Fees due: ₹4,500' })),
    ]);
    renderPage(<CommunicationsPage />, { signedInAs: 'teacher' });
    const table = await screen.findByRole('table', { name: 'Message history' });
    const [, whatsapp, leave, reminder] = within(table).getAllByRole('row') as HTMLElement[];
    expect(within(reminder as HTMLElement).getByText('Fee reminder for a balance due')).toBeInTheDocument();
    expect(within(reminder as HTMLElement).getByText('Fees due: ₹4,500')).toBeInTheDocument();
    expect(within(whatsapp as HTMLElement).getByText('WhatsApp message to one parent')).toBeInTheDocument();
    expect(within(whatsapp as HTMLElement).getByText('Kiran Shah')).toBeInTheDocument();
    expect(within(whatsapp as HTMLElement).getByRole('img', { name: 'WhatsApp' })).toBeInTheDocument();
    expect(within(leave as HTMLElement).getByRole('img', { name: 'In-app message' })).toBeInTheDocument();
    expect(
      within(whatsapp as HTMLElement)
        .getByText('Queued')
        .closest('.MuiChip-root'),
    ).toHaveClass('MuiChip-colorDefault');
    expect(within(whatsapp as HTMLElement).queryByRole('button', { name: /Show/ })).toBeNull();
    expect(
      within(leave as HTMLElement)
        .getByText('Delivered')
        .closest('.MuiChip-root'),
    ).toHaveClass('MuiChip-colorSuccess');
    expect(within(leave as HTMLElement).getByText('Replied: Sick')).toBeInTheDocument();
  });

  it('pages with limit and offset, older messages on the next page', async () => {
    const user = userEvent.setup({ delay: null });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve(Array.from({ length: 30 }, (_, index) => send(100 - index, { subject: `Notice ${index + 1}` })));
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    expect(await screen.findByText('Notice 25')).toBeInTheDocument();
    expect(screen.queryByText('Notice 26')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText('Notice 30')).toBeInTheDocument();
    expect(screen.getByText('26–30 of 30')).toBeInTheDocument();
    expect(log).not.toHaveBeenCalled();
  });

  it('on a phone, a card a message, whose families open as cards beneath it', async () => {
    renderAtWidth(390);
    const user = userEvent.setup({ delay: null });
    serve([send(12, { subject: 'Sports day' })]);
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    const list = await screen.findByRole('list', { name: 'Message history' });
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(list).getByRole('listitem', { name: 'Sports day' });
    expect(
      within(card).getByText('Sent to 141: 12 delivered, 1 read, 3 sent by hand, 125 not reached'),
    ).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Show the 141 families' }));
    const families = await within(card).findByRole('list', { name: 'Families: Sports day' });
    expect(within(families).getAllByRole('listitem')).toHaveLength(3);
    expect(within(families).getByRole('listitem', { name: 'Ravi Iyer' })).toHaveTextContent(
      'Sent by hand by Priya Nair',
    );
  });

  it('reads in Hindi: the counts in Hindi words, the subject as staff wrote it', async () => {
    await showLanguage('hi');
    serve([send(12, { subject: 'Sports day' })]);
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    const table = await screen.findByRole('table', { name: 'संदेश इतिहास' });
    expect(within(table).getByText('Sports day')).toBeInTheDocument();
    expect(within(table).getByText(/^141 को भेजा: 12 तक पहुँचा/)).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: '141 परिवार दिखाएँ' })).toBeInTheDocument();
  });
});
