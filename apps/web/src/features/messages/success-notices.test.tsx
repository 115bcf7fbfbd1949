/**
 * The server's success messages are English. A send's is worded by the console from the answer's
 * counts in every language (who each channel reached: ADR 044); the others are shown exactly as
 * written in English, and worded from the answer's fields in any other language (here Hindi).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MessageTemplate, SendToParentsResult, SendWhatsappResult } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n, type Language, type ParseKeys, showLanguage } from '../../i18n';
import { fakeApi, renderPage, student } from '../../testing';
import { SendMessageDialog } from './send-message-dialog';
import { TemplatesTab } from './templates-tab';
import { WhatsappMessageDialog } from './whatsapp-message-dialog';

afterEach(async () => {
  vi.restoreAllMocks();
  await showLanguage('en');
});

const text = (key: ParseKeys<'messages'>) => i18n.t(key, { ns: 'messages' });

async function send(answer: SendToParentsResult) {
  fakeApi({
    'GET /students/classes': () => [200, []],
    'GET /messages/family-count': () => [200, { recipients: 'all_parents', families: answer.recipients_count }],
    'GET /message-templates': () => [200, []],
    'POST /messages/send-to-parents': () => [200, answer],
  });
  renderPage(<SendMessageDialog open onClose={() => undefined} />);
  const dialog = await screen.findByRole('dialog');
  const user = userEvent.setup({ delay: null });
  await user.type(within(dialog).getByRole('textbox', { name: text('send.subject') }), 'Holiday');
  await user.type(within(dialog).getByRole('textbox', { name: text('send.message') }), 'Closed on Friday.');
  await user.click(within(dialog).getByRole('button', { name: text('send.title') }));
}

const SENT: SendToParentsResult = {
  message: 'Message sent to 3 parent(s)',
  recipients_count: 3,
  in_app_count: 1,
  whatsapp_count: 1,
  unreachable_count: 1,
  whatsapp_waiting: 2,
  notice:
    "2 WhatsApp messages are over WhatsApp's daily limit of 250 new conversations and will go as the limit allows. 1 family cannot be reached: no parent app notifications and no WhatsApp opt-in. They are on the call list.",
};

async function whatsapp(answer: SendWhatsappResult) {
  fakeApi({ 'POST /communications/send-whatsapp': () => [200, answer] });
  renderPage(
    <WhatsappMessageDialog student={student(1, { parent_whatsapp_opt_in: true })} onClose={() => undefined} />,
  );
  const dialog = await screen.findByRole('dialog');
  const user = userEvent.setup({ delay: null });
  await user.type(within(dialog).getByRole('textbox', { name: text('whatsapp.message') }), 'Fees are due.');
  await user.click(within(dialog).getByRole('button', { name: text('whatsapp.send') }));
}

const QUEUED: SendWhatsappResult = {
  message: 'WhatsApp message queued. Over the daily limit of 250 new conversations: it goes at 00:00.',
  id: 9,
  recipient: '+919800000001',
  delivery_status: 'queued',
  sent_as: 'template',
};
const DELIVERED: SendWhatsappResult = { ...QUEUED, message: 'WhatsApp message sent', delivery_status: 'sent' };

const HOLIDAY: MessageTemplate = {
  id: 3,
  name: 'Holiday notice',
  purpose: 'notice',
  subject: 'Holiday',
  texts: [{ language: 'en', body: 'The centre is closed on {date}.', whatsapp_template: null }],
  updated_by: null,
  updated_at: '2026-11-20T10:00:00+05:30',
};

async function deleteTemplate() {
  fakeApi({
    'GET /message-templates': () => [200, [HOLIDAY]],
    'DELETE /message-templates/3': () => [200, { message: 'Template "Holiday notice" deleted' }],
  });
  vi.spyOn(window, 'confirm').mockReturnValue(true);
  renderPage(<TemplatesTab canEdit />);
  const name = i18n.t('templates.deleteName', { ns: 'messages', name: HOLIDAY.name });
  await userEvent.setup({ delay: null }).click(await screen.findByRole('button', { name }));
}

describe.each<[Language, Record<string, string>]>([
  [
    'en',
    {
      sent: "Message sent to 2 of 3 families: 1 in the app, 1 on WhatsApp, 1 with no channel yet: they go on your send list. 2 WhatsApp messages are over WhatsApp's daily limit of new conversations and will go as the limit allows.",
      queued: QUEUED.message,
      delivered: 'WhatsApp message sent',
      deleted: 'Template "Holiday notice" deleted',
    },
  ],
  [
    'hi',
    {
      sent: 'संदेश 3 में से 2 परिवारों को भेजा गया: 1 ऐप में, 1 व्हाट्सऐप पर, 1 तक अभी कोई माध्यम नहीं पहुँचता: वे आपकी भेजने की सूची में जाते हैं। 2 व्हाट्सऐप संदेश नई बातचीत की व्हाट्सऐप की दैनिक सीमा से ऊपर हैं और सीमा के अनुसार भेजे जाएँगे।',
      queued: 'व्हाट्सऐप संदेश कतार में है: जैसे ही संभव होगा, भेज दिया जाएगा।',
      delivered: 'व्हाट्सऐप संदेश भेजा गया',
      deleted: 'टेम्पलेट "Holiday notice" हटाया गया',
    },
  ],
])('success notices in %s', (language, says) => {
  it('says who each channel reached, what waits and who goes on the send list', async () => {
    await showLanguage(language);
    await send(SENT);
    expect(await screen.findByText(says.sent as string)).toBeInTheDocument();
  });

  it('says a WhatsApp message was sent', async () => {
    await showLanguage(language);
    await whatsapp(DELIVERED);
    expect(await screen.findByText(says.delivered as string)).toBeInTheDocument();
  });

  it('says a WhatsApp message is queued: in English with the reason, otherwise that it will go when it can', async () => {
    await showLanguage(language);
    await whatsapp(QUEUED);
    expect(await screen.findByText(says.queued as string)).toBeInTheDocument();
  });

  it('says a template was deleted', async () => {
    await showLanguage(language);
    await deleteTemplate();
    expect(await screen.findByText(says.deleted as string)).toBeInTheDocument();
  });
});

describe('in Hindi, no server English', () => {
  it('shows none of the English message', async () => {
    await showLanguage('hi');
    await send({ ...SENT, in_app_count: 2, unreachable_count: 0, whatsapp_waiting: 0, notice: null });
    expect(await screen.findByText('संदेश 3 परिवारों को भेजा गया: 2 ऐप में, 1 व्हाट्सऐप पर।')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(/Message sent/)).not.toBeInTheDocument());
  });
});
