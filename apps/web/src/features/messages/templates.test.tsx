import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MessageTemplate, MessagingSettings } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage } from '../../testing';
import CommunicationsPage from './communications-page';

afterEach(() => vi.restoreAllMocks());

const ABSENCE: MessageTemplate = {
  id: 1,
  name: 'Absence alert',
  purpose: 'absence_alert',
  subject: 'Absence alert',
  texts: [
    {
      language: 'en',
      body: '{student_name} was marked {status} on {date}.',
      whatsapp_template: 'tuitiondesk_absence_alert',
    },
  ],
  updated_by: null,
  updated_at: '2026-11-20T10:00:00+05:30',
};
const HOLIDAY: MessageTemplate = {
  id: 3,
  name: 'Holiday notice',
  purpose: 'notice',
  subject: 'Holiday',
  texts: [
    { language: 'en', body: 'The centre is closed on {date} for {class}.', whatsapp_template: null },
    { language: 'hi', body: '{class} के लिए केंद्र {date} को बंद रहेगा।', whatsapp_template: null },
  ],
  updated_by: 'Centre Admin',
  updated_at: '2026-11-20T10:00:00+05:30',
};
const SETTINGS: MessagingSettings = {
  centre_name: 'Bright Minds Tuition',
  whatsapp_fallback_minutes: 10,
  not_reached_minutes: 30,
  whatsapp_notice_template: 'tuitiondesk_notice',
  whatsapp: { configured: true, daily_limit: 250, used_today: 12 },
};

function serve(extra: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /communications/history/grouped': () => [200, []],
    'GET /message-templates': () => [200, [ABSENCE, HOLIDAY]],
    'GET /settings/messaging': () => [200, SETTINGS],
    'GET /students/classes': () => [200, [{ value: '8', label: 'Class 8' }]],
    ...extra,
  });
}

describe('the Templates tab', () => {
  it('lists the templates; a teacher reads them but cannot change them', async () => {
    serve();
    renderPage(<CommunicationsPage />, { path: '/communications?tab=templates', signedInAs: 'teacher' });
    const table = await screen.findByRole('table', { name: 'Message templates' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      within(rows[0] as HTMLElement).getByText('Absence alert', { selector: 'td:nth-child(2)' }),
    ).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText('tuitiondesk_absence_alert')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('English, हिन्दी (Hindi)')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('None: not sent on WhatsApp')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Template' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit / })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Message settings' })).not.toBeInTheDocument();
  });

  it('lets an admin add a notice template with a placeholder and a preview, and shows the server’s refusal on the form', async () => {
    const user = userEvent.setup({ delay: null });
    const saved: unknown[] = [];
    let answer: [number, unknown] = [409, { detail: 'A template named "Fees" already exists' }];
    serve({
      'POST /message-templates': ({ body }) => {
        saved.push(body);
        return answer;
      },
    });
    renderPage(<CommunicationsPage />, { path: '/communications?tab=templates', signedInAs: 'admin' });
    await user.click(await screen.findByRole('button', { name: 'Add Template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Template' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Fees');
    await user.type(within(dialog).getByRole('textbox', { name: /^Subject/ }), 'Fees due');
    await user.type(within(dialog).getByRole('textbox', { name: /^Text \(English\)/ }), 'Fees for');
    await user.click(within(dialog).getByRole('button', { name: '{class}' }));
    expect(within(dialog).getByText('Preview: Fees for Class 8')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('A template named "Fees" already exists')).toBeInTheDocument();
    answer = [201, { ...HOLIDAY, id: 4, name: 'Fees' }];
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(saved.at(-1)).toEqual({
      name: 'Fees',
      purpose: 'notice',
      subject: 'Fees due',
      texts: [{ language: 'en', body: 'Fees for {class}', whatsapp_template: null }],
    });
  });
});

describe('sending from a template', () => {
  it('fills Subject and Message from the English text and sends the template with the message', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: unknown[] = [];
    serve({
      'POST /messages/send-to-parents': ({ body }) => {
        sent.push(body);
        return [
          200,
          {
            message: 'Message sent to 2 parent(s)',
            recipients_count: 2,
            in_app_count: 1,
            whatsapp_count: 0,
            unreachable_count: 1,
            whatsapp_waiting: 0,
            notice:
              '1 family cannot be reached: no parent app notifications and no WhatsApp opt-in. They are on the call list.',
          },
        ];
      },
    });
    renderPage(<CommunicationsPage />, { signedInAs: 'teacher' });
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send Message' });
    expect(
      await within(dialog).findByText(/families without the app who agreed to WhatsApp get it on WhatsApp/),
    ).toBeInTheDocument();
    await user.click(await within(dialog).findByRole('combobox', { name: 'Start from a template' }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Holiday notice' }));
    expect(within(dialog).getByRole('textbox', { name: 'Subject' })).toHaveValue('Holiday');
    expect((within(dialog).getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toMatch(
      /^The centre is closed on \d{1,2} \w{3} \d{4} for All classes\.$/,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Send Message' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ subject: 'Holiday', recipients: 'all_parents', template_id: 3 });
    expect(
      await screen.findByText(
        'Message sent to 1 of 2 families: 1 in the app, 0 on WhatsApp, 1 with no channel yet: they go on your send list.',
      ),
    ).toBeInTheDocument();
  });
});

describe('Message settings', () => {
  it('shows where WhatsApp stands and saves the times and the centre name', async () => {
    const user = userEvent.setup({ delay: null });
    const saved: unknown[] = [];
    serve({
      'PUT /settings/messaging': ({ body }) => {
        saved.push(body);
        return [200, { ...SETTINGS, ...(body as object) }];
      },
    });
    renderPage(<CommunicationsPage />, { signedInAs: 'admin' });
    const open = await screen.findByRole('button', { name: 'Message settings' });
    await waitFor(() => expect(open).toBeEnabled());
    await user.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Message settings' });
    expect(
      within(dialog).getByText('WhatsApp is on: 12 of 250 new conversations used in the last 24 hours.'),
    ).toBeInTheDocument();
    const fallback = within(dialog).getByRole('spinbutton', {
      name: /Send on WhatsApp when the app has not confirmed/,
    });
    await user.clear(fallback);
    await user.type(fallback, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(saved).toEqual([
      {
        centre_name: 'Bright Minds Tuition',
        whatsapp_fallback_minutes: 0,
        not_reached_minutes: 30,
        whatsapp_notice_template: 'tuitiondesk_notice',
      },
    ]);
  });
});
