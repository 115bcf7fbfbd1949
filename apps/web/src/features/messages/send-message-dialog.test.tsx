import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FamilyCount } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n, showLanguage } from '../../i18n';
import { fakeApi, renderPage } from '../../testing';
import { familyCountText, SendMessageDialog } from './send-message-dialog';

afterEach(async () => {
  vi.restoreAllMocks();
  await showLanguage('en');
});

const CLASSES = [
  { value: '7', label: 'Class 7' },
  { value: '8', label: 'Class 8' },
];
/** Families per recipients choice, as the server would count them. */
const FAMILIES: Record<string, { families: number; in_app: number; whatsapp: number; no_channel: number }> = {
  all_parents: { families: 42, in_app: 12, whatsapp: 0, no_channel: 30 },
  '7': { families: 1, in_app: 1, whatsapp: 0, no_channel: 0 },
  '8': { families: 0, in_app: 0, whatsapp: 0, no_channel: 0 },
};
const ALL = 'Goes to 42 families: 12 in the app, 0 on WhatsApp, 30 with no channel yet: they go on your send list';

function renderDialog() {
  const api = fakeApi({
    'GET /students/classes': () => [200, CLASSES],
    'GET /messages/family-count': ({ url }) => {
      const recipients = url.searchParams.get('recipients') ?? '';
      return [200, { recipients, ...FAMILIES[recipients] }];
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

describe('Send Message dialog: to whom, before sending', () => {
  it('says how many families the chosen recipients are and who each channel reaches, updating as they change', async () => {
    const api = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Send Message' });
    expect(await within(dialog).findByText(ALL)).toBeInTheDocument();
    const recipients = within(dialog).getByRole('combobox', { name: 'Recipients' });
    expect(recipients).toHaveAccessibleDescription(ALL);

    const user = userEvent.setup();
    await user.click(recipients);
    await user.click(await screen.findByRole('option', { name: 'Class 7' }));
    expect(await within(dialog).findByText('Goes to 1 family: 1 in the app, 0 on WhatsApp')).toBeInTheDocument();
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

  it('words the count for one family, many, and none; a server of the spec without channels, by the count', () => {
    const t = i18n.getFixedT('en', 'messages');
    const count = (families: number, channels = {}) => ({ recipients: '7', families, ...channels }) as FamilyCount;
    expect(familyCountText(t, count(1, { in_app: 0, whatsapp: 1, no_channel: 0 }), 'all_parents')).toBe(
      'Goes to 1 family: 0 in the app, 1 on WhatsApp',
    );
    expect(familyCountText(t, count(42, FAMILIES.all_parents), '7')).toBe(ALL);
    expect(familyCountText(t, count(0, FAMILIES['8']), 'all_parents')).toBe(
      'No families to send to: there are no current students',
    );
    expect(familyCountText(t, count(42) as never, '7')).toBe('Goes to 42 families');
  });

  it('in Urdu, says the channels in Urdu', async () => {
    await showLanguage('ur');
    const t = i18n.getFixedT('ur', 'messages');
    expect(
      familyCountText(t, { recipients: '7', ...(FAMILIES.all_parents as Omit<FamilyCount, 'recipients'>) }, '7'),
    ).toBe(
      '42 خاندانوں کو جائے گا: 12 ایپ میں، 0 واٹس ایپ پر، 30 تک ابھی کوئی ذریعہ نہیں پہنچتا: وہ آپ کی بھیجنے کی فہرست میں جاتے ہیں',
    );
  });
});
