import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FEE_PROMISE_MAX_DAYS, type FeeReminderAnswer, type ParentMessage } from '@tuitiondesk/contract';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeCall, type FakeReply, fakeApi } from '../testing';
import { setCentreTimeZone } from './centre-clock';
import { PROMISE_MAX_DAYS } from './fee-reply';
import { showLanguage } from './i18n';
import { MessageView } from './inbox';

const reminder: ParentMessage = {
  id: 9,
  message_type: 'IN_APP',
  kind: 'fee_reminder',
  subject: 'Fees due',
  message: 'Aarav’s fees of ₹1,500 are due today.',
  sent_at: '2026-11-28T04:30:00.000Z',
  sent_by: null,
  student_id: null,
  read_at: '2026-11-28T05:00:00.000Z',
  reply: null,
  can_reply: false,
  fee_answer: null,
  can_fee_reply: true,
};
const answered = (answer: Omit<FeeReminderAnswer, 'at'>): ParentMessage => ({
  ...reminder,
  can_fee_reply: false,
  fee_answer: { ...answer, at: '2026-11-28T06:00:00.000Z' },
});

/** The message as the app holds it: an answer replaces it. */
function Harness({ onPay = () => undefined }: { onPay?: () => void }) {
  const [message, setMessage] = useState(reminder);
  return <MessageView message={message} onBack={() => undefined} onReplied={setMessage} onPay={onPay} />;
}

/** The API with a reminder's answer route; `owes` is the family's balance in paise. */
function api(answer: (call: FakeCall) => FakeReply, { owes = 0, inbox = [reminder] } = {}) {
  const sent: unknown[] = [];
  const fake = fakeApi({
    'POST /api/v1/parent/messages/9/fee-reply': (call) => {
      sent.push(call.body);
      return answer(call);
    },
    'GET /api/v1/parent/messages': () => [200, { messages: inbox, unread_count: 0 }],
    'GET /api/v1/parent/fees': () => [200, { balance_paise: owes }],
  });
  return { sent, calls: fake.calls };
}

const region = () => screen.findByRole('region', { name: 'Answer this reminder' });

afterEach(async () => {
  setCentreTimeZone(undefined);
  vi.useRealTimers();
  vi.restoreAllMocks();
  await showLanguage('en');
});

