import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LeaveRequest } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showLanguage } from '../../i18n';
import { PSEUDO_LOCALE_KEY } from '../../i18n/pseudo-switch';
import { fakeApi, renderPage } from '../../testing';
import LeavePage from './leave-page';

function request(fields: Partial<LeaveRequest> & { id: number }): LeaveRequest {
  return {
    student_id: fields.id,
    student_name: `Student ${fields.id}`,
    student_unique_id: `STU000${fields.id}`,
    class_name: '8',
    from_date: '2026-12-01',
    to_date: '2026-12-03',
    days: 3,
    reason: 'Family wedding',
    status: 'pending',
    requested_at: '2026-11-25T10:00:00.000+05:30',
    decided_at: null,
    decided_by: null,
    ...fields,
  };
}

const waiting = [
  request({ id: 1, student_name: 'Asha Verma', class_name: '7' }),
  request({
    id: 2,
    student_name: 'Bala Das',
    from_date: '2026-12-05',
    to_date: '2026-12-05',
    days: 1,
    reason: 'Dentist',
  }),
];

afterEach(() => vi.restoreAllMocks());

// jsdom draws MUI slowly, and test files share two cores: generous time per test.
describe('Leave screen', { timeout: 30_000 }, () => {
  it('lists waiting requests with student, class, dates, reason, state and when asked', async () => {
    const api = fakeApi({
      'GET /api/v1/leave-requests': () => [200, { requests: waiting, total: 2 }],
    });
    renderPage(<LeavePage />, { signedInAs: 'admin' });
    const table = await screen.findByRole('table', { name: 'Leave requests' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Student', 'Class', 'Dates', 'Reason', 'State', 'Asked', 'Actions']);
    const asha = within(table).getByText('Asha Verma').closest('tr') as HTMLElement;
    expect(asha).toHaveTextContent('Class 7');
    expect(asha).toHaveTextContent('01 Dec 2026 – 03 Dec 2026');
    expect(asha).toHaveTextContent('3 days');
    expect(asha).toHaveTextContent('Family wedding');
    expect(asha).toHaveTextContent('Waiting');
    expect(asha).toHaveTextContent('25 Nov 2026');
    const bala = within(table).getByText('Bala Das').closest('tr') as HTMLElement;
    expect(bala).toHaveTextContent('05 Dec 2026');
    expect(bala).toHaveTextContent('1 day');
    expect(api.calls.find((call) => call.path === '/leave-requests')?.url.searchParams.get('status')).toBe('pending');
  });

  it('approves after saying what approving does, and refreshes the list', async () => {
    let approved = false;
    const api = fakeApi({
      'GET /api/v1/leave-requests': () => [
        200,
        approved ? { requests: waiting.slice(1), total: 1 } : { requests: waiting, total: 2 },
      ],
      'POST /api/v1/leave-requests/1/approve': () => {
        approved = true;
        return [200, { ...waiting[0], status: 'approved' }];
      },
    });
    renderPage(<LeavePage />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Approve leave for Asha Verma' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve leave for Asha Verma?' });
    expect(dialog).toHaveTextContent(
      'Asha Verma (Class 7) will show as Leave on the register for 01 Dec 2026 – 03 Dec 2026, with the parent\'s reason "Family wedding", and no absence alert will be sent for those days.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve leave' }));
    expect(await screen.findByText('Leave for Asha Verma approved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Asha Verma')).not.toBeInTheDocument());
    expect(api.calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/leave-requests/1/approve',
    ]);
  });

  it("shows the server's reason when the request was decided meanwhile, and cancelling sends nothing", async () => {
    const api = fakeApi({
      'GET /api/v1/leave-requests': () => [200, { requests: waiting, total: 2 }],
      'POST /api/v1/leave-requests/2/decline': () => [
        409,
        { detail: 'This leave request was already approved by Mrs Rao.' },
      ],
    });
    renderPage(<LeavePage />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Decline leave for Bala Das' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'Decline leave for Bala Das' }));
    const dialog = screen.getByRole('dialog', { name: 'Decline leave for Bala Das?' });
    expect(dialog).toHaveTextContent('the absence alert is sent');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decline leave' }));
    expect(await screen.findByText('This leave request was already approved by Mrs Rao.')).toBeInTheDocument();
  });

  it('shows a teacher the list read-only, and filters by state', async () => {
    const decided = [
      request({
        id: 3,
        student_name: 'Chitra Rao',
        status: 'approved',
        decided_by: 'Administrator',
        decided_at: '2026-11-24T09:00:00.000+05:30',
      }),
    ];
    const api = fakeApi({
      'GET /api/v1/leave-requests': ({ url }) => [
        200,
        url.searchParams.get('status') === 'approved'
          ? { requests: decided, total: 1 }
          : { requests: waiting, total: 2 },
      ],
    });
    renderPage(<LeavePage />, { signedInAs: 'teacher' });
    const table = await screen.findByRole('table', { name: 'Leave requests' });
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();
    expect(within(table).queryByText('Actions')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('combobox', { name: 'State' }));
    await userEvent.click(screen.getByRole('option', { name: 'Approved' }));
    const chitra = (await screen.findByText('Chitra Rao')).closest('tr') as HTMLElement;
    expect(chitra).toHaveTextContent('Approved');
    expect(chitra).toHaveTextContent('by Administrator, 24 Nov 2026');
    expect(api.calls.at(-1)?.url.searchParams.get('status')).toBe('approved');
  });

  it('names a class the centre labelled by its label, and isolates the student id left to right (ADR 043, 048)', async () => {
    const batch = request({ id: 3, student_name: 'Chitra Nair', class_name: 'Morning batch' });
    fakeApi({
      'GET /api/v1/leave-requests': () => [200, { requests: [batch, waiting[0]], total: 2 }],
      'GET /api/v1/classes': () => [
        200,
        [
          { value: '7', label: 'Class 7' },
          { value: 'Morning batch', label: 'Morning batch' },
        ].map((item, index) => ({
          ...item,
          id: index + 1,
          section: null,
          display_label: item.label,
          sort_order: index + 1,
          archived: false,
          archived_at: null,
          in_use: { students: 1, teachers: 0, attendance_records: 0 },
        })),
      ],
    });
    renderPage(<LeavePage />, { signedInAs: 'admin' });
    const table = await screen.findByRole('table', { name: 'Leave requests' });
    const chitra = within(table).getByText('Chitra Nair').closest('tr') as HTMLElement;
    await waitFor(() => expect(within(chitra).getAllByRole('cell')[1]).toHaveTextContent(/^Morning batch$/));
    expect(within(chitra).getByText('STU0003').closest('bdi')).toHaveAttribute('dir', 'ltr');
    expect(within(table).getByText('Asha Verma').closest('tr')).toHaveTextContent('Class 7');
    await userEvent.click(screen.getByRole('button', { name: 'Approve leave for Chitra Nair' }));
    expect(screen.getByRole('dialog', { name: 'Approve leave for Chitra Nair?' })).toHaveTextContent(
      'Chitra Nair (Morning batch) will show as Leave',
    );
  });

  it('says when nothing waits', async () => {
    fakeApi({ 'GET /api/v1/leave-requests': () => [200, { requests: [], total: 0 }] });
    renderPage(<LeavePage />, { signedInAs: 'admin' });
    expect(await screen.findByText('No leave waiting')).toBeInTheDocument();
  });
});

