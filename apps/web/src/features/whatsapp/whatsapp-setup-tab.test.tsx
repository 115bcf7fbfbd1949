import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WhatsappSetup } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage, whatsappSetup } from '../../testing';
import { WhatsappSetupTab } from './whatsapp-setup-tab';

afterEach(() => vi.restoreAllMocks());

const OFF: WhatsappSetup = whatsappSetup();

const ON: WhatsappSetup = {
  ...OFF,
  connected: true,
  source: 'console',
  phone_number_id: '1098765432',
  business_account_id: '2233445566',
  access_token_set: true,
  app_secret_set: true,
  connected_at: '2026-11-27T10:00:00Z',
  last_callback_at: '2026-11-27T10:05:00Z',
  live: {
    display_phone_number: '+91 80 4000 1111',
    verified_name: 'Bright Minds Tuition',
    quality_rating: 'GREEN',
    messaging_limit_tier: 'TIER_1K',
    daily_limit: 1000,
    approved_templates: 1,
    templates: [
      { name: 'hello_world', language: 'en_US', status: 'APPROVED', category: 'UTILITY' },
      { name: 'fees_due', language: 'en', status: 'REJECTED', category: 'MARKETING' },
    ],
  },
};

const VALUES = {
  access_token: 'EAAexpired-token-000000000',
  phone_number_id: '1098765432',
  business_account_id: '2233445566',
  app_secret: '0123456789abcdef0123456789abcdef',
};

describe('WhatsApp set-up', () => {
  it('shows what to paste into Meta, and a refusal of Meta on the field it is about; nothing else changes', async () => {
    const put = vi.fn((_body: unknown): [number, unknown] => [
      422,
      {
        detail:
          "access_token: The access token has expired: make a new one in Meta's Business settings (System users, Generate new token) and paste it here",
        code: 'validation.whatsapp_token_expired',
        params: { field: 'access_token' },
      },
    ]);
    fakeApi({ 'GET /settings/whatsapp': () => [200, OFF], 'PUT /settings/whatsapp': ({ body }) => put(body) });
    renderPage(<WhatsappSetupTab />, { signedInAs: 'admin' });
    expect(await screen.findByText('Not connected')).toBeInTheDocument();
    expect(screen.getByLabelText('Callback URL')).toHaveValue(OFF.webhook_url);
    expect(screen.getByLabelText('Verify token')).toHaveValue(OFF.verify_token);
    const user = userEvent.setup();
    const connect = screen.getByRole('button', { name: 'Check and connect' });
    expect(connect).toBeDisabled();
    await user.type(screen.getByLabelText(/^Access token/), VALUES.access_token);
    await user.type(screen.getByLabelText(/^Phone number id/), VALUES.phone_number_id);
    await user.type(screen.getByLabelText(/^WhatsApp Business Account id/), VALUES.business_account_id);
    await user.type(screen.getByLabelText(/^App secret/), VALUES.app_secret);
    await user.click(connect);
    await waitFor(() => expect(put).toHaveBeenCalledWith(VALUES));
    expect(await screen.findByText(/The access token has expired: make a new one/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Access token/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^App secret/)).toHaveAttribute('aria-invalid', 'false');
  });

  it('shows the live status and templates, sends a test, and disconnects after asking', async () => {
    const test = vi.fn((_body: unknown): [number, unknown] => [
      200,
      { to: '+919812345670', template: 'hello_world', language: 'en_US', provider_message_id: 'wamid.1' },
    ]);
    let current = ON;
    const remove = vi.fn((): [number, unknown] => {
      current = { ...OFF };
      return [200, current];
    });
    fakeApi({
      'GET /settings/whatsapp': () => [200, current],
      'POST /settings/whatsapp/test': ({ body }) => test(body),
      'DELETE /settings/whatsapp': () => remove(),
    });
    renderPage(<WhatsappSetupTab />, { signedInAs: 'admin' });
    expect(await screen.findByText('Connected')).toBeInTheDocument();
    expect(screen.getByText('+91 80 4000 1111')).toBeInTheDocument();
    expect(screen.getByText('High')).toBeInTheDocument();
    expect(screen.getByText('1000 new conversations a day')).toBeInTheDocument();
    expect(screen.getByText('1 of 2')).toBeInTheDocument();
    const templates = screen.getByRole('table', { name: 'Templates' });
    expect(within(templates).getByText('Rejected')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Your WhatsApp number/), '98123 45670');
    await user.click(screen.getByRole('button', { name: 'Send test' }));
    await waitFor(() => expect(test).toHaveBeenCalledWith({ to: '98123 45670' }));
    expect(await screen.findByText('Test sent to +919812345670 (hello_world). Check your phone.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect WhatsApp?' });
    expect(remove).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(remove).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('Not connected')).toBeInTheDocument();
  });

  it("shows the server's variables as fixed: secrets only as set, no form, no disconnect", async () => {
    fakeApi({
      'GET /settings/whatsapp': () => [
        200,
        { ...ON, source: 'environment', fixed_by_server: true, verify_token: null, connected_at: null },
      ],
    });
    renderPage(<WhatsappSetupTab />, { signedInAs: 'admin' });
    expect(await screen.findByText(/set by the server's WHATSAPP_\* variables/)).toHaveTextContent(
      'Access token: Set, App secret: Set',
    );
    expect(screen.queryByRole('button', { name: 'Check and connect' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Disconnect' })).toBeNull();
    expect(screen.queryByLabelText('Verify token')).toBeNull();
  });
});
