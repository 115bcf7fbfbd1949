import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage } from '../../testing';
import { AUDIT_RETENTION_LABEL, AuditRetentionSetting } from './audit-retention-setting';

afterEach(() => vi.restoreAllMocks());

describe('the audit retention setting', () => {
  it('shows the months kept, refuses a bad number locally, and saves a good one', async () => {
    const user = userEvent.setup();
    const puts: unknown[] = [];
    fakeApi({
      'GET /settings/audit': () => [200, { audit_retention_months: 36 }],
      'PUT /settings/audit': ({ body }) => {
        puts.push(body);
        return [200, body];
      },
    });
    renderPage(<AuditRetentionSetting />);
    const field = await screen.findByRole('textbox', { name: AUDIT_RETENTION_LABEL });
    await waitFor(() => expect(field).toHaveValue('36'));
    await user.clear(field);
    await user.type(field, '0');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Enter a whole number of months from 1 to 120')).toBeInTheDocument();
    expect(puts).toEqual([]);
    await user.clear(field);
    await user.type(field, '24');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Audit entries are kept for 24 months')).toBeInTheDocument();
    expect(puts).toEqual([{ audit_retention_months: 24 }]);
  });

  it("shows the server's refusal", async () => {
    const user = userEvent.setup();
    fakeApi({
      'GET /settings/audit': () => [200, { audit_retention_months: 36 }],
      'PUT /settings/audit': () => [422, { detail: 'audit_retention_months: must be at most 120 (10 years)' }],
    });
    renderPage(<AuditRetentionSetting />);
    const field = await screen.findByRole('textbox', { name: AUDIT_RETENTION_LABEL });
    await waitFor(() => expect(field).toHaveValue('36'));
    await user.clear(field);
    await user.type(field, '48');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('audit_retention_months: must be at most 120 (10 years)')).toBeInTheDocument();
  });
});
