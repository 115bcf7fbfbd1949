import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../lib/toast';
import { ABSENCE_ALERTS_LABEL, AbsenceAlertsSwitch } from './absence-alerts-switch';

function fakeSettings(initial: boolean, put: (body: { absence_alerts: boolean }) => [number, unknown]) {
  const puts: unknown[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    let answer: [number, unknown] = [404, { detail: 'Not found' }];
    if (url.pathname === '/api/v1/settings' && method === 'GET') answer = [200, { absence_alerts: initial }];
    if (url.pathname === '/api/v1/settings' && method === 'PUT') {
      const body = JSON.parse(String(init?.body));
      puts.push(body);
      answer = put(body);
    }
    return new Response(JSON.stringify(answer[1]), {
      status: answer[0],
      headers: { 'content-type': 'application/json' },
    });
  });
  return puts;
}

function renderSwitch() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <AbsenceAlertsSwitch />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

async function theSwitch() {
  const control = await screen.findByRole('switch', { name: new RegExp(ABSENCE_ALERTS_LABEL) });
  await waitFor(() => expect(control).toBeEnabled());
  return control;
}

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => vi.restoreAllMocks());

describe('the absence alerts switch', () => {
  it('shows the setting and turns it off with a toast', async () => {
    const user = userEvent.setup({ delay: null });
    const puts = fakeSettings(true, (body) => [200, body]);
    renderSwitch();
    const control = await theSwitch();
    expect(control).toBeChecked();
    await user.click(control);
    expect(await screen.findByText('Absence alerts turned off')).toBeInTheDocument();
    expect(puts).toEqual([{ absence_alerts: false }]);
    expect(control).not.toBeChecked();
  });

  it('turns it on with a toast', async () => {
    const user = userEvent.setup({ delay: null });
    const puts = fakeSettings(false, (body) => [200, body]);
    renderSwitch();
    const control = await theSwitch();
    expect(control).not.toBeChecked();
    await user.click(control);
    expect(await screen.findByText('Absence alerts turned on')).toBeInTheDocument();
    expect(puts).toEqual([{ absence_alerts: true }]);
    expect(control).toBeChecked();
  });

  it('says why a change failed and goes back to the saved value', async () => {
    const user = userEvent.setup({ delay: null });
    fakeSettings(true, () => [500, {}]);
    renderSwitch();
    const control = await theSwitch();
    await user.click(control);
    expect(await screen.findByText('Failed to update settings')).toBeInTheDocument();
    await waitFor(() => expect(control).toBeChecked());
  });

  it("shows the server's detail when it gives one", async () => {
    const user = userEvent.setup({ delay: null });
    fakeSettings(true, () => [403, { detail: 'Not enough permissions' }]);
    renderSwitch();
    await user.click(await theSwitch());
    expect(await screen.findByText('Not enough permissions')).toBeInTheDocument();
  });
});
