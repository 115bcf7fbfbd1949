import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { fakeApi, renderPage } from '../../testing';
import { familyCountText, SendMessageDialog } from './send-message-dialog';

afterEach(() => vi.restoreAllMocks());

const CLASSES = [
  { value: '7', label: 'Class 7' },
  { value: '8', label: 'Class 8' },
];
/** Families per recipients choice, as the server would count them. */
const FAMILIES: Record<string, number> = { all_parents: 42, '7': 1, '8': 0 };

function renderDialog() {
  const api = fakeApi({
    'GET /students/classes': () => [200, CLASSES],
    'GET /messages/family-count': ({ url }) => {
      const recipients = url.searchParams.get('recipients') ?? '';
      return [200, { recipients, families: FAMILIES[recipients] }];
    },
    'POST /messages/send-to-parents': () => [
      200,
      {
        message: 'Message sent to 42 parent(s)',
        recipients_count: 42,
        in_app_count: 42,
        whatsapp_count: 0,
        unreachable_count: 0,
        whatsapp_waiting: 0,
        notice: null,
      },
    ],
  });
  renderPage(<SendMessageDialog open onClose={() => undefined} />);
  return api;
}

describe('Send Message dialog: to whom, before sending', { timeout: 20_000 }, () => {
  it('says how many families the chosen recipients are, updating as they change', async () => {
    const api = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Send Message' });
    expect(await within(dialog).findByText('Goes to 42 families')).toBeInTheDocument();
    const recipients = within(dialog).getByRole('combobox', { name: 'Recipients' });
    expect(recipients).toHaveAccessibleDescription('Goes to 42 families');

    const user = userEvent.setup();
    await user.click(recipients);
    await user.click(await screen.findByRole('option', { name: 'Class 7' }));
    expect(await within(dialog).findByText('Goes to 1 family')).toBeInTheDocument();
    await user.click(recipients);
    await user.click(await screen.findByRole('option', { name: 'Class 8' }));
    expect(
      await within(dialog).findByText('No families to send to: Class 8 has no current students'),
    ).toBeInTheDocument();
    const asked = api.calls
      .filter((call) => call.path === '/messages/family-count')
      .map((call) => call.url.searchParams.get('recipients'));
    expect(asked).toEqual(['all_parents', '7', '8']);
  });

  it('puts the first focus on Recipients, not on the fixed Message Type', async () => {
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Send Message' });
    expect(within(dialog).getByRole('combobox', { name: 'Recipients' })).toHaveFocus();
    await userEvent.setup().tab();
    expect(within(dialog).getByRole('textbox', { name: 'Subject' })).toHaveFocus();
  });

  it('words the count for one family, many, and none', () => {
    const t = i18n.getFixedT('en', 'messages');
    expect(familyCountText(t, 1, 'all_parents')).toBe('Goes to 1 family');
    expect(familyCountText(t, 42, '7')).toBe('Goes to 42 families');
    expect(familyCountText(t, 0, 'all_parents')).toBe('No families to send to: there are no current students');
  });
});