describe('Leave screen in other languages', { timeout: 30_000 }, () => {
  afterEach(async () => {
    await showLanguage('en');
  });

  it("speaks Hindi: the glossary's words, the class word before its number, dates in Hindi", async () => {
    fakeApi({ 'GET /api/v1/leave-requests': () => [200, { requests: waiting, total: 2 }] });
    await showLanguage('hi');
    renderPage(<LeavePage />, { signedInAs: 'admin' });
    const table = await screen.findByRole('table', { name: 'छुट्टी के अनुरोध' });
    expect(screen.getByRole('heading', { name: 'छुट्टी' })).toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['विद्यार्थी', 'कक्षा', 'तारीख़ें', 'कारण', 'स्थिति', 'अनुरोध किया', 'कार्रवाई']);
    const asha = within(table).getByText('Asha Verma').closest('tr') as HTMLElement;
    expect(asha).toHaveTextContent('कक्षा 7');
    expect(asha).toHaveTextContent('1 दिसंबर 2026 – 3 दिसंबर 2026');
    expect(asha).toHaveTextContent('3 दिन');
    expect(asha).toHaveTextContent('लंबित');
    // What the parent wrote is shown as written.
    expect(asha).toHaveTextContent('Family wedding');

    await userEvent.click(within(asha).getByRole('button', { name: 'Asha Verma की छुट्टी स्वीकृत करें' }));
    const dialog = screen.getByRole('dialog', { name: 'Asha Verma की छुट्टी स्वीकृत करें?' });
    expect(dialog).toHaveTextContent('कारण "Family wedding" के साथ छुट्टी पर दिखेंगे');
    expect(within(dialog).getByRole('button', { name: 'रद्द करें' })).toBeInTheDocument();
  });

  it('leaves no text of its own untranslated (the pseudo-locale): only names, ids, reasons and dates', async () => {
    fakeApi({ 'GET /api/v1/leave-requests': () => [200, { requests: waiting, total: 2 }] });
    localStorage.setItem(PSEUDO_LOCALE_KEY, 'on');
    try {
      await showLanguage('en');
    } finally {
      localStorage.removeItem(PSEUDO_LOCALE_KEY);
    }
    renderPage(<LeavePage />, { signedInAs: 'admin' });
    await screen.findByText('Asha Verma');
    const data = new Set(waiting.flatMap((leave) => [leave.student_name, leave.student_unique_id, leave.reason]));
    const texts = [...document.body.querySelectorAll('*')].flatMap((element) => [
      ...[...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? ''),
      element.getAttribute('aria-label') ?? '',
    ]);
    const untranslated = texts
      .map((text) => text.trim())
      .filter((text) => /\p{L}{2}/u.test(text) && !text.includes('⟦') && !data.has(text))
      // The dates, in the console's English form.
      .filter((text) => !/^\d{2} \w{3} \d{4}(, \d{2}:\d{2})?$/.test(text));
    expect(untranslated).toEqual([]);
  });
});
