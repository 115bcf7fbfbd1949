// The send list (issue 28, item 4; ADR 044): a message to families no channel reaches says so before
// and after sending, and lands on the send list with the text to send by hand on WhatsApp or by SMS
// from the staff member's own phone, then ticked "sent by hand"; Message History then shows the send as
// one row with its families counted (ADR 049), opening to the families beneath it. At 1280 and 390 px,
// axe clean, and in Urdu (right to left).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/kit/server';
import { ADMIN, api, expectAccessible, newPage, signIn, uniquePhone, useBrowser } from './support/browser';

const { browser } = useBrowser();
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const urdu = JSON.parse(readFileSync(path.join(ROOT, 'apps/web/src/i18n/locales/ur/messages.json'), 'utf8')) as {
  sendList: { whatsapp: string; sms: string; markSent: string };
  groups: { show_other: string };
};

interface FamilyCount {
  families: number;
  in_app: number;
  whatsapp: number;
  no_channel: number;
}
interface MessageGroup {
  send_id: number | null;
  subject: string;
  families: number;
  delivered: number;
  read: number;
  sent_by_hand: number;
  waiting: number;
  not_reached: number;
}
interface ListItem {
  message_id: number;
  phone: string;
  recipient_name: string | null;
  subject: string;
  text: string;
  whatsapp_link: string;
  sms_link: string;
}

const tag = `${process.pid % 100000}`;

/** Signed in as the admin, with room for a loaded machine (45 s a step). */
async function signedInPage(viewport: { width: number; height: number }) {
  const opened = await newPage(browser(), viewport);
  opened.page.setDefaultTimeout(45_000);
  await signIn(opened.page, ADMIN.username, ADMIN.password);
  return opened;
}

async function family(name: string): Promise<string> {
  const phone = uniquePhone();
  await api('/students/', {
    json: { full_name: `${name} Child ${tag}`, class_name: '9', parent_name: `${name} ${tag}`, parent_phone: phone },
  });
  return phone;
}

function channelsText(count: FamilyCount): string {
  const families = count.families === 1 ? '1 family' : `${count.families} families`;
  const channels = `${count.in_app} in the app, ${count.whatsapp} on WhatsApp`;
  return count.no_channel > 0
    ? `Goes to ${families}: ${channels}, ${count.no_channel} with no channel yet: they go on your send list`
    : `Goes to ${families}: ${channels}`;
}

/** The history's words for a send, from the grouped answer: "Sent to 3: 1 sent by hand, 2 not reached". */
function groupText(group: MessageGroup): string {
  const parts = [
    [group.delivered, 'delivered'],
    [group.read, 'read'],
    [group.sent_by_hand, 'sent by hand'],
    [group.waiting, 'waiting'],
    [group.not_reached, 'not reached'],
  ]
    .filter(([count]) => (count as number) > 0)
    .map(([count, words]) => `${count} ${words}`);
  return `Sent to ${group.families}: ${parts.join(', ')}`;
}

async function groupOf(subject: string): Promise<MessageGroup> {
  const groups = await api<MessageGroup[]>('/communications/history/grouped?limit=100');
  return groups.find((group) => group.subject === subject) as MessageGroup;
}

/** The family's row beneath an opened send says it was sent by hand. */
const SENT_BY_HAND = /^Sent by hand by .+, \d{1,2} \w{3} \d{4}, \d\d:\d\d$/;

