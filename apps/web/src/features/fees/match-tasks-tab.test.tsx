import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FeeMatchTask } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDayTime } from '../../lib/dates';
import { type FakeRoute, fakeApi, fill, renderAtWidth, renderPage } from '../../testing';
import FeesPage from './fees-page';
import { MatchTasksTab } from './match-tasks-tab';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const CLAIMED_AT = '2026-11-26T06:15:00.000Z';

function task(overrides: Partial<FeeMatchTask> = {}): FeeMatchTask {
  return {
    id: 11,
    family_id: 3,
    parent_name: 'Imran Khan',
    parent_phone: '+919800033333',
    students: [{ id: 5, full_name: 'Ayaan Khan', class_name: '8' }],
    reference: 'UPI-4471',
    via: 'whatsapp',
    claimed_at: CLAIMED_AT,
    balance_paise: 150000,
    status: 'open',
    payment_id: null,
    receipt_number: null,
    resolved_by: null,
    resolved_at: null,
    note: null,
    candidates: [
      {
        payment_id: 71,
        receipt_number: 'R/2026-27/000071',
        amount_paise: 150000,
        mode: 'upi',
        reference: 'upi-4471',
        received_on: '2026-11-25',
        same_reference: true,
      },
      {
        payment_id: 60,
        receipt_number: 'R/2026-27/000060',
        amount_paise: 50000,
        mode: 'cash',
        reference: null,
        received_on: '2026-11-02',
        same_reference: false,
      },
    ],
    ...overrides,
  };
}

const RESOLVED_AT = '2026-11-27T10:00:00.000Z';

/** The server's match tasks: a match or a dismissal moves a task from open to done, once. */
function serve(start: FeeMatchTask[], routes: Record<string, FakeRoute> = {}) {
  let tasks = start;
  const resolve = (id: number, change: Partial<FeeMatchTask>): [number, unknown] => {
    const found = tasks.find((one) => one.id === id);
    if (!found) return [404, { detail: 'Match task not found' }];
    if (found.status !== 'open') return [409, { detail: 'The task is already resolved' }];
    const done = { ...found, ...change, resolved_by: 'Admin User', resolved_at: RESOLVED_AT };
    tasks = tasks.map((one) => (one.id === id ? done : one));
    return [200, done];
  };
  const idOf = (path: string) => Number(path.split('/')[3]);
  return fakeApi({
    'GET /fees/match-tasks': ({ url }) => {
      const open = tasks.filter((one) => one.status === 'open');
      const shown = url.searchParams.get('status') === 'done' ? tasks.filter((one) => one.status !== 'open') : open;
      return [200, { tasks: shown, open_count: open.length }];
    },
    'POST /fees/match-tasks/11/match': ({ path, body }) => {
      const paymentId = (body as { payment_id: number }).payment_id;
      const receipt = tasks[0]?.candidates.find((one) => one.payment_id === paymentId)?.receipt_number ?? null;
      return resolve(idOf(path), { status: 'matched', payment_id: paymentId, receipt_number: receipt });
    },
    'POST /fees/match-tasks/11/dismiss': ({ path, body }) =>
      resolve(idOf(path), { status: 'dismissed', note: (body as { note: string }).note }),
    ...routes,
  });
}

