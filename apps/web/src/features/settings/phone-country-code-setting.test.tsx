import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage } from '../../testing';
import { COUNTRY_CODE_LABEL, PhoneCountryCodeSetting } from './phone-country-code-setting';

afterEach(() => vi.restoreAllMocks());

const CODE_PROBLEM = 'Enter + and the 1 to 3 digits of a country calling code, e.g. +91 for India or +44 for the UK';

describe('the default country code setting', () => {
  it('shows the code, refuses one that cannot be a calling code on the field, and saves a good one', async () => {
    const user = userEvent.setup();
    const puts: unknown[] = [];
    fakeApi({
      'GET /settings/phones': () => [200, { default_country_code: '+91' }],
      'PUT /settings/phones': ({ body }) => {
        puts.push(body);
        return [200, { default_country_code: '+971' }];
      },
    });
    renderPage(<PhoneCountryCodeSetting />);
    const field = await screen.findByRole('textbox', { name: COUNTRY_CODE_LABEL });
    await waitFor(() => expect(field).toHaveValue('+91'));
    expect(field).toHaveAccessibleDescription('Added to phone numbers typed or imported without one');
    await user.clear(field);
    await user.type(field, '+9715');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(field).toHaveAccessibleDescription(CODE_PROBLEM);
    expect(field).toBeInvalid();
    expect(puts).toEqual([]);
    await user.clear(field);
    await user.type(field, '971');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Phone numbers written without a country code now take +971')).toBeInTheDocument();
    expect(puts).toEqual([{ default_country_code: '971' }]);
    await waitFor(() => expect(field).toHaveValue('+971'));
  });

  it("shows the server's refusal on the field, without the field's name", async () => {
    const user = userEvent.setup();
    const words = 'must be + and the 1 to 3 digits of a country calling code, e.g. +91 for India or +44 for the UK';
    fakeApi({
      'GET /settings/phones': () => [200, { default_country_code: '+91' }],
      'PUT /settings/phones': () => [422, { detail: `default_country_code: ${words}` }],
    });
    renderPage(<PhoneCountryCodeSetting />);
    const field = await screen.findByRole('textbox', { name: COUNTRY_CODE_LABEL });
    await waitFor(() => expect(field).toHaveValue('+91'));
    await user.clear(field);
    await user.type(field, '+44');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(`M${words.slice(1)}`));
  });
});
