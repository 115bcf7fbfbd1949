import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Conversation } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage } from '../../testing';
import CommunicationsPage from './communications-page';

afterEach(() => vi.restoreAllMocks());

const OPEN: Conversation = {
  phone: '+919812345678',
  recipient_name: 'Lakshmi Iyer',
  window_open_until: '2099-01-01T10:00:00+05:30',
  entries: [
    {
      id: 'out:1',
      direction: 'out',
      text: 'Tara was marked absent.',
      at: '2026-11-22T09:00:00',
      delivery_status: 'read',
      sent_by: 'Centre Admin',
    },
    {
      id: 'in:1',
      direction: 'in',
      text: 'She has a fever.',
      at: '2026-11-22T09:05:00',
      delivery_status: null,
      sent_by: null,
    },
  ],
};

function serve(
  conversation: Conversation,
  send = vi.fn((_body: unknown): [number, unknown] => [200, { message: 'WhatsApp message sent' }]),
) {
  fakeApi({
    'GET /communications/history/grouped': () => [200, []],
    'GET /communications/conversations': () => [
      200,
      [
        {
          phone: conversation.phone,
          recipient_name: conversation.recipient_name,
          last_text: 'She has a fever.',
          last_at: '2026-11-22T09:05:00',
          window_open_until: conversation.window_open_until,
        },
      ],
    ],
    [`GET /communications/conversations/${encodeURIComponent(conversation.phone)}`]: () => [200, conversation],
    'POST /communications/send-whatsapp': ({ body }) => send(body),
  });
  return send;
}

describe('Conversations', () => {
  it("shows a family's conversation and lets an admin answer while the window is open", async () => {
    const user = userEvent.setup({ delay: null });
    const send = serve(OPEN);
    renderPage(<CommunicationsPage />, { path: '/communications?tab=conversations', signedInAs: 'admin' });
    await user.click(await screen.findByRole('button', { name: /Lakshmi Iyer/ }));
    const thread = await screen.findByRole('list', { name: 'Conversation' });
    expect(
      within(thread)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringMatching(/^Tara was marked absent\.Centre Admin · 22 Nov 2026, 09:00 · read$/),
      expect.stringMatching(/^She has a fever\.Parent · 22 Nov 2026, 09:05$/),
    ]);
    await user.type(screen.getByRole('textbox', { name: 'Answer' }), 'Get well soon!');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(send).toHaveBeenCalledWith({ to: '+919812345678', message: 'Get well soon!' }));
  });

  it('says why nobody can answer once 24 hours have passed', async () => {
    serve({ ...OPEN, window_open_until: null });
    renderPage(<CommunicationsPage />, { path: '/communications?tab=conversations', signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: /Lakshmi Iyer/ }));
    expect(await screen.findByText(/More than 24 hours since the parent last wrote/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Answer' })).toBeDisabled();
  });
});
