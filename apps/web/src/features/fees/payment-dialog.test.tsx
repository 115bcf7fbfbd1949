import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RecordedPayment } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeCall, fakeApi, fill, renderPage } from '../../testing';
import { PaymentDialog } from './payment-dialog';
import { queuedPayments, replayPayments } from './payment-queue';

const family = {
  family_id: 12,
  parent_name: 'Meena Verma',
  students: [
    { id: 7, full_name: 'Asha Verma', class_name: '7' },
    { id: 9, full_name: 'Ravi Verma', class_name: '9' },
  ],
};

const recorded: RecordedPayment = {
  payment_id: 501,
  receipt_number: 'R/2026-27/000123',
  allocations: [
    { student_id: 7, amount_paise: 100_000 },
    { student_id: 9, amount_paise: 20_000 },
    { student_id: null, amount_paise: 5_050 },
  ],
  balance_paise: -5_050,
};

function open() {
  const onReceipt = vi.fn();
  const view = renderPage(<PaymentDialog family={family} onClose={vi.fn()} onReceipt={onReceipt} />, {
    signedInAs: 'admin',
  });
  return { ...view, onReceipt };
}

/** A field of a request's JSON body (undefined when the request was not made). */
const clientField = (call: FakeCall | undefined, name: string) =>
  (call?.body as Record<string, unknown> | undefined)?.[name];

const posts = (calls: FakeCall[]) => calls.filter((call) => call.method === 'POST' && call.path === '/fees/payments');
const amountField = () => screen.getByRole('textbox', { name: /Amount/ });
const save = () => userEvent.click(screen.getByRole('button', { name: 'Record payment' }));

async function chooseMode(name: string) {
  await userEvent.click(screen.getByRole('combobox', { name: 'Mode' }));
  await userEvent.click(screen.getByRole('option', { name }));
}

afterEach(() => vi.restoreAllMocks());

