import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PARENT_REPLY_LABELS, type ParentInbox, type ParentMessage } from '@tuitiondesk/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeReply, fakeApi } from '../testing';
import { SESSION_ENDED, saveSession, TOKEN_KEY } from './api';
import { APP_FAILED, APP_FAILED_ADVICE, ParentApp, ParentBoundary, POLL_MS } from './app';
import { REPLY_LABELS } from './inbox';

const profile = {
  phone: '+919812345678',
  parent_name: 'Priya Sharma',
  children: [{ id: 1, unique_id: 'STU0001', full_name: 'Aarav Sharma', class_name: '8' }],
};
const message = (id: number, subject: string, read_at: string | null = null): ParentMessage => ({
  id,
  message_type: 'IN_APP',
  kind: 'notice',
  reply: null,
  can_reply: false,
  fee_answer: null,
  can_fee_reply: false,
  subject,
  message: `${subject}: the whole text.`,
  sent_at: '2026-11-20T10:00:00.000Z',
  sent_by: 'Administrator',
  student_id: null,
  read_at,
});
beforeEach(() => window.history.replaceState(null, '', '/parent/'));
afterEach(() => vi.restoreAllMocks());

describe('the parent app', () => {
  it('signs in from the link in the fragment, clears it, and shows the inbox', async () => {
    window.history.replaceState(null, '', '/parent/#phone=%2B919812345678&code=ABCD-2345');
    const inbox: ParentInbox = { messages: [message(2, 'Holiday on Monday')], unread_count: 1 };
    const api = fakeApi({
      'POST /api/v1/parent/login': () => [
        200,
        { access_token: 'parent-token', token_type: 'bearer', expires_in: 3600, parent: profile },
      ],
      'GET /api/v1/parent/messages': () => [200, inbox],
      'GET /api/v1/parent/me': () => [200, profile],
    });
    render(<ParentApp />);
    expect(window.location.hash).toBe('');
    expect(await screen.findByText('1 unread')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Unread:\s*Holiday on Monday/ })).toBeInTheDocument();
    expect(localStorage.getItem(TOKEN_KEY)).toBe('parent-token');
    const login = api.spy.mock.calls.find(([url]) => url === '/api/v1/parent/login');
    expect(login?.[1]?.body).toBe('{"phone":"+919812345678","code":"ABCD-2345"}');
  });

  it('shows the server’s reason when sign-in fails', async () => {
    fakeApi({
      'POST /api/v1/parent/login': () => [401, { detail: 'Phone number or access code is incorrect' }],
    });
    render(<ParentApp />);
    await userEvent.type(screen.getByLabelText('Phone number'), '+919812345678');
    await userEvent.type(screen.getByLabelText('Access code'), 'WRONG123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Phone number or access code is incorrect');
    expect(screen.getByLabelText('Access code')).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.getByLabelText('Phone number')).toHaveAttribute('inputmode', 'tel');
  });

  it('asks for both fields before calling the server', async () => {
    const api = fakeApi({});
    render(<ParentApp />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter your phone number and the access code');
    // Only the centre's name and logo for the page (public), never the sign-in.
    expect(api.calls.map((call) => `${call.method} ${call.path}`).filter((call) => call !== 'GET /centre')).toEqual([]);
  });

  it('goes back to sign-in with a message when the code was changed (401)', async () => {
    saveSession({ token: 'revoked', profile });
    fakeApi({
      'GET /api/v1/parent/messages': () => [401, { detail: 'Not authenticated' }],
      'GET /api/v1/parent/me': () => [401, { detail: 'Not authenticated' }],
    });
    render(<ParentApp />);
    expect(await screen.findByRole('status')).toHaveTextContent(SESSION_ENDED);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('opens a message in full, reports it read and counts it', async () => {
    saveSession({ token: 'parent-token', profile });
    const read = vi.fn((): FakeReply => [200, message(2, 'Holiday on Monday', '2026-11-23T09:00:00Z')]);
    fakeApi({
      'GET /api/v1/parent/messages': () => [
        200,
        {
          messages: [message(2, 'Holiday on Monday'), message(1, 'Fees', '2026-11-01T00:00:00Z')],
          unread_count: 1,
        },
      ],
      'GET /api/v1/parent/me': () => [200, profile],
      'POST /api/v1/parent/messages/2/read': read,
    });
    render(<ParentApp />);
    const sections = screen.getByRole('navigation', { name: 'Sections' });
    expect(await within(sections).findByRole('button', { name: 'Inbox, 1 unread' })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: /Holiday on Monday/ }));
    expect(await screen.findByRole('heading', { name: 'Holiday on Monday' })).toHaveFocus();
    expect(screen.getByText('Holiday on Monday: the whole text.')).toBeInTheDocument();
    await waitFor(() => expect(read).toHaveBeenCalledOnce());
    await waitFor(() => expect(within(sections).getByRole('button', { name: 'Inbox' })).toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: /Back to inbox/ }));
    expect(screen.getByRole('button', { name: /^Holiday on Monday/ })).not.toHaveClass('unread');
    expect(screen.queryByText('1 unread')).not.toBeInTheDocument();
  });

  it('offers the four replies on an absence alert, sends the one tapped, and then says what was answered', async () => {
    saveSession({ token: 'parent-token', profile });
    const alert: ParentMessage = { ...message(5, 'Absence alert'), kind: 'absence_alert', can_reply: true };
    const replies: unknown[] = [];
    let answer: FakeReply = [500, {}];
    fakeApi({
      'GET /api/v1/parent/messages': () => [200, { messages: [alert], unread_count: 1 }],
      'GET /api/v1/parent/me': () => [200, profile],
      'POST /api/v1/parent/messages/5/read': () => [200, { ...alert, read_at: '2026-11-23T09:00:00Z' }],
      'POST /api/v1/parent/messages/5/reply': ({ body }) => {
        replies.push(body);
        return answer;
      },
    });
    render(<ParentApp />);
    await userEvent.click(await screen.findByRole('button', { name: /Absence alert/ }));
    const replyBox = await screen.findByRole('region', { name: 'Tell the centre why' });
    expect(
      within(replyBox)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Sick', 'Family reason', 'Coming late', 'Please call me']);
    await userEvent.click(within(replyBox).getByRole('button', { name: 'Sick' }));
    expect(await within(replyBox).findByRole('alert')).toHaveTextContent(
      'Could not send your reply. Please try again.',
    );
    answer = [200, { ...alert, reply: 'sick', can_reply: false, read_at: '2026-11-23T09:00:00Z' }];
    await userEvent.click(within(replyBox).getByRole('button', { name: 'Sick' }));
    expect(await screen.findByText('You replied: Sick')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Tell the centre why' })).not.toBeInTheDocument();
    expect(replies).toEqual([{ reply: 'sick' }, { reply: 'sick' }]);
  });

  it('uses the same reply words as the contract', () => {
    expect(REPLY_LABELS).toEqual(PARENT_REPLY_LABELS);
  });

  it('turns WhatsApp messages off and on in the settings, and hides the switch when the centre has no WhatsApp', async () => {
    saveSession({ token: 'parent-token', profile });
    let choice = { opted_in: true, available: true };
    fakeApi({
      'GET /api/v1/parent/messages': () => [200, { messages: [], unread_count: 0 }],
      'GET /api/v1/parent/me': () => [200, profile],
      'GET /api/v1/parent/whatsapp': () => [200, choice],
      'PUT /api/v1/parent/whatsapp': ({ body }) => {
        choice = { ...choice, opted_in: (body as { opted_in: boolean }).opted_in };
        return [200, choice];
      },
    });
    const { unmount } = render(<ParentApp />);
    await userEvent.click(
      within(screen.getByRole('navigation', { name: 'Sections' })).getByRole('button', { name: 'Settings' }),
    );
    const panel = await screen.findByRole('region', { name: 'WhatsApp messages from the centre' });
    expect(within(panel).getByRole('status')).toHaveTextContent(/^On:/);
    await userEvent.click(within(panel).getByRole('button', { name: 'Turn off WhatsApp messages' }));
    expect(await within(panel).findByText(/^Off: the centre writes to you only in this app\.$/)).toBeInTheDocument();
    unmount();

    choice = { opted_in: false, available: false };
    render(<ParentApp />);
    await userEvent.click(
      within(screen.getByRole('navigation', { name: 'Sections' })).getByRole('button', { name: 'Settings' }),
    );
    await screen.findByRole('heading', { name: 'Settings' });
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'WhatsApp messages from the centre' })).not.toBeInTheDocument(),
    );
  });

  it('says so when there are no messages', async () => {
    saveSession({ token: 'parent-token', profile });
    fakeApi({
      'GET /api/v1/parent/messages': () => [200, { messages: [], unread_count: 0 }],
      'GET /api/v1/parent/me': () => [200, profile],
    });
    render(<ParentApp />);
    expect(await screen.findByText('No messages yet.')).toBeInTheDocument();
  });

  it('shows a child’s approved attendance with totals', async () => {
    saveSession({ token: 'parent-token', profile });
    fakeApi({
      'GET /api/v1/parent/messages': () => [200, { messages: [], unread_count: 0 }],
      'GET /api/v1/parent/me': () => [200, profile],
      'GET /api/v1/parent/children/1/attendance': () => [
        200,
        {
          child: profile.children[0],
          from_date: '2026-10-24',
          to_date: '2026-11-23',
          days: [
            { date: '2026-11-20', status: 'late', remarks: 'Bus was late' },
            { date: '2026-11-19', status: 'absent', remarks: null },
          ],
          totals: { present: 0, absent: 1, late: 1, leave: 0 },
        },
      ],
    });
    render(<ParentApp />);
    await userEvent.click(screen.getByRole('button', { name: 'My children' }));
    expect(await screen.findByText('Bus was late')).toBeInTheDocument();
    const days = screen.getByRole('list', { name: 'Days for Aarav Sharma' });
    expect(within(days).getByText('Late')).toHaveStyle({ background: '#642e04' });
    expect(within(days).getByText('Fri 20 Nov')).toBeInTheDocument();
    const totals = screen.getByRole('list', { name: 'Totals for Aarav Sharma' });
    expect(within(totals).getAllByRole('listitem')).toHaveLength(4);
  });

  it('pulls the inbox every 30 s while visible, not while hidden, and on coming back', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      saveSession({ token: 'parent-token', profile });
      const api = fakeApi({
        'GET /api/v1/parent/messages': () => [200, { messages: [], unread_count: 0 }],
        'GET /api/v1/parent/me': () => [200, profile],
      });
      const inboxCalls = () => api.calls.filter((call) => call.path.startsWith('/parent/messages')).length;
      render(<ParentApp />);
      await screen.findByText('No messages yet.');
      expect(inboxCalls()).toBe(1);
      await vi.advanceTimersByTimeAsync(POLL_MS);
      expect(inboxCalls()).toBe(2);

      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      await vi.advanceTimersByTimeAsync(POLL_MS * 2);
      expect(inboxCalls()).toBe(2);

      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
      await waitFor(() => expect(inboxCalls()).toBe(3));
    } finally {
      Reflect.deleteProperty(document, 'visibilityState');
      vi.useRealTimers();
    }
  });
});

describe('the parent app when something fails while showing it', () => {
  it('shows a plain message with Retry instead of a blank screen, and Retry shows the app again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let broken = true;
    function Part() {
      if (broken) throw new TypeError("Cannot read properties of undefined (reading 'children')");
      return <p>The inbox</p>;
    }
    render(
      <ParentBoundary>
        <Part />
      </ParentBoundary>,
    );
    const message = await screen.findByRole('alert');
    expect(within(message).getByRole('heading', { name: APP_FAILED })).toBeInTheDocument();
    expect(within(message).getByText(APP_FAILED_ADVICE)).toBeInTheDocument();
    broken = false;
    await userEvent.click(within(message).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('The inbox')).toBeInTheDocument();
  });
});
