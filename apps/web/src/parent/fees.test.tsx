import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ParentFees, Receipt } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../testing';
import { Fees } from './fees';
import { showLanguage } from './i18n';

type Entry = ParentFees['entries'][number];

/** A statement line as the server answers it (cast: the fields this screen does not read may grow). */
const entry = (fields: Omit<Entry, 'payment_id'>) => fields as Entry;

function fees(fields: Partial<ParentFees> = {}): ParentFees {
  return {
    family_id: 7,
    balance_paise: 250_000,
    students: [
      { id: 1, full_name: 'Aarav Sharma', class_name: '8' },
      { id: 2, full_name: 'Meera Sharma', class_name: '10' },
    ],
    entries: [
      entry({
        date: '2026-10-01',
        kind: 'charge',
        description: 'Tuition, October',
        student_id: 1,
        debit_paise: 300_000,
        credit_paise: 0,
        balance_paise: 300_000,
      }),
      entry({
        date: '2026-10-05',
        kind: 'charge',
        description: 'Tuition, October',
        student_id: 2,
        debit_paise: 150_000,
        credit_paise: 0,
        balance_paise: 450_000,
      }),
      entry({
        date: '2026-10-12',
        kind: 'payment',
        description: 'Payment, cash',
        student_id: 1,
        debit_paise: 0,
        credit_paise: 200_000,
        balance_paise: 250_000,
      }),
    ],
    earlier_entries: 0,
    receipts: [
      {
        payment_id: 41,
        receipt_number: 'R/2026-27/000041',
        date: '2026-10-12',
        amount_paise: 200_000,
        mode: 'cash',
        reversed: false,
      },
    ],
    online_payment: false,
    can_pay_online: false,
    pay: null,
    ...fields,
  };
}

const balanceCard = () => document.querySelector('.fees-balance') as HTMLElement;

afterEach(async () => {
  vi.restoreAllMocks();
  await showLanguage('en');
});

/** A GST-registered centre's tax invoice of ₹1,180.00 (CGST and SGST at 9%). */
const taxInvoice = (): Receipt =>
  ({
    payment_id: 44,
    receipt_number: 'R/2026-27/000044',
    financial_year: '2026-27',
    centre_name: 'Bright Minds Tuition',
    family_id: 7,
    parent_name: 'Sunita Sharma',
    parent_phone: '+919812345670',
    students: fees().students,
    amount_paise: 118_000,
    mode: 'cash',
    reference: null,
    received_on: '2026-10-12',
    recorded_by: 'Asha',
    allocations: [{ student_id: 1, amount_paise: 118_000 }],
    balance_paise: 0,
    reversed: false,
    reversed_on: null,
    reversal_reason: null,
    document: 'tax_invoice',
    tax: {
      gstin: '27AAPFU0939F1ZV',
      state_code: '27',
      state_name: 'Maharashtra',
      sac: '999293',
      rate_basis_points: 1800,
      taxable_paise: 100_000,
      cgst_paise: 9_000,
      sgst_paise: 9_000,
      igst_paise: 0,
      place_of_supply_code: '27',
      place_of_supply_name: 'Maharashtra',
    },
  }) as Receipt;

/** Opens receipt 44 from the Fees tab, the API answering `invoice`, and answers its card. */
async function openInvoice(invoice: Receipt): Promise<HTMLElement> {
  fakeApi({
    'GET /api/v1/parent/fees': () => [
      200,
      fees({ receipts: [{ ...fees().receipts[0], payment_id: 44, receipt_number: 'R/2026-27/000044' } as never] }),
    ],
    'GET /api/v1/parent/fees/receipts/44': () => [200, invoice],
  });
  render(<Fees />);
  await userEvent.click(await screen.findByRole('button', { name: 'Open receipt R/2026-27/000044' }));
  const heading = await screen.findByRole('heading', { name: 'Tax invoice R/2026-27/000044' });
  return heading.closest('article') as HTMLElement;
}

