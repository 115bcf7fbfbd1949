import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../../i18n';
import { fakeApi, renderPage, student } from '../../testing';
import { WhatsappMessageDialog } from './whatsapp-message-dialog';

const ravi = student(1, { full_name: 'Ravi Kumar', parent_name: 'Sunil Kumar', parent_phone: '+919812345670' });

describe('Message on WhatsApp: who it goes to', () => {
  afterEach(async () => {
    await showLanguage('en');
  });

  it('names the parent, the phone and the student in the sentence', () => {
    fakeApi({});
    renderPage(<WhatsappMessageDialog student={ravi} onClose={() => undefined} />);
    expect(screen.getByRole('dialog')).toHaveTextContent('To Sunil Kumar (+919812345670), about Ravi Kumar');
  });

  it('in Urdu, keeps the phone left to right and each name isolated inside the sentence (ADR 048)', async () => {
    await showLanguage('ur');
    fakeApi({});
    renderPage(<WhatsappMessageDialog student={ravi} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog');
    const phone = within(dialog).getByText('+919812345670');
    expect(phone.tagName).toBe('BDI');
    expect(phone).toHaveAttribute('dir', 'ltr');
    for (const name of ['Sunil Kumar', 'Ravi Kumar']) expect(within(dialog).getByText(name).tagName).toBe('BDI');
    // The sentence around them is the Urdu catalogue's, with nothing left of the stand-ins.
    expect(phone.parentElement?.textContent).not.toMatch(/[\uE000-\uE0FF]/);
    expect(phone.parentElement?.textContent).toMatch(/[\u0600-\u06FF]/);
  });
});
