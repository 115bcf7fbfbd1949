import { afterEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../i18n';
import { PSEUDO_LOCALE_KEY } from '../i18n/pseudo-switch';
import { serverMessage } from './server-words';

afterEach(async () => {
  localStorage.removeItem(PSEUDO_LOCALE_KEY);
  await showLanguage('en');
});

describe('a success message from the server', () => {
  it("is shown in English exactly as the server wrote it, without calling the console's own wording", () => {
    let asked = false;
    const text = serverMessage('Message sent to 4 parent(s)', () => {
      asked = true;
      return 'own words';
    });
    expect(text).toBe('Message sent to 4 parent(s)');
    expect(asked).toBe(false);
  });

  it("is the console's own wording in any other language", async () => {
    await showLanguage('hi');
    expect(serverMessage('Message sent to 4 parent(s)', () => 'own words')).toBe('own words');
    await showLanguage('ur');
    expect(serverMessage('Message sent to 4 parent(s)', () => 'own words')).toBe('own words');
  });

  it("is the console's own wording in the pseudo-locale that stands in for English in browser tests", async () => {
    localStorage.setItem(PSEUDO_LOCALE_KEY, 'on');
    await showLanguage('en');
    expect(serverMessage('WhatsApp message sent', () => 'own words')).toBe('own words');
  });
});
