import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage, whatsappSetup } from '../../testing';
import CommunicationsPage from './communications';

afterEach(() => vi.restoreAllMocks());

const OFF = whatsappSetup();

describe('Communications, WhatsApp tab', () => {
  it('is a tab of Communications for admins only', async () => {
    fakeApi({
      'GET /communications/history/grouped': () => [200, []],
      'GET /settings/messaging': () => [404, {}],
      'GET /settings/whatsapp': () => [200, OFF],
    });
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    await userEvent.setup().click(await screen.findByRole('tab', { name: 'WhatsApp' }));
    expect(await screen.findByText('Not connected')).toBeInTheDocument();
  });

  it('is not there for a teacher', async () => {
    fakeApi({ 'GET /communications/history/grouped': () => [200, []] });
    renderPage(<CommunicationsPage />, { signedInAs: 'teacher' });
    expect(await screen.findByRole('tab', { name: 'Message History' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'WhatsApp' })).toBeNull();
  });
});
