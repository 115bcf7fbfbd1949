import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Due, Receipt } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fill, json, renderAtWidth, renderPage, signIn } from '../../testing';
import { DuesTab, filterDues } from './dues-tab';
import { dues, family, MAHARASHTRA_TAX, receipt, serve } from './dues-test-fixtures';
import { queuePayment } from './payment-queue';

const rowNames = () =>
  within(screen.getByRole('table', { name: 'Families that owe, oldest debt first' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelector('td .name-text')?.textContent);

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** Opens receipt 501 as a Maharashtra tax invoice with `fields` on it; the dialog. */
async function openTaxInvoice(fields: Partial<Receipt>): Promise<HTMLElement> {
  serve({
    'GET /fees/receipts/501': () => [200, { ...receipt, document: 'tax_invoice', tax: MAHARASHTRA_TAX, ...fields }],
  });
  renderPage(<DuesTab />, { path: '/fees?tab=dues&family=12', signedInAs: 'admin' });
  await userEvent.click(await screen.findByRole('button', { name: 'Receipt' }));
  const dialog = await screen.findByRole('dialog', { name: 'Receipt' });
  return dialog;
}

describe('Fees › Dues', () => {
  it('shows the dues by age, the collections and the families that owe, oldest debt first', async () => {
    serve();
    renderPage(<DuesTab />, { path: '/fees', signedInAs: 'admin' });
    await screen.findByText('Meena Verma');
    expect(rowNames()).toEqual(['Meena Verma', 'Imran Khan', 'Lakshmi Iyer']);
    expect(screen.getByText('Over 90 days')).toBeInTheDocument();
    expect(await screen.findByText('₹2,450.50 from 3 families · ₹2,200.00 past its due date')).toBeInTheDocument();
    expect(await screen.findAllByText('₹1,200.00')).not.toHaveLength(0);
    expect(screen.getByText('₹9,000.00')).toBeInTheDocument();
    const row = screen.getByRole('row', { name: /Meena Verma/ });
    expect(within(row).getByText('+919800011111').closest('bdi')).toHaveAttribute('dir', 'ltr');
    expect(within(row).getByText('Asha Verma (Class 7)')).toBeInTheDocument();
    expect(within(row).getByText('Ravi Verma (Class 9)')).toBeInTheDocument();
    expect(within(row).getByText('₹1,500.00')).toBeInTheDocument();
    expect(within(row).getByText('95 days')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Lakshmi Iyer/ })).getByText('Not yet due')).toBeInTheDocument();
  });

  it('filters by name or phone, by class and by age', async () => {
    serve();
    renderPage(<DuesTab />, { path: '/fees', signedInAs: 'admin' });
    await screen.findByText('Meena Verma');
    await fill(screen.getByRole('searchbox', { name: 'Search name or phone' }), 'sara');
    expect(rowNames()).toEqual(['Imran Khan']);
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search name or phone' }));
    await fill(screen.getByRole('searchbox', { name: 'Search name or phone' }), '98222');
    expect(rowNames()).toEqual(['Lakshmi Iyer']);
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search name or phone' }));

    await userEvent.click(screen.getByRole('combobox', { name: 'Class' }));
    await userEvent.click(screen.getByRole('option', { name: 'Class 7' }));
    expect(rowNames()).toEqual(['Meena Verma', 'Lakshmi Iyer']);
    await userEvent.click(screen.getByRole('combobox', { name: 'Overdue' }));
    await userEvent.click(screen.getByRole('option', { name: 'Over 90 days' }));
    expect(rowNames()).toEqual(['Meena Verma']);
    await userEvent.click(screen.getByRole('combobox', { name: 'Overdue' }));
    await userEvent.click(screen.getByRole('option', { name: '31–60 days' }));
    expect(screen.getByText('No family that owes matches these filters.')).toBeInTheDocument();
  });

  it('shows a page of families at a time, and a new filter starts again at the first page', async () => {
    const many: Due[] = Array.from({ length: 120 }, (_, index) => ({
      family_id: 1000 + index,
      parent_name: `Parent ${String(index + 1).padStart(3, '0')}`,
      parent_phone: `+9198000${String(index).padStart(5, '0')}`,
      students: [{ id: 5000 + index, full_name: `Child ${index + 1}`, class_name: index % 2 ? '8' : '7' }],
      balance_paise: 10_000,
      oldest_due_date: '2026-10-05',
      days_overdue: 40,
    }));
    serve({}, many);
    renderPage(<DuesTab />, { path: '/fees', signedInAs: 'admin' });
    await screen.findByText('Parent 001');
    expect(rowNames()).toHaveLength(50);
    expect(screen.getByText('1–50 of 120')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(rowNames()[0]).toBe('Parent 051');
    await userEvent.click(screen.getByRole('combobox', { name: 'Class' }));
    await userEvent.click(screen.getByRole('option', { name: 'Class 8' }));
    expect(rowNames()).toHaveLength(50);
    expect(rowNames()[0]).toBe('Parent 002');
    expect(screen.getByText('1–50 of 60')).toBeInTheDocument();
  });

  it('says so when no family owes anything', async () => {
    serve({}, []);
    renderPage(<DuesTab />, { path: '/fees', signedInAs: 'admin' });
    expect(await screen.findByText('No family owes anything.')).toBeInTheDocument();
  });

  it('gives each family a card on a phone, with its buttons', async () => {
    renderAtWidth(390);
    serve();
    renderPage(<DuesTab />, { path: '/fees', signedInAs: 'admin' });
    const list = await screen.findByRole('list', { name: 'Families that owe, oldest debt first' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const card = within(list).getByRole('listitem', { name: 'Imran Khan' });
    expect(within(card).getByText('₹700.00')).toBeInTheDocument();
    expect(within(card).getByText('40 days')).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Collect payment from Imran Khan' }));
    expect(await screen.findByRole('dialog', { name: 'Collect payment: Imran Khan' })).toBeInTheDocument();
  });
});

describe("A family's statement", () => {
  it('opens from a row, newest entry first, with the kinds in words and the balance', async () => {
    serve();
    renderPage(<DuesTab />, { path: '/fees', signedInAs: 'admin' });
    await userEvent.click(
      within(await screen.findByRole('row', { name: /Meena Verma/ })).getByRole('button', { name: 'Statement' }),
    );
    expect(await screen.findByRole('heading', { name: "Meena Verma's family" })).toBeInTheDocument();
    expect(screen.getByTestId('family-balance')).toHaveTextContent('Owes ₹500.00');
    const rows = within(screen.getByRole('table', { name: 'Statement entries' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => row.querySelectorAll('td')[1]?.textContent)).toEqual(['Payment', 'Charge']);
    await userEvent.click(screen.getByRole('button', { name: 'Back to dues' }));
    expect(await screen.findByRole('table', { name: 'Families that owe, oldest debt first' })).toBeInTheDocument();
  });

  it('gives each entry a card on a phone, without the amount column the entry leaves empty', async () => {
    renderAtWidth(390);
    serve();
    renderPage(<DuesTab />, { path: '/fees?tab=dues&family=12', signedInAs: 'admin' });
    const list = await screen.findByRole('list', { name: 'Statement entries' });
    const [payment, charge] = within(list).getAllByRole('listitem');
    const headers = (card: HTMLElement | undefined) =>
      Array.from(card?.querySelectorAll('dt') ?? []).map((header) => header.textContent);
    expect(headers(payment)).toContain('Paid');
    expect(headers(payment)).not.toContain('Charged');
    expect(headers(charge)).toContain('Charged');
    expect(headers(charge)).not.toContain('Paid');
  });

  it('opens from the address (?tab=dues&family=12) and shows an advance', async () => {
    serve({ 'GET /fees/families/12': () => [200, { ...family, balance_paise: -25_000 }] });
    renderPage(<DuesTab />, { path: '/fees?tab=dues&family=12', signedInAs: 'admin' });
    expect(await screen.findByTestId('family-balance')).toHaveTextContent('Advance ₹250.00');
  });

  it('shows the receipt of a payment entry; a second reversal shows the server’s words', async () => {
    let reversals = 0;
    const api = serve({
      'POST /fees/payments/501/reverse': () => {
        reversals += 1;
        return reversals === 1
          ? [200, { ...receipt, reversed: true, reversed_on: '2026-11-28', reversal_reason: 'Cheque bounced' }]
          : [
              409,
              { detail: 'Payment 501 is already reversed', code: 'fees.payment_already_reversed', params: { id: 501 } },
            ];
      },
    });
    renderPage(<DuesTab />, { path: '/fees?tab=dues&family=12', signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Receipt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Receipt' });
    expect(await within(dialog).findByText('R/2026-27/000123')).toBeInTheDocument();
    expect(within(dialog).getByText('Sunrise Tuition')).toBeInTheDocument();
    expect(within(dialog).getByText('UPI')).toBeInTheDocument();
    expect(within(dialog).getByText('412345678901')).toBeInTheDocument();
    // The printed copy is on the page, hidden on screen.
    expect(screen.getByTestId('receipt-print')).toHaveTextContent('R/2026-27/000123');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Reverse payment' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reverse payment R/2026-27/000123?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Reverse' }));
    expect(within(confirm).getByText('Enter why the payment is reversed.')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    await fill(within(confirm).getByRole('textbox', { name: /Reason/ }), 'Cheque bounced');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Reverse' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /Reverse payment/ })).not.toBeInTheDocument());
    const [sent] = api.calls.filter((call) => call.method === 'POST');
    expect(sent?.body).toEqual({ reason: 'Cheque bounced' });

    // The same reversal asked again (another admin got there first): the server's 409, in words.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reverse payment' }));
    const again = await screen.findByRole('dialog', { name: 'Reverse payment R/2026-27/000123?' });
    await fill(within(again).getByRole('textbox', { name: /Reason/ }), 'Again');
    await userEvent.click(within(again).getByRole('button', { name: 'Reverse' }));
    expect(await within(again).findByText(/already reversed/)).toBeInTheDocument();
  });

  it('shows "Reversed on …: reason" on a reversed receipt and offers no second reversal', async () => {
    serve({
      'GET /fees/receipts/501': () => [
        200,
        { ...receipt, reversed: true, reversed_on: '2026-11-28', reversal_reason: 'Cheque bounced' },
      ],
    });
    renderPage(<DuesTab />, { path: '/fees?tab=dues&family=12', signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Receipt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Receipt' });
    expect(await within(dialog).findByText('Reversed on 28 Nov 2026: Cheque bounced')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Reverse payment' })).not.toBeInTheDocument();
  });

  it("shows a GST-registered centre's receipt as a tax invoice with its GST lines", async () => {
    const dialog = await openTaxInvoice({});
    expect(await within(dialog).findByText('Tax invoice', { exact: false })).toBeInTheDocument();
    // The centre's GSTIN stands with its name and address, not among the recipient's lines.
    expect(within(dialog).getByTestId('receipt-supplier-gstin')).toHaveTextContent('GSTIN: 27AAPFU0939F1ZV');
    expect(within(dialog).getByText('Maharashtra (27)')).toBeInTheDocument();
    expect(within(dialog).getByText('₹423.73')).toBeInTheDocument();
    expect(within(dialog).getByText('CGST (9%)')).toBeInTheDocument();
    expect(within(dialog).getByText('₹38.14')).toBeInTheDocument();
    expect(within(dialog).getByText('SGST (9%)')).toBeInTheDocument();
    expect(within(dialog).queryByText(/IGST/)).not.toBeInTheDocument();
    // What Rule 46 adds (ADR 065): the centre's address, whom it is billed to, reverse charge, the signatory.
    expect(within(dialog).getByTestId('receipt-supplier-address')).toHaveTextContent(
      'Address: 14 MG Road, Pune 411001',
    );
    expect(within(dialog).getByText('Billed to').nextElementSibling).toHaveTextContent('Verma Traders');
    expect(within(dialog).getByText('Billing address').nextElementSibling).toHaveTextContent(
      '7 Park Street, Pune 411002',
    );
    expect(within(dialog).getByText('27AAGCB7383J1Z6').closest('bdi')).toHaveAttribute('dir', 'ltr');
    expect(within(dialog).getByText('Reverse charge').nextElementSibling).toHaveTextContent('No');
    expect(within(dialog).getByTestId('receipt-signatory')).toHaveTextContent(/For .*Authorised signatory/);
  });

  it('prints no line an invoice issued before ADR 065 did not fix', async () => {
    const dialog = await openTaxInvoice({
      tax: {
        ...MAHARASHTRA_TAX,
        supplier_address: null,
        recipient_name: null,
        recipient_address: null,
        recipient_gstin: null,
      },
    });
    expect(await within(dialog).findByText('Reverse charge')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('receipt-supplier-address')).not.toBeInTheDocument();
    expect(within(dialog).queryByText('Billed to')).not.toBeInTheDocument();
    expect(within(dialog).queryByText('Billing address')).not.toBeInTheDocument();
  });

  it("shows a reversed tax invoice's credit note: its number, day and invoice, and the tax figures negated", async () => {
    const dialog = await openTaxInvoice({
      reversed: true,
      reversed_on: '2026-11-28',
      reversal_reason: 'Cheque bounced',
      credit_note: {
        number: 'CN/2026-27/00001',
        issued_on: '2026-11-28',
        reason: 'Cheque bounced',
        taxable_paise: -42_373,
        cgst_paise: -3_814,
        sgst_paise: -3_813,
        igst_paise: 0,
      },
    });
    expect(
      await within(dialog).findByText(
        `Credit note CN/2026-27/00001 issued on 28 Nov 2026 against invoice ${receipt.receipt_number}`,
      ),
    ).toBeInTheDocument();
    const note = within(dialog).getByRole('heading', { name: 'Credit note CN/2026-27/00001' });
    const figures = note.nextElementSibling as HTMLElement;
    expect(within(figures).getByText('-₹423.73')).toBeInTheDocument();
    expect(within(figures).getByText('CGST (9%)')).toBeInTheDocument();
    expect(within(figures).getByText('-₹38.14')).toBeInTheDocument();
    expect(within(figures).getByText('-₹38.13')).toBeInTheDocument();
    // The invoice's own figures stay as issued, above the note.
    expect(within(dialog).getByText('₹423.73')).toBeInTheDocument();
  });

  it('downloads the PDF as <receipt number>.pdf, and says so when the server sends none', async () => {
    let pdf = true;
    const api = serve({
      'GET /fees/receipts/501': (call) =>
        call.headers.get('accept') === 'application/pdf'
          ? pdf
            ? new Response('%PDF-1.7', { status: 200, headers: { 'content-type': 'application/pdf' } })
            : json({ detail: 'Not Acceptable' }, 406)
          : [200, receipt],
    });
    const saved: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:receipt');
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderPage(<DuesTab />, { path: '/fees?tab=dues&family=12', signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Receipt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Receipt' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(saved).toEqual(['R-2026-27-000123.pdf']));
    const asked = api.calls.find((call) => call.headers.get('accept') === 'application/pdf');
    expect(asked?.headers.get('authorization')).toBe('Bearer test-token');
    pdf = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Download PDF' }));
    expect(
      await within(dialog).findByText(
        'The server did not send a PDF of this receipt. Print it instead, or try again later.',
      ),
    ).toBeInTheDocument();
  });

  it("shows the server's words when online payment is off, and the link when it is on", async () => {
    let on = false;
    serve({
      'POST /fees/families/12/payment-link': () =>
        on
          ? [201, { link_id: 'plink_1', url: 'https://rzp.io/i/abc', amount_paise: 50_000 }]
          : [409, { detail: 'Online payment is not set up', code: 'payments.online_off' }],
    });
    renderPage(<DuesTab />, { path: '/fees?tab=dues&family=12', signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Payment link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payment link: Meena Verma' });
    expect(await within(dialog).findByText(/Online payment is not set up|RAZORPAY_KEY_ID/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    on = true;
    await userEvent.click(screen.getByRole('button', { name: 'Payment link' }));
    const shown = await screen.findByRole('dialog', { name: 'Payment link: Meena Verma' });
    expect(await within(shown).findByDisplayValue('https://rzp.io/i/abc')).toBeInTheDocument();
    expect(within(shown).getByRole('link', { name: 'Send on WhatsApp' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^https:\/\/wa\.me\/919800011111\?text=.*rzp\.io/),
    );
  });
});

describe('filterDues', () => {
  it('needs three digits to match a phone, so a name search never matches by chance', () => {
    expect(filterDues(dues, { search: '9', className: '', bucket: '' })).toEqual([]);
    expect(filterDues(dues, { search: '+91 98111', className: '', bucket: '' }).map((due) => due.family_id)).toEqual([
      14,
    ]);
  });
});

describe('payments kept on this device', () => {
  it('are shown on the family, sent when the network is back, and the statement is read again', async () => {
    const admin = signIn('admin');
    await queuePayment({
      client_id: '6f1c0c7e-1f7e-4a0e-9a57-2b1e1c3c9d10',
      body: {
        family_id: 12,
        amount_paise: 30_000,
        mode: 'cash',
        received_on: '2026-11-27',
        reference: null,
        client_id: '6f1c0c7e-1f7e-4a0e-9a57-2b1e1c3c9d10',
      },
      parent_name: 'Meena Verma',
      queued_at: '2026-11-27T10:00:00Z',
    });
    let online = false;
    const api = serve({
      'POST /fees/payments': () => {
        if (!online) throw new TypeError('Failed to fetch');
        return [200, { payment_id: 502, receipt_number: 'R/2026-27/000124', allocations: [], balance_paise: 20_000 }];
      },
    });
    renderPage(<DuesTab />, { path: '/fees?tab=dues&family=12', signedInAs: admin });
    expect(await screen.findByText('Payments kept on this phone')).toBeInTheDocument();
    expect(await screen.findByText(/waiting to be recorded/)).toBeInTheDocument();
    const statementReads = () => api.calls.filter((call) => call.path === '/fees/families/12/statement').length;
    const before = statementReads();
    online = true;
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByText(/recorded, receipt R\/2026-27\/000124/)).toBeInTheDocument();
    const sent = api.calls.filter((call) => call.method === 'POST' && call.path === '/fees/payments');
    expect(sent.at(-1)?.body).toMatchObject({
      client_id: '6f1c0c7e-1f7e-4a0e-9a57-2b1e1c3c9d10',
      amount_paise: 30_000,
    });
    await waitFor(() => expect(statementReads()).toBeGreaterThan(before));
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText('Payments kept on this phone')).not.toBeInTheDocument());
  });
});
