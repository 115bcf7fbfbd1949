import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeReply, fakeApi, renderPage } from '../../testing';
import { ABSENCE_ALERTS_LABEL, AbsenceAlertsSwitch } from './absence-alerts-switch';

/** The centre's settings with absence alerts `initial`; a change is answered by `put`. Records each change. */
function renderSwitch(initial: boolean, put: (body: { absence_alerts: boolean }) => FakeReply) {
  const puts: unknown[] = [];
  fakeApi({
    'GET /settings': () => [200, { absence_alerts: initial }],
    'PUT /settings': ({ body }) => {
      puts.push(body);
      return put(body as { absence_alerts: boolean });
    },
  });
  renderPage(<AbsenceAlertsSwitch />);
  return puts;
}

async function theSwitch() {
  const control = await screen.findByRole('switch', { name: new RegExp(ABSENCE_ALERTS_LABEL) });
  await waitFor(() => expect(control).toBeEnabled());
  return control;
}

afterEach(() => vi.restoreAllMocks());

describe('the absence alerts switch', () => {
  it('shows the setting and turns it off with a toast', async () => {
    const user = userEvent.setup({ delay: null });
    const puts = renderSwitch(true, (body) => [200, body]);
    const control = await theSwitch();
    expect(control).toBeChecked();
    await user.click(control);
    expect(await screen.findByText('Absence alerts turned off')).toBeInTheDocument();
    expect(puts).toEqual([{ absence_alerts: false }]);
    expect(control).not.toBeChecked();
  });

  it('turns it on with a toast', async () => {
    const user = userEvent.setup({ delay: null });
    const puts = renderSwitch(false, (body) => [200, body]);
    const control = await theSwitch();
    expect(control).not.toBeChecked();
    await user.click(control);
    expect(await screen.findByText('Absence alerts turned on')).toBeInTheDocument();
    expect(puts).toEqual([{ absence_alerts: true }]);
    expect(control).toBeChecked();
  });

  it('says why a change failed and goes back to the saved value', async () => {
    const user = userEvent.setup({ delay: null });
    renderSwitch(true, () => [500, {}]);
    const control = await theSwitch();
    await user.click(control);
    expect(await screen.findByText('Failed to update settings')).toBeInTheDocument();
    await waitFor(() => expect(control).toBeChecked());
  });

  it("shows the server's detail when it gives one", async () => {
    const user = userEvent.setup({ delay: null });
    renderSwitch(true, () => [403, { detail: 'Not enough permissions' }]);
    await user.click(await theSwitch());
    expect(await screen.findByText('Not enough permissions')).toBeInTheDocument();
  });
});
