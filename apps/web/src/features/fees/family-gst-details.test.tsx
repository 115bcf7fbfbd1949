import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FeeFamily } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../testing';
import { DuesTab } from './dues-tab';
import { family, serve } from './dues-test-fixtures';

/**
 * A family's GST details on its statement (ADR 063, 065): the place of supply and whom its tax
 * invoices are billed to, one dialog for the state, billing name, address and GSTIN (its PUT body);
 * and Collect payment's warning before ₹50,000 or more for a family with no address.
 */
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("a family's GST details", () => {
  const gst = (registered: boolean) => ({
    registered,
    gstin: registered ? '27AAPFU0939F1ZV' : null,
    state_code: registered ? '27' : null,
    state_name: registered ? 'Maharashtra' : null,
    sac: '999293',
    rate_basis_points: 1800,
    prices_include_gst: true,
    address: registered ? '14 MG Road, Pune 411001' : null,
  });

  it('shows the place of supply and whom invoices are billed to; one dialog sets state, name, address and GSTIN', async () => {
    let shown: FeeFamily = family;
    const api = serve({
      'GET /fees/gst': () => [200, gst(true)],
      'GET /fees/families/12': () => [200, shown],
      'PUT /fees/families/12/gst-details': ({ body }) => {
        const sent = body as { state_code: string | null; billing_name: string | null; billing_address: string | null };
        shown = {
          ...family,
          ...(body as object),
          state_name: sent.state_code === '29' ? 'Karnataka' : null,
        } as FeeFamily;
        return [200, shown];
      },
    });
    renderPage(<DuesTab />, { path: '/fees?tab=dues&family=12', signedInAs: 'admin' });
    const line = await screen.findByTestId('family-state');
    expect(line).toHaveTextContent("Place of supply for GST: Maharashtra (27), the centre's state");
    expect(line).toHaveTextContent('Tax invoices billed to: Meena Verma (no address)');
    await userEvent.click(within(line).getByRole('button', { name: 'GST details' }));
    const dialog = await screen.findByRole('dialog', { name: "GST details of Meena Verma's family" });
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'State (place of supply)' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Karnataka (29)' }));
    expect(within(dialog).getByRole('textbox', { name: 'Billing name' })).toHaveAccessibleDescription(
      "Leave blank to bill the parent's name, Meena Verma.",
    );
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Billing address' }),
      '2 Residency Road{Enter}Bengaluru',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      { state_code: '29', billing_name: null, billing_address: '2 Residency Road\nBengaluru', billing_gstin: null },
    ]);
    await waitFor(() =>
      expect(screen.getByTestId('family-state')).toHaveTextContent('Place of supply for GST: Karnataka (29)'),
    );

    // A registered business: its GSTIN's state becomes the place of supply; back to the centre's state is null.
    await userEvent.click(within(screen.getByTestId('family-state')).getByRole('button', { name: 'GST details' }));
    const again = await screen.findByRole('dialog', { name: "GST details of Meena Verma's family" });
    expect(within(again).getByRole('textbox', { name: 'Billing address' })).toHaveValue('2 Residency Road\nBengaluru');
    await userEvent.type(within(again).getByRole('textbox', { name: 'Billing name' }), 'Verma Traders');
    await userEvent.type(within(again).getByRole('textbox', { name: /^GSTIN/ }), '27aagcb7383j1z6');
    expect(within(again).getByRole('combobox', { name: 'State (place of supply)' })).toHaveTextContent(
      "Maharashtra (27), the centre's state",
    );
    await userEvent.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'PUT').at(-1)?.body).toEqual({
        state_code: null,
        billing_name: 'Verma Traders',
        billing_address: '2 Residency Road\nBengaluru',
        billing_gstin: '27AAGCB7383J1Z6',
      }),
    );
  });

  it("keeps the dialog open with the server's words when the change is refused", async () => {
    serve({
      'GET /fees/gst': () => [200, gst(true)],
      'PUT /fees/families/12/gst-details': () => [
        422,
        { detail: 'billing_gstin: has a wrong last character (the check character)', code: 'validation.custom' },
      ],
    });
    renderPage(<DuesTab />, { path: '/fees?tab=dues&family=12', signedInAs: 'admin' });
    await userEvent.click(
      within(await screen.findByTestId('family-state')).getByRole('button', { name: 'GST details' }),
    );
    const dialog = await screen.findByRole('dialog', { name: "GST details of Meena Verma's family" });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^GSTIN/ }), '27AAGCB7383J1Z7');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/check character|could not be saved/);
  });

  it('says nothing of GST details when the centre is not GST-registered', async () => {
    serve({ 'GET /fees/gst': () => [200, gst(false)] });
    renderPage(<DuesTab />, { path: '/fees?tab=dues&family=12', signedInAs: 'admin' });
    expect(await screen.findByTestId('family-balance')).toBeInTheDocument();
    expect(screen.queryByTestId('family-state')).not.toBeInTheDocument();
  });

  it('warns before recording ₹50,000 or more for a family with no address, offers its GST details, and still records', async () => {
    let shown: FeeFamily = family;
    const api = serve({
      'GET /fees/gst': () => [200, gst(true)],
      'GET /fees/families/12': () => [200, shown],
      'PUT /fees/families/12/gst-details': ({ body }) => {
        shown = { ...family, ...(body as object) } as FeeFamily;
        return [200, shown];
      },
      'POST /fees/payments': () => [
        200,
        { payment_id: 502, receipt_number: 'R/2026-27/000002', allocations: [], balance_paise: -4_950_000 },
      ],
    });
    renderPage(<DuesTab />, { path: '/fees?tab=dues&family=12', signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Collect payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Collect payment: Meena Verma' });
    const amount = within(dialog).getByRole('textbox', { name: /Amount/ });
    await userEvent.type(amount, '49999');
    expect(within(dialog).queryByTestId('invoice-details-warning')).not.toBeInTheDocument();
    await userEvent.type(amount, '0');
    const warning = await within(dialog).findByTestId('invoice-details-warning');
    expect(warning).toHaveTextContent(/A tax invoice of ₹50,000.00 or more must carry the family's address and state/);
    await userEvent.click(within(warning).getByRole('button', { name: 'Add GST details' }));
    const details = await screen.findByRole('dialog', { name: "GST details of Meena Verma's family" });
    await userEvent.type(within(details).getByRole('textbox', { name: 'Billing address' }), '7 Park Street, Pune');
    await userEvent.click(within(details).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).queryByTestId('invoice-details-warning')).not.toBeInTheDocument());
    expect(api.calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      { state_code: null, billing_name: null, billing_address: '7 Park Street, Pune', billing_gstin: null },
    ]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    expect(await within(dialog).findByText(/R\/2026-27\/000002/)).toBeInTheDocument();
  });
});