describe('Collect payment', () => {
  it('sends "1,250.50" as 125050 paise with a UUID client_id, and shows the receipt number and the allocation', async () => {
    const api = fakeApi({ 'POST /fees/payments': () => [201, recorded] });
    const { onReceipt } = open();
    await fill(amountField(), '1,250.50');
    await save();
    expect(await screen.findByText('R/2026-27/000123')).toBeInTheDocument();
    const [sent] = posts(api.calls);
    expect(sent?.body).toMatchObject({ family_id: 12, amount_paise: 125_050, mode: 'cash', reference: null });
    expect(clientField(sent, 'client_id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(clientField(sent, 'received_on')).toMatch(/^\d{4}-\d\d-\d\d$/);
    const allocated = screen.getByRole('list', { name: 'How it was allocated' });
    expect(within(allocated).getByText('Asha Verma')).toBeInTheDocument();
    expect(within(allocated).getByText('₹1,000.00')).toBeInTheDocument();
    expect(within(allocated).getByText('Advance (kept for later charges)')).toBeInTheDocument();
    expect(screen.getByText('Advance ₹50.50')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Print receipt' }));
    expect(onReceipt).toHaveBeenCalledWith(501);
  });

  it('sends "1250" as 125000 paise', async () => {
    const api = fakeApi({ 'POST /fees/payments': () => [201, recorded] });
    open();
    await fill(amountField(), '1250');
    await save();
    await screen.findByText('R/2026-27/000123');
    expect(posts(api.calls)[0]?.body).toMatchObject({ amount_paise: 125_000 });
  });

  it.each([
    ['0', 'The amount must be more than ₹0.'],
    ['-5', 'The amount cannot be negative.'],
    ['12.345', 'Use at most 2 digits after the point (paise).'],
  ])('refuses %j under the field and sends nothing', async (text, problem) => {
    const api = fakeApi({ 'POST /fees/payments': () => [201, recorded] });
    open();
    await fill(amountField(), text);
    await save();
    expect(await screen.findByText(problem)).toBeInTheDocument();
    expect(amountField()).toHaveAttribute('aria-invalid', 'true');
    expect(posts(api.calls)).toHaveLength(0);
  });

  it('asks for the UPI reference before sending, by the server’s rules', async () => {
    const api = fakeApi({ 'POST /fees/payments': () => [201, recorded] });
    open();
    await fill(amountField(), '500');
    await chooseMode('UPI');
    await save();
    expect(await screen.findByText('Enter the reference: it is needed for this mode.')).toBeInTheDocument();
    await fill(screen.getByRole('textbox', { name: /UPI reference/ }), '12AB');
    await save();
    expect(
      await screen.findAllByText("The payer's UPI reference: 12 to 35 letters or digits, e.g. 412345678901."),
    ).not.toHaveLength(0);
    expect(posts(api.calls)).toHaveLength(0);
  });

  it("shows the server's 422 under its field, and a retry sends the same client_id", async () => {
    let tries = 0;
    const api = fakeApi({
      'POST /fees/payments': () => {
        tries += 1;
        return tries === 1
          ? [422, { detail: 'reference: must be the cheque number (6 digits)' }]
          : [500, { detail: 'Internal error' }];
      },
    });
    open();
    await fill(amountField(), '700');
    await chooseMode('Cheque');
    await fill(screen.getByRole('textbox', { name: /Cheque number/ }), '123456');
    await save();
    expect(await screen.findByText('Must be the cheque number (6 digits)')).toBeInTheDocument();
    await save();
    expect(await screen.findByText('Internal error')).toBeInTheDocument();
    const [first, second] = posts(api.calls);
    expect(second).toBeDefined();
    expect(clientField(first, 'client_id')).toBe(clientField(second, 'client_id'));
  });

  it('keeps the payment on the device when the server cannot be reached, and replays it with the same client_id', async () => {
    let online = false;
    const api = fakeApi({
      'POST /fees/payments': () => {
        if (!online) throw new TypeError('Failed to fetch');
        return [201, recorded];
      },
    });
    const { user } = open();
    await fill(amountField(), '1,250.50');
    await chooseMode('UPI');
    await fill(screen.getByRole('textbox', { name: /UPI reference/ }), '412345678901');
    await save();
    expect(
      await screen.findByText('Saved on this phone; it will be recorded when you are online.'),
    ).toBeInTheDocument();
    const [kept] = await queuedPayments(user?.id ?? 0);
    expect(kept?.body).toMatchObject({ family_id: 12, amount_paise: 125_050, mode: 'upi', reference: '412345678901' });
    expect(kept?.sent_at).toBeNull();

    // Still offline: nothing is sent, the entry waits.
    expect(await replayPayments()).toBe(0);
    online = true;
    expect(await replayPayments()).toBe(1);
    const all = posts(api.calls);
    expect(all.map((call) => clientField(call, 'client_id'))).toEqual([
      kept?.client_id,
      kept?.client_id,
      kept?.client_id,
    ]);
    const [after] = await queuedPayments(user?.id ?? 0);
    expect(after?.result?.receipt_number).toBe('R/2026-27/000123');
    // Sent once: a replay now sends nothing more.
    expect(await replayPayments()).toBe(0);
    expect(posts(api.calls)).toHaveLength(3);
  });

  it("keeps a replay the server refuses with the server's words, and sends it no more", async () => {
    let online = false;
    fakeApi({
      'POST /fees/payments': () => {
        if (!online) return [503, { detail: 'Service Unavailable' }];
        return [404, { detail: 'Family 12 was not found' }];
      },
    });
    const { user } = open();
    await fill(amountField(), '300');
    await save();
    await screen.findByText('Saved on this phone; it will be recorded when you are online.');
    online = true;
    expect(await replayPayments()).toBe(0);
    const [after] = await queuedPayments(user?.id ?? 0);
    expect(after?.refusal).toBe('Family 12 was not found');
    expect(after?.sent_at).not.toBeNull();
  });
});

describe('the queue belongs to the account that took the payment', () => {
  it('answers nothing for another account', async () => {
    fakeApi({ 'POST /fees/payments': () => [503, {}] });
    const { user } = open();
    await fill(amountField(), '300');
    await save();
    await screen.findByText('Saved on this phone; it will be recorded when you are online.');
    await waitFor(async () => expect(await queuedPayments(user?.id ?? 0)).toHaveLength(1));
    expect(await queuedPayments((user?.id ?? 0) + 1)).toHaveLength(0);
  });
});
