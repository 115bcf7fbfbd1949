import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../testing';
import { keptLanguage, showLanguage } from './i18n';
import { LanguagePanel } from './settings';

afterEach(async () => {
  vi.restoreAllMocks();
  await showLanguage('en');
  localStorage.clear();
});

describe("the family's language in the parent app's settings", () => {
  it('shows the language on record, each named in itself, keeps a new choice on the server and speaks it', async () => {
    const api = fakeApi({
      'GET /api/v1/parent/language': () => [200, { language: 'en' }],
      'PUT /api/v1/parent/language': ({ body }) => [200, body],
    });
    render(<LanguagePanel />);
    const select = screen.getByLabelText('The centre writes to your family in');
    await vi.waitFor(() => expect(select).toHaveValue('en'));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'English',
      'हिन्दी',
      'मराठी',
      'தமிழ்',
      'বাংলা',
      'اردو',
    ]);

    await userEvent.selectOptions(select, 'தமிழ்');
    // The app itself now speaks the family's language, and remembers it on this device.
    expect(await screen.findByText('சேமிக்கப்பட்டது. மையத்தின் புதிய செய்திகள் இந்த மொழியில் வரும்.')).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'ta');
    expect(keptLanguage()).toBe('ta');
    expect(select).toHaveValue('ta');
    expect(api.calls.find((call) => call.method === 'PUT')?.body).toEqual({ language: 'ta' });
  });

  it('puts the language back and says so when the change is refused', async () => {
    fakeApi({
      'GET /api/v1/parent/language': () => [200, { language: 'hi' }],
      'PUT /api/v1/parent/language': () => [503, { detail: 'The server is busy' }],
    });
    render(<LanguagePanel />);
    const select = screen.getByLabelText('The centre writes to your family in');
    await vi.waitFor(() => expect(select).toHaveValue('hi'));
    await userEvent.selectOptions(select, 'اردو');
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(select).toHaveValue('hi');
  });
});