describe('the send list', () => {
  it('says who each channel reaches, sends, lists the families nothing reached with their links, and ticks one sent by hand', async () => {
    const first = await family('Sunita Hand');
    const second = await family('Farida Hand');
    const subject = `Fees reminder ${tag}`;
    const preview = await api<FamilyCount>('/messages/family-count?recipients=9');
    expect(preview.no_channel).toBeGreaterThanOrEqual(2);

    const { context, page } = await signedInPage(WIDE);
    try {
      await page.goto('/communications');
      await page.getByRole('button', { name: 'Send Message' }).click();
      const dialog = page.getByRole('dialog', { name: 'Send Message' });
      await dialog.getByRole('combobox', { name: 'Recipients' }).click();
      await page.getByRole('option', { name: 'Class 9' }).click();
      await dialog.getByText(channelsText(preview), { exact: true }).waitFor();
      await expectAccessible(page);
      await dialog.getByRole('textbox', { name: 'Subject' }).fill(subject);
      await dialog.getByRole('textbox', { name: 'Message', exact: true }).fill('Please pay the term fees by Friday.');
      await dialog.getByRole('button', { name: 'Send Message' }).click();
      // Never "sent" of the families no channel took: they are said to be on the send list.
      const reached = preview.in_app + preview.whatsapp;
      await page
        .getByText(
          reached === 0
            ? `No channel reaches these ${preview.families} families yet: they go on your send list.`
            : `Message sent to ${reached} of ${preview.families} families:`,
          { exact: reached === 0 },
        )
        .first()
        .waitFor();

      await page.goto('/communications?tab=call-list');
      const list = page.getByRole('list', { name: 'Call list' });
      await list.waitFor();
      const items = (await api<{ items: ListItem[] }>('/communications/call-list')).items;
      const mine = items.find((item) => item.phone === first && item.subject === subject) as ListItem;
      expect(mine.text).toMatch(new RegExp(`: ${subject}\\n\\nPlease pay the term fees by Friday\\.$`));
      const name = `Sunita Hand ${tag}`;
      const whatsapp = page.getByRole('link', { name: `Send on WhatsApp to ${name}` }).first();
      const digits = first.replace(/\D/g, '');
      expect(await whatsapp.getAttribute('href')).toBe(`https://wa.me/${digits}?text=${encodeURIComponent(mine.text)}`);
      expect(
        await page
          .getByRole('link', { name: `Send an SMS to ${name}` })
          .first()
          .getAttribute('href'),
      ).toBe(`sms:+${digits}?&body=${encodeURIComponent(mine.text)}`);
      await expectAccessible(page);
      await page
        .getByRole('button', { name: `Mark as sent by hand to ${name}` })
        .first()
        .click();
      await page.getByText('Sent by hand by', { exact: false }).first().waitFor();
      const after = (
        await api<{ items: (ListItem & { sent_by_hand_at: string | null })[] }>('/communications/call-list')
      ).items;
      expect(after.find((item) => item.message_id === mine.message_id)?.sent_by_hand_at).not.toBeNull();

      // Message History: the send is one row, its families counted by where it stands with each, and
      // opens to the families beneath it (Sunita's sent by hand).
      const group = await groupOf(subject);
      expect(group.sent_by_hand).toBe(1);
      expect(group.families).toBe(preview.families);
      await page.goto('/communications');
      const history = page.getByRole('table', { name: 'Message history' });
      const row = history.getByRole('row').filter({ hasText: subject });
      await row.getByText(groupText(group), { exact: true }).waitFor();
      await row.getByRole('button', { name: `Show the ${group.families} families` }).click();
      const families = page.getByRole('table', { name: `Families: ${subject}` });
      const sunita = families.getByRole('row').filter({ hasText: `Sunita Hand ${tag}` });
      await sunita.getByText(SENT_BY_HAND).waitFor();
      expect(await families.getByRole('row').count()).toBe(group.families + 1);
      await expectAccessible(page);
    } finally {
      await context.close();
    }

    // On a phone: the same actions, one tap each, axe clean.
    const phone = await signedInPage(PHONE);
    try {
      await phone.page.goto('/communications?tab=call-list');
      const name = `Farida Hand ${tag}`;
      const link = phone.page.getByRole('link', { name: `Send on WhatsApp to ${name}` }).first();
      await link.waitFor();
      expect(await link.getAttribute('href')).toMatch(
        new RegExp(`^https://wa\\.me/${second.replace(/\D/g, '')}\\?text=`),
      );
      await expectAccessible(phone.page);

      // The history on a phone: a card the send, its families as cards beneath it.
      await phone.page.goto('/communications');
      const card = phone.page
        .getByRole('list', { name: 'Message history' })
        .getByRole('listitem', { name: subject, exact: true });
      const group = await groupOf(subject);
      await card.getByText(groupText(group), { exact: true }).waitFor();
      await card.getByRole('button', { name: `Show the ${group.families} families` }).click();
      const families = card.getByRole('list', { name: `Families: ${subject}` });
      await families
        .getByRole('listitem', { name: `Sunita Hand ${tag}` })
        .getByText(SENT_BY_HAND)
        .waitFor();
      expect(await families.getByRole('listitem').count()).toBe(group.families);
      // Nothing is wider than the phone.
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectAccessible(phone.page);
    } finally {
      await phone.context.close();
    }
  }, 300_000);

  it('in Urdu, right to left, the actions in Urdu', async () => {
    await family('Zainab Hand');
    await api('/messages/send-to-parents', {
      json: { subject: `Holiday ${tag}`, message: 'Closed on Friday.', recipients: '9' },
    });
    await api('/auth/me/language', { method: 'PUT', json: { language: 'ur' } });
    try {
      for (const viewport of [WIDE, PHONE]) {
        const { context, page } = await signedInPage(viewport);
        try {
          await page.goto('/communications?tab=call-list');
          await page
            .getByRole('link', { name: new RegExp(urdu.sendList.whatsapp) })
            .first()
            .waitFor();
          expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
          await page
            .getByRole('link', { name: new RegExp(urdu.sendList.sms) })
            .first()
            .waitFor();
          await expectAccessible(page);

          // Message History in Urdu: the send's row (or card) opens to its families, right to left.
          const group = await groupOf(`Holiday ${tag}`);
          await page.goto('/communications');
          // Its row on a wide screen, its card on a phone.
          const send = page
            .locator('tr, li')
            .filter({ hasText: `Holiday ${tag}` })
            .first();
          const show = urdu.groups.show_other.replace('{{count}}', String(group.families));
          await send.getByRole('button', { name: show }).click();
          await page.getByText(`Zainab Hand ${tag}`).first().waitFor();
          await expectAccessible(page);
        } finally {
          await context.close();
        }
      }
    } finally {
      await api('/auth/me/language', { method: 'PUT', json: { language: 'en' } });
    }
  }, 300_000);
});
