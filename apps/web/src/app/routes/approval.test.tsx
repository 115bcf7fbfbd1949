import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { todayIso } from '../../lib/dates';
import { fakeApi, record, renderPage } from '../../testing';
import ApprovalRoute from './approval';

afterEach(() => vi.restoreAllMocks());

describe('the Attendance Approval route', { timeout: 30_000 }, () => {
  it('has the absence alerts switch, bound to the centre settings', async () => {
    let alerts = true;
    const api = fakeApi({
      'GET /attendance/pending-approval': () => [200, [record({ id: 1, date: todayIso(), status: 'absent' })]],
      'GET /settings': () => [200, { absence_alerts: alerts }],
      'PUT /settings': ({ body }) => {
        alerts = (body as { absence_alerts: boolean }).absence_alerts;
        return [200, { absence_alerts: alerts }];
      },
    });
    const user = userEvent.setup();
    renderPage(<ApprovalRoute />);
    expect(await screen.findByText('1 Pending')).toBeInTheDocument();
    const toggle = await screen.findByRole('switch', {
      name: 'Send absence alerts to parents when approving absent or late',
    });
    await waitFor(() => expect(toggle).toBeChecked());
    await user.click(toggle);
    expect(await screen.findByText('Absence alerts turned off')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ absence_alerts: false });
    expect(toggle).not.toBeChecked();
  });
});