describe('fees in the parent app', () => {
  it('says what the family owes, in rupees, with the statement newest first and its receipts; online off: pay at the centre', async () => {
    fakeApi({ 'GET /api/v1/parent/fees': () => [200, fees()] });
    render(<Fees />);
    expect(await screen.findByText('You owe')).toBeInTheDocument();
    expect(balanceCard()).toHaveTextContent('You owe ₹2,500.00');
    expect(within(balanceCard()).getByText('Pay at the centre.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Pay/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /Pay/ })).toBeNull();

    const lines = within(screen.getByRole('list', { name: 'Statement' })).getAllByRole('listitem');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toHaveTextContent('12 Oct 2026');
    expect(lines[0]).toHaveTextContent('Payment');
    expect(lines[0]).toHaveTextContent('−₹2,000.00');
    expect(lines[0]).toHaveTextContent('Balance ₹2,500.00');
    expect(lines[1]).toHaveTextContent('Meera Sharma');
    expect(lines[1]).toHaveTextContent('₹1,500.00');
    expect(lines[2]).toHaveTextContent('Tuition, October');
    expect(lines[2]).toHaveTextContent('Balance ₹3,000.00');

    const receipts = within(screen.getByRole('list', { name: 'Receipts' })).getAllByRole('listitem');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toHaveTextContent('R/2026-27/000041');
    expect(receipts[0]).toHaveTextContent('₹2,000.00');
    expect(receipts[0]).toHaveTextContent('Cash');
    expect(receipts[0]).not.toHaveTextContent('Reversed');
  });

  it('says there is nothing to pay, and offers no Pay, when the balance is 0', async () => {
    fakeApi({
      'GET /api/v1/parent/fees': () => [
        200,
        fees({ balance_paise: 0, entries: [], receipts: [], online_payment: true, can_pay_online: false }),
      ],
    });
    render(<Fees />);
    expect(await screen.findByText('Nothing to pay')).toBeInTheDocument();
    expect(balanceCard()).not.toHaveTextContent('₹');
    expect(screen.queryByText('Pay at the centre.')).toBeNull();
    expect(screen.queryByRole('button', { name: /Pay/ })).toBeNull();
    expect(screen.getByText('Nothing charged or paid yet.')).toBeInTheDocument();
    expect(screen.getByText('No receipts yet.')).toBeInTheDocument();
  });

  it('shows an advance as money paid ahead, never as a debt, and a reversed receipt marked', async () => {
    fakeApi({
      'GET /api/v1/parent/fees': () => [
        200,
        fees({
          balance_paise: -25_000,
          entries: [
            entry({
              date: '2026-11-02',
              kind: 'payment',
              description: 'Payment, upi',
              student_id: null,
              debit_paise: 0,
              credit_paise: 25_000,
              balance_paise: -25_000,
            }),
          ],
          receipts: [
            {
              payment_id: 43,
              receipt_number: 'R/2026-27/000043',
              date: '2026-11-02',
              amount_paise: 25_000,
              mode: 'upi',
              reversed: false,
            },
            {
              payment_id: 42,
              receipt_number: 'R/2026-27/000042',
              date: '2026-11-01',
              amount_paise: 10_000,
              mode: 'cheque',
              reversed: true,
            },
          ],
        }),
      ],
    });
    render(<Fees />);
    expect(await screen.findByText('Paid ahead: it goes towards the next fees.')).toBeInTheDocument();
    expect(balanceCard()).toHaveTextContent('Advance ₹250.00');
    expect(balanceCard()).toHaveTextContent('Paid ahead');
    expect(balanceCard()).not.toHaveTextContent('You owe');
    expect(screen.queryByText('Pay at the centre.')).toBeNull();
    const [line] = within(screen.getByRole('list', { name: 'Statement' })).getAllByRole('listitem');
    expect(line).toHaveTextContent('Advance ₹250.00');
    const receipts = within(screen.getByRole('list', { name: 'Receipts' })).getAllByRole('listitem');
    expect(receipts[0]).not.toHaveTextContent('Reversed');
    expect(receipts[1]).toHaveTextContent('Reversed');
    expect(receipts[1]).toHaveTextContent('Cheque');
  });

  it('online: Pay asks for the link only when tapped, then opens the payment page', async () => {
    const api = fakeApi({
      'GET /api/v1/parent/fees': () => [200, fees({ online_payment: true, can_pay_online: true })],
      'POST /api/v1/parent/fees/pay-link': () => [200, { url: 'https://rzp.io/i/abc123', amount_paise: 250_000 }],
    });
    const navigate = vi.fn();
    render(<Fees navigate={navigate} />);
    const pay = await screen.findByRole('button', { name: 'Pay ₹2,500.00 online' });
    expect(screen.queryByText('Pay at the centre.')).toBeNull();
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    await userEvent.click(pay);
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('https://rzp.io/i/abc123'));
    expect(api.calls.filter((call) => call.path === '/parent/fees/pay-link')).toHaveLength(1);
  });

  it('online with the link made already: Pay is a link to it, and a failed tap says so', async () => {
    fakeApi({
      'GET /api/v1/parent/fees': () => [
        200,
        fees({
          online_payment: true,
          can_pay_online: true,
          pay: { url: 'https://rzp.io/i/kept', amount_paise: 250_000 },
        }),
      ],
    });
    const { unmount } = render(<Fees />);
    const link = await screen.findByRole('link', { name: 'Pay ₹2,500.00 online' });
    expect(link).toHaveAttribute('href', 'https://rzp.io/i/kept');
    unmount();

    fakeApi({
      'GET /api/v1/parent/fees': () => [200, fees({ online_payment: true, can_pay_online: true })],
      'POST /api/v1/parent/fees/pay-link': () => [503, { detail: 'Razorpay could not be reached' }],
    });
    const navigate = vi.fn();
    render(<Fees navigate={navigate} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Pay ₹2,500.00 online' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/Razorpay could not be reached|payment page/);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('asks for earlier entries when there are more', async () => {
    const api = fakeApi({
      'GET /api/v1/parent/fees': ({ url }) => [
        200,
        url.searchParams.get('entries') === '50' ? fees({ earlier_entries: 3 }) : fees(),
      ],
    });
    render(<Fees />);
    await userEvent.click(await screen.findByRole('button', { name: 'Show 3 earlier entries' }));
    await vi.waitFor(() =>
      expect(api.calls.map((call) => call.url.searchParams.get('entries'))).toEqual(['50', '100']),
    );
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: /earlier/ })).toBeNull());
  });

  it('opens a receipt, printable, and comes back', async () => {
    const receipt = {
      payment_id: 41,
      receipt_number: 'R/2026-27/000041',
      financial_year: '2026-27',
      centre_name: 'Bright Minds Tuition',
      family_id: 7,
      parent_name: 'Sunita Sharma',
      parent_phone: '+919812345670',
      students: fees().students,
      amount_paise: 200_000,
      mode: 'upi',
      reference: '412345678901',
      received_on: '2026-10-12',
      recorded_by: 'Asha',
      allocations: [
        { student_id: 1, amount_paise: 150_000 },
        { student_id: null, amount_paise: 50_000 },
      ],
      balance_paise: 250_000,
      reversed: false,
      reversed_on: null,
      reversal_reason: null,
    } as Receipt;
    const api = fakeApi({
      'GET /api/v1/parent/fees': () => [200, fees()],
      'GET /api/v1/parent/fees/receipts/41': ({ headers }) =>
        headers.get('accept') === 'application/pdf'
          ? new Response('%PDF-1.7', {
              headers: {
                'content-type': 'application/pdf',
                'content-disposition': 'attachment; filename="R-2026-27-000041.pdf"',
              },
            })
          : [200, receipt],
    });
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    render(<Fees />);
    await userEvent.click(await screen.findByRole('button', { name: 'Open receipt R/2026-27/000041' }));
    const heading = await screen.findByRole('heading', { name: 'Receipt R/2026-27/000041' });
    const card = heading.closest('article') as HTMLElement;
    expect(card).toHaveTextContent('Bright Minds Tuition');
    expect(card).toHaveTextContent('Sunita Sharma');
    expect(card).toHaveTextContent('UPI 412345678901');
    expect(card).toHaveTextContent('For Aarav Sharma₹1,500.00');
    expect(card).toHaveTextContent('Kept as advance₹500.00');
    await userEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalled();
    // The PDF: asked for in the language shown, saved under the server's name.
    const makeUrl = vi.fn(() => 'blob:receipt');
    // jsdom has no object URLs: this file's URL gets them (each test file has its own window).
    Object.assign(URL, { createObjectURL: makeUrl, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await userEvent.click(screen.getByRole('button', { name: 'Save PDF' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    const asked = api.calls.find((call) => call.headers.get('accept') === 'application/pdf');
    expect(asked?.path).toBe('/parent/fees/receipts/41');
    expect(asked?.url.searchParams.get('lang')).toBe('en');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('R-2026-27-000041.pdf');
    await userEvent.click(screen.getByRole('button', { name: 'Back to fees' }));
    expect(await screen.findByRole('heading', { name: 'Fees' })).toBeInTheDocument();
  });

  it("lays out a GST-registered centre's receipt as a tax invoice, with CGST and SGST", async () => {
    const invoice = taxInvoice();
    const card = await openInvoice(invoice);
    expect(card).toHaveTextContent('GSTIN: 27AAPFU0939F1ZV');
    expect(card).toHaveTextContent('SAC999293');
    expect(card).toHaveTextContent('Taxable value₹1,000.00');
    expect(card).toHaveTextContent('CGST 9%₹90.00');
    expect(card).toHaveTextContent('SGST 9%₹90.00');
    expect(card).not.toHaveTextContent('IGST');
    // An invoice issued before ADR 065 fixed no address or recipient: no such line; reverse charge and
    // the signatory are on every tax invoice.
    expect(card).not.toHaveTextContent('Billed to');
    expect(card).toHaveTextContent('Reverse chargeNo');
    expect(card).toHaveTextContent(/For \u2068Bright Minds Tuition\u2069\s*Authorised signatory$/);
  });

  it("shows the centre's address and whom the invoice is billed to, as it was issued (ADR 065)", async () => {
    const invoice = taxInvoice();
    const card = await openInvoice({
      ...invoice,
      tax: {
        ...(invoice.tax as NonNullable<Receipt['tax']>),
        supplier_address: '14 MG Road, Pune 411001',
        recipient_name: 'Rao Learning LLP',
        recipient_address: '2 Residency Road, Bengaluru 560025',
        recipient_gstin: '29AAGCB7383J1Z4',
      },
    });
    expect(card).toHaveTextContent('14 MG Road, Pune 411001');
    expect(card).toHaveTextContent('Billed toRao Learning LLP');
    expect(card).toHaveTextContent('Billing address2 Residency Road, Bengaluru 560025');
    expect(card).toHaveTextContent('GSTIN of recipient29AAGCB7383J1Z4');
  });

  it('says on a reversed tax invoice which credit note cancelled it, and when', async () => {
    const invoice = {
      ...taxInvoice(),
      reversed: true,
      reversed_on: '2026-10-20',
      reversal_reason: 'Cheque bounced',
      credit_note: {
        number: 'CN/2026-27/00003',
        issued_on: '2026-10-20',
        reason: 'Cheque bounced',
        taxable_paise: -100_000,
        cgst_paise: -9_000,
        sgst_paise: -9_000,
        igst_paise: 0,
      },
    } as Receipt;
    const card = await openInvoice(invoice);
    expect(card).toHaveTextContent(
      /This payment was reversed on .+\. Cheque bounced Credit note \u2066CN\/2026-27\/00003\u2069 was issued on .+ against this invoice\./,
    );
  });

  it('reads in Urdu, right to left, with the amounts formatted for it', async () => {
    await showLanguage('ur');
    fakeApi({ 'GET /api/v1/parent/fees': () => [200, fees()] });
    render(<Fees />);
    expect(await screen.findByText('آپ کے ذمے')).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
    const amount = new Intl.NumberFormat('ur-IN-u-nu-latn', { style: 'currency', currency: 'INR' }).format(2500);
    expect(balanceCardIn('آپ کے ذمے')).toHaveTextContent(amount);
    expect(screen.getByText('مرکز پر ادا کریں۔')).toBeInTheDocument();
  });

  it("writes each statement entry in the language shown, from its kind and its child, not the server's English", async () => {
    await showLanguage('hi');
    fakeApi({ 'GET /api/v1/parent/fees': () => [200, fees()] });
    render(<Fees />);
    const lines = within(await screen.findByRole('list', { name: 'खाता विवरण' })).getAllByRole('listitem');
    const meeras = lines[1] as HTMLElement;
    expect(meeras).toHaveTextContent('फ़ीस');
    expect(meeras).toHaveTextContent('Meera Sharma के लिए');
    expect(within(meeras).getByText('Meera Sharma').tagName).toBe('BDI');
    for (const line of lines) expect(line).not.toHaveTextContent(/Tuition|Payment/);
  });

  it('says when the fees shown are the copy this phone kept, the centre being out of reach', async () => {
    fakeApi({
      'GET /api/v1/parent/fees': () =>
        new Response(JSON.stringify(fees()), {
          headers: { 'content-type': 'application/json', 'x-tuitiondesk-kept-at': '2026-11-20T09:30:00.000Z' },
        }),
    });
    render(<Fees />);
    expect(await screen.findByRole('status')).toHaveTextContent(
      /^The centre cannot be reached just now\. These are your fees as they were at .+; payments since then are not shown\.$/,
    );
    expect(balanceCard()).toHaveTextContent('You owe ₹2,500.00');
  });

  it('says nothing of a kept copy when the answer is fresh', async () => {
    fakeApi({ 'GET /api/v1/parent/fees': () => [200, fees()] });
    render(<Fees />);
    await screen.findByText('You owe');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says so when the fees cannot be loaded', async () => {
    fakeApi({ 'GET /api/v1/parent/fees': () => [500, { detail: 'Internal Server Error' }] });
    render(<Fees />);
    expect(await screen.findByRole('alert')).toBeInTheDocument();
  });
});

function balanceCardIn(label: string): HTMLElement {
  return screen.getByText(label).closest('.card') as HTMLElement;
}
