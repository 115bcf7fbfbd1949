import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../testing';
import { SignIn } from './sign-in';

afterEach(() => vi.restoreAllMocks());

const YOUR_NUMBER =
  'Enter your phone number with 10 digits (this one has 9), or with its country code, e.g. +91 98123 45670';

describe('the parent sign-in', () => {
  it('sends the number as the parent typed it: the centre reads it with its country code', async () => {
    const api = fakeApi({
      'POST /api/v1/parent/login': () => [401, { detail: 'Phone number or access code is incorrect' }],
    });
    render(<SignIn onSignedIn={() => {}} />);
    await userEvent.type(screen.getByLabelText('Phone number'), '98123 45670');
    await userEvent.type(screen.getByLabelText('Access code'), 'ABCD-2345');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Phone number or access code is incorrect');
    expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({ phone: '98123 45670', code: 'ABCD-2345' });
    // A wrong code is not about the number: the phone field stays as it was.
    expect(screen.getByLabelText('Phone number')).not.toHaveAttribute('aria-invalid');
  });

  it("shows the centre's name and logo, not the product's, once the centre answers", async () => {
    fakeApi({ 'GET /api/v1/centre': () => [200, { name: 'Bright Minds', logo_url: '/api/v1/centre/logo?v=abc' }] });
    const { container } = render(<SignIn onSignedIn={() => {}} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Bright Minds' })).toBeInTheDocument();
    expect(container.querySelector('.signin-brand img')).toHaveAttribute('src', '/api/v1/centre/logo?v=abc');
  });

  it('says what to fix in the number under the phone field, and stops saying it once the parent edits it', async () => {
    fakeApi({ 'POST /api/v1/parent/login': () => [422, { detail: `phone: ${YOUR_NUMBER}` }] });
    render(<SignIn onSignedIn={() => {}} />);
    const phone = screen.getByLabelText('Phone number');
    await userEvent.type(phone, '98123 4567');
    await userEvent.type(screen.getByLabelText('Access code'), 'ABCD-2345');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(YOUR_NUMBER);
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone).toHaveAccessibleDescription(`${YOUR_NUMBER} The number the centre has for you, e.g. 98123 45670.`);
    // Not the field name, and nothing above the form.
    expect(screen.queryByText(/phone:/)).not.toBeInTheDocument();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    await userEvent.type(phone, '0');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(phone).not.toHaveAttribute('aria-invalid');
  });
});