describe("a fee reminder's answers in the parent app", () => {
  it('offers the three answers, asks for the reference on Paid already, sends it and then says so', async () => {
    const { sent } = api(() => [200, answered({ reply: 'paid', reference: 'UTR123', date: null })]);
    render(<Harness />);
    expect(
      within(await region())
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Paid already', 'Will pay on …', 'Please call me']);
    await userEvent.click(screen.getByRole('button', { name: 'Paid already' }));
    expect(screen.getByRole('button', { name: 'Paid already' })).toHaveAttribute('aria-expanded', 'true');
    const field = screen.getByLabelText('Payment reference (UPI/UTR or cheque number)');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter the payment reference.');
    expect(sent).toEqual([]);
    await userEvent.type(field, '  UTR123 ');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'You said you have paid (ref UTR123). The centre will check.',
    );
    expect(sent).toEqual([{ reply: 'paid', reference: 'UTR123' }]);
    expect(screen.queryByRole('region', { name: 'Answer this reminder' })).not.toBeInTheDocument();
  });

  it('offers the days from the centre’s tomorrow to 60 days ahead, sends the one chosen and says reminders pause', async () => {
    // 20:00 UTC is 01:30 the next day in Kolkata: the centre's today is the 29th, whatever the phone says.
    setCentreTimeZone('Asia/Kolkata');
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-28T20:00:00Z') });
    const { sent } = api(() => [200, answered({ reply: 'will_pay', reference: null, date: '2026-12-05' })]);
    render(<Harness />);
    await region();
    await userEvent.click(screen.getByRole('button', { name: 'Will pay on …' }));
    const day = screen.getByLabelText('The day you will pay');
    expect(day).toHaveAttribute('type', 'date');
    expect(day).toHaveAttribute('min', '2026-11-30');
    expect(day).toHaveAttribute('max', '2027-01-28');
    fireEvent.change(day, { target: { value: '2026-12-05' } });
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'You will pay on 5 December. Reminders pause until then.',
    );
    expect(sent).toEqual([{ reply: 'will_pay', date: '2026-12-05' }]);
  });

  it('sends Please call me at once', async () => {
    const { sent } = api(() => [200, answered({ reply: 'call', reference: null, date: null })]);
    render(<Harness />);
    await region();
    await userEvent.click(screen.getByRole('button', { name: 'Please call me' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The centre will call you.');
    expect(sent).toEqual([{ reply: 'call' }]);
  });

  it('shows the answer already given when the reminder was answered elsewhere (409)', async () => {
    const elsewhere = answered({ reply: 'will_pay', reference: null, date: '2026-12-10' });
    const { sent, calls } = api(() => [409, { detail: 'This reminder was answered already' }], {
      inbox: [elsewhere],
    });
    render(<Harness />);
    await region();
    await userEvent.click(screen.getByRole('button', { name: 'Please call me' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'You had already answered this reminder. You will pay on 10 December. Reminders pause until then.',
    );
    expect(sent).toHaveLength(1);
    expect(calls.filter((call) => call.method === 'GET' && call.path === '/parent/messages')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Please call me' })).not.toBeInTheDocument();
  });

  it('shows the server’s detail under the field on a 422 and keeps the answers open', async () => {
    const detail = 'date must be from tomorrow to 60 days ahead';
    api(() => [422, { detail }]);
    render(<Harness />);
    await region();
    await userEvent.click(screen.getByRole('button', { name: 'Will pay on …' }));
    const day = screen.getByLabelText('The day you will pay');
    fireEvent.change(day, { target: { value: '2030-01-01' } });
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    const error = await screen.findByRole('alert');
    expect(error).toHaveTextContent(detail);
    expect(day).toHaveAttribute('aria-invalid', 'true');
    expect(day).toHaveAttribute('aria-describedby', error.id);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Paid already' })).toBeEnabled();
  });

  it('says to try again when online when the phone is offline, and sends again then', async () => {
    let online = false;
    const { sent } = api(() => {
      if (!online) throw new TypeError('Failed to fetch');
      return [200, answered({ reply: 'call', reference: null, date: null })];
    });
    render(<Harness />);
    await region();
    await userEvent.click(screen.getByRole('button', { name: 'Please call me' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You are offline. Please try again when you are online.',
    );
    online = true;
    await userEvent.click(screen.getByRole('button', { name: 'Please call me' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The centre will call you.');
    expect(sent).toEqual([{ reply: 'call' }, { reply: 'call' }]);
  });

  it('offers Pay, to the Fees tab, while the family owes, and not when it owes nothing', async () => {
    const onPay = vi.fn();
    api(() => [500, {}], { owes: 150_000 });
    const { unmount } = render(<Harness onPay={onPay} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Pay' }));
    expect(onPay).toHaveBeenCalledOnce();
    unmount();

    vi.restoreAllMocks();
    const { calls } = api(() => [500, {}], { owes: 0 });
    render(<Harness onPay={onPay} />);
    await waitFor(() => expect(calls.some((call) => call.path === '/parent/fees')).toBe(true));
    expect(screen.queryByRole('button', { name: 'Pay' })).not.toBeInTheDocument();
  });

  it('shows no answers on a message that is not a fee reminder', () => {
    api(() => [500, {}]);
    render(
      <MessageView
        message={{ ...reminder, kind: 'notice', can_fee_reply: false }}
        onBack={() => undefined}
        onReplied={() => undefined}
        onPay={() => undefined}
      />,
    );
    expect(screen.queryByRole('region', { name: 'Answer this reminder' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay' })).not.toBeInTheDocument();
  });

  it('says the answer in the language in use, right to left in Urdu, the reference kept left to right', async () => {
    await showLanguage('ur');
    api(() => [500, {}]);
    render(
      <MessageView
        message={answered({ reply: 'paid', reference: 'UTR123', date: null })}
        onBack={() => undefined}
        onReplied={() => undefined}
        onPay={() => undefined}
      />,
    );
    const said = await screen.findByRole('status');
    expect(said).toHaveTextContent('آپ نے بتایا کہ آپ ادا کر چکے ہیں');
    expect(within(said).getByText('UTR123')).toHaveAttribute('dir', 'ltr');
    expect(document.documentElement.dir).toBe('rtl');
  });

  it('bounds the promise as the contract does', () => {
    expect(PROMISE_MAX_DAYS).toBe(FEE_PROMISE_MAX_DAYS);
  });
});
