import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../testing';
import { FeesTab } from './fees-tab';

afterEach(() => {
  vi.restoreAllMocks();
  vi.doUnmock('./fees');
});

const fees = {
  family_id: 7,
  balance_paise: 0,
  students: [],
  entries: [],
  earlier_entries: 0,
  receipts: [],
  online_payment: false,
  can_pay_online: false,
  pay: null,
};

describe('the Fees tab', () => {
  it('says so, with Retry, when the screen cannot be fetched, and shows it once it can', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fakeApi({ 'GET /api/v1/parent/fees': () => [200, fees] });
    vi.doMock('./fees', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    render(<FeesTab />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load fees.');
    vi.doUnmock('./fees');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Nothing to pay')).toBeInTheDocument();
  });
});