describe('Fees › Match tasks', () => {
  it('shows an open task: family, children, phone left to right, reference, when and how, and what they owe now', async () => {
    serve([task(), task({ id: 12, parent_name: 'Lakshmi Iyer', reference: null, via: 'parent_app' })]);
    renderPage(<MatchTasksTab />, { signedInAs: 'admin' });
    const first = await screen.findByRole('article', { name: 'Imran Khan says they have paid' });
    expect(within(first).getByText('Ayaan Khan (Class 8)')).toBeInTheDocument();
    expect(within(first).getByText('+919800033333').closest('bdi')).toHaveAttribute('dir', 'ltr');
    expect(within(first).getByText('UPI-4471')).toBeInTheDocument();
    expect(within(first).getByText(`${formatDayTime(CLAIMED_AT)}, on WhatsApp`)).toBeInTheDocument();
    expect(within(first).getByText('Owes ₹1,500.00')).toBeInTheDocument();
    const payments = within(first).getByRole('table', { name: 'Payments of Imran Khan' });
    const same = within(payments).getByRole('row', { name: /R\/2026-27\/000071/ });
    expect(within(same).getByText('Same reference')).toBeInTheDocument();
    expect(within(same).getByText('UPI')).toBeInTheDocument();
    const other = within(payments).getByRole('row', { name: /R\/2026-27\/000060/ });
    expect(within(other).queryByText('Same reference')).not.toBeInTheDocument();
    expect(within(other).getByText('₹500.00')).toBeInTheDocument();

    const second = screen.getByRole('article', { name: 'Lakshmi Iyer says they have paid' });
    expect(within(second).getByText('Waiting for the reference')).toBeInTheDocument();
    expect(within(second).getByText(`${formatDayTime(CLAIMED_AT)}, in the parent app`)).toBeInTheDocument();
    // Oldest first, as the server sends them.
    const articles = screen.getAllByRole('article');
    expect(articles.indexOf(first)).toBeLessThan(articles.indexOf(second));
  });

  it('matches a payment once confirmed, then shows the task under Done with who and which receipt', async () => {
    const api = serve([task()]);
    renderPage(<MatchTasksTab />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Match receipt R/2026-27/000071' }));
    const dialog = screen.getByRole('dialog', { name: 'Match receipt R/2026-27/000071?' });
    expect(
      within(dialog).getByText("Imran Khan's claim is closed as paid by receipt R/2026-27/000071 (₹1,500.00)."),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Match' }));
    expect(await screen.findByText('Matched to receipt R/2026-27/000071')).toBeInTheDocument();
    expect(api.calls.find((call) => call.path === '/fees/match-tasks/11/match')?.body).toEqual({ payment_id: 71 });
    expect(await screen.findByText('No open match tasks.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    const done = await screen.findByRole('article', { name: 'Imran Khan says they have paid' });
    expect(within(done).getByText('Matched to receipt R/2026-27/000071')).toBeInTheDocument();
    expect(within(done).getByText(`Admin User, ${formatDayTime(RESOLVED_AT)}`)).toBeInTheDocument();
    expect(within(done).queryByRole('button', { name: /Match|Dismiss/ })).not.toBeInTheDocument();
  });

  it('dismisses only with a note, and shows the note under Done', async () => {
    const api = serve([task()]);
    renderPage(<MatchTasksTab />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Dismiss the claim of Imran Khan' }));
    const dialog = screen.getByRole('dialog', { name: 'Dismiss the claim of Imran Khan?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    expect(within(dialog).getByText('Write why you dismiss it')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.path.endsWith('/dismiss'))).toHaveLength(0);

    await fill(within(dialog).getByLabelText(/Note/), '  No such payment in the bank statement ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByText('Claim dismissed')).toBeInTheDocument();
    expect(api.calls.find((call) => call.path.endsWith('/dismiss'))?.body).toEqual({
      note: 'No such payment in the bank statement',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('Dismissed: No such payment in the bank statement')).toBeInTheDocument();
  });

  it("shows the server's refusal of a note on the note, and keeps the dialog open", async () => {
    serve([task()], {
      'POST /fees/match-tasks/11/dismiss': () => [422, { detail: 'note: must say why, 1 to 200 characters' }],
    });
    renderPage(<MatchTasksTab />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Dismiss the claim of Imran Khan' }));
    const dialog = screen.getByRole('dialog');
    const note = within(dialog).getByLabelText(/Note/);
    await fill(note, 'x');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    expect(await within(dialog).findByText('Must say why, 1 to 200 characters')).toBeInTheDocument();
    expect(note).toHaveAttribute('aria-invalid', 'true');
  });

  it('says another admin resolved it first (409), closes the dialog and reads the list again', async () => {
    let resolvedElsewhere = false;
    const api = serve([task()], {
      'POST /fees/match-tasks/11/match': () => {
        resolvedElsewhere = true;
        return [409, { detail: 'The task is already resolved' }];
      },
      'GET /fees/match-tasks': () =>
        resolvedElsewhere ? [200, { tasks: [], open_count: 0 }] : [200, { tasks: [task()], open_count: 1 }],
    });
    renderPage(<MatchTasksTab />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Match receipt R/2026-27/000060' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Match' }));
    expect(await screen.findByText('Another admin has already resolved this')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('No open match tasks.')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.path === '/fees/match-tasks').length).toBeGreaterThanOrEqual(2);
  });

  it('says in the dialog why a match failed otherwise (422), and leaves the task open', async () => {
    serve([task()], {
      'POST /fees/match-tasks/11/match': () => [422, { detail: 'payment_id: the payment is reversed' }],
    });
    renderPage(<MatchTasksTab />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Match receipt R/2026-27/000071' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Match' }));
    expect(await within(dialog).findByText('payment_id: the payment is reversed')).toBeInTheDocument();
    expect(screen.queryByText('Another admin has already resolved this')).not.toBeInTheDocument();
  });

  it('shows a task as a card with its payments as cards at 390 px', async () => {
    renderAtWidth(390);
    serve([task()]);
    renderPage(<MatchTasksTab />, { signedInAs: 'admin' });
    const article = await screen.findByRole('article', { name: 'Imran Khan says they have paid' });
    const payment = within(article).getByRole('listitem', { name: 'R/2026-27/000071' });
    expect(within(payment).getByText('Same reference')).toBeInTheDocument();
    expect(within(payment).getByRole('button', { name: 'Match receipt R/2026-27/000071' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('puts the open count on the Fees page tab, and opens the tab from the address', async () => {
    serve([task(), task({ id: 12, parent_name: 'Lakshmi Iyer' })], {
      'GET /fees/dues': () => [200, []],
    });
    renderPage(<FeesPage />, { signedInAs: 'admin', path: '/fees?tab=matches' });
    const tab = await screen.findByRole('tab', { name: /Match tasks/ });
    expect(await within(tab).findByLabelText('2 open match tasks')).toHaveTextContent('2');
    expect(tab).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('article', { name: 'Lakshmi Iyer says they have paid' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Reminders' })).toBeInTheDocument();
  });
});
