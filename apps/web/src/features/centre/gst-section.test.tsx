import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { GstSettings } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage } from '../../testing';
import { GstSection } from './gst-section';

afterEach(() => vi.restoreAllMocks());

const settings = (fields: Partial<GstSettings> = {}): GstSettings => ({
  registered: false,
  gstin: null,
  state_code: null,
  state_name: null,
  sac: '999293',
  rate_basis_points: 1800,
  prices_include_gst: true,
  address: null,
  ...fields,
});

describe('the GST section of Centre settings', () => {
  it('shows the settings, SAC and that fees include GST, and saves a registration with its state named', async () => {
    const user = userEvent.setup();
    const puts: unknown[] = [];
    fakeApi({
      'GET /fees/gst': () => [200, settings()],
      'PUT /fees/gst': ({ body }) => {
        puts.push(body);
        return [
          200,
          settings({ registered: true, gstin: '27AAPFU0939F1ZV', state_code: '27', state_name: 'Maharashtra' }),
        ];
      },
    });
    renderPage(<GstSection />);
    const registered = await screen.findByRole('switch', { name: 'Registered for GST' });
    await waitFor(() => expect(registered).toBeEnabled());
    expect(registered).not.toBeChecked();
    expect(screen.getByRole('textbox', { name: 'GST rate (%)' })).toHaveValue('18');
    expect(screen.getByText('SAC 999293: commercial training and coaching.')).toBeInTheDocument();
    expect(screen.getByText(/Fees include GST/)).toBeInTheDocument();

    await user.click(registered);
    const gstin = screen.getByRole('textbox', { name: /GSTIN/ });
    await user.type(gstin, '27aapfu0939f1zv');
    expect(gstin).toHaveValue('27AAPFU0939F1ZV');
    expect(gstin).toHaveAccessibleDescription('State: Maharashtra');
    const address = screen.getByRole('textbox', { name: /Centre's address/ });
    expect(address).toBeRequired();
    await user.type(address, '14 MG Road{Enter}Pune 411001');
    await user.click(screen.getByRole('button', { name: 'Save GST settings' }));
    expect(await screen.findByText('GST settings saved')).toBeInTheDocument();
    expect(puts).toEqual([
      { registered: true, gstin: '27AAPFU0939F1ZV', address: '14 MG Road\nPune 411001', rate_basis_points: 1800 },
    ]);
  });

  it('asks a centre registered before the address was asked for to add it, on the field the server names', async () => {
    const user = userEvent.setup();
    const registeredBefore = {
      registered: true,
      gstin: '27AAPFU0939F1ZV',
      state_code: '27',
      state_name: 'Maharashtra',
    };
    fakeApi({
      'GET /fees/gst': () => [200, settings(registeredBefore)],
      'PUT /fees/gst': () => [
        422,
        {
          detail: "address: is required for a registered centre: enter the centre's address as on its GST registration",
        },
      ],
    });
    renderPage(<GstSection />);
    expect(await screen.findByTestId('gst-address-missing')).toHaveTextContent(/carry no address/);
    const address = screen.getByRole('textbox', { name: /Centre's address/ });
    await waitFor(() => expect(address).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Save GST settings' }));
    await waitFor(() => expect(address).toHaveAttribute('aria-invalid', 'true'));
    expect(address).toHaveAccessibleDescription(/^Is required for a registered centre/);
  });

  it("shows the server's refusal on the GSTIN field, and a rate that is no number on the rate field without sending it", async () => {
    const user = userEvent.setup();
    const puts: unknown[] = [];
    fakeApi({
      'GET /fees/gst': () => [200, settings()],
      'PUT /fees/gst': ({ body }) => {
        puts.push(body);
        return [
          422,
          {
            detail:
              'gstin: has a wrong last character (the check character): copy it again from the registration certificate',
          },
        ];
      },
    });
    renderPage(<GstSection />);
    const registered = await screen.findByRole('switch', { name: 'Registered for GST' });
    await waitFor(() => expect(registered).toBeEnabled());
    await user.click(registered);
    const gstin = screen.getByRole('textbox', { name: /GSTIN/ });
    await user.type(gstin, '27AAPFU0939F1ZW');
    await user.click(screen.getByRole('button', { name: 'Save GST settings' }));
    await waitFor(() => expect(gstin).toHaveAccessibleDescription(/^Has a wrong last character/));
    expect(gstin).toHaveAttribute('aria-invalid', 'true');

    const rate = screen.getByRole('textbox', { name: 'GST rate (%)' });
    await user.clear(rate);
    await user.type(rate, 'eighteen');
    await user.click(screen.getByRole('button', { name: 'Save GST settings' }));
    await waitFor(() => expect(rate).toHaveAccessibleDescription(/^Enter the rate in percent/));
    expect(puts).toHaveLength(1);
  });

  it('says so when the settings cannot be read', async () => {
    fakeApi({ 'GET /fees/gst': () => [500, { detail: 'boom' }] });
    renderPage(<GstSection />);
    expect(await screen.findByText('The GST settings could not be loaded. Please try again.')).toBeInTheDocument();
  });
});
