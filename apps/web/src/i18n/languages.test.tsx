import { screen } from '@testing-library/react';
import dayjs from 'dayjs';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import LoginPage from '../features/auth/login-page';
import DashboardPage from '../features/dashboard/dashboard-page';
import { formatClock, formatDay, formatNumber } from '../lib/dates';
import { dashboardSummary, fakeApi, renderPage } from '../testing';
import { ENGLISH, i18n, NAMESPACES, resolveLanguage, showLanguage } from '.';
import { dayjsLocale } from './date-locales';
import { PSEUDO_LANGUAGE, pseudoText } from './pseudo';
import { PSEUDO_LOCALE_KEY } from './pseudo-switch';

afterEach(async () => {
  await showLanguage('en');
});

function renderLogin() {
  renderPage(
    <Routes>
      <Route path="/login" element={<LoginPage />} />
    </Routes>,
    { path: '/login', signedInAs: null },
  );
}

describe('which language', () => {
  it("takes the account's choice, else the first browser language spoken here, else English", () => {
    expect(resolveLanguage('ta', ['hi-IN', 'en'])).toBe('ta');
    expect(resolveLanguage(null, ['fr-FR', 'hi-IN', 'en'])).toBe('hi');
    expect(resolveLanguage(undefined, ['ur'])).toBe('ur');
    expect(resolveLanguage('xx', ['fr', 'de'])).toBe('en');
    expect(resolveLanguage(null, [])).toBe('en');
  });
});

describe('the sign-in page', { timeout: 20_000 }, () => {
  it('speaks Hindi, with <html lang="hi"> left to right', async () => {
    await showLanguage('hi');
    renderLogin();
    expect(screen.getByText('स्टाफ़ कंसोल में साइन इन करें')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'यूज़रनेम' })).toBeInTheDocument();
    expect(screen.getByLabelText(/पासवर्ड/, { selector: 'input' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'साइन इन करें' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'पासवर्ड बदलें' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'hi');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });

  it('speaks Urdu, right to left: <html lang="ur" dir="rtl">', async () => {
    await showLanguage('ur');
    renderLogin();
    expect(screen.getByText('اسٹاف کنسول میں سائن ان کریں')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'سائن ان کریں' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'ur');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });

  it('goes back to English exactly as before', async () => {
    await showLanguage('ur');
    await showLanguage('en');
    renderLogin();
    expect(screen.getByText('Sign in to the staff console')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });
});

/** Every text on the page that has words, and every accessible name given as an attribute. */
function shownTexts(): string[] {
  const texts: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim() ?? '';
    if (/\p{L}{2}/u.test(text)) texts.push(text);
  }
  for (const element of document.body.querySelectorAll('[aria-label]')) {
    texts.push(element.getAttribute('aria-label') ?? '');
  }
  return texts;
}

describe(`the pseudo-locale ${PSEUDO_LANGUAGE}`, { timeout: 20_000 }, () => {
  it('accents and lengthens a text, keeping its placeholders', () => {
    expect(pseudoText('Sign In')).toBe('⟦Šíĝñ Íñ···⟧');
    expect(pseudoText('Class {{name}}')).toBe('⟦Çĺášš {{name}}··⟧');
  });

  /** As a browser test turns it on: the switch in local storage, then English is shown as the pseudo-locale. */
  async function showPseudo() {
    localStorage.setItem(PSEUDO_LOCALE_KEY, 'on');
    try {
      await showLanguage('en');
    } finally {
      localStorage.removeItem(PSEUDO_LOCALE_KEY);
    }
  }

  it('stands in for English only while its switch is on, with every namespace made from English', async () => {
    await showPseudo();
    expect(i18n.language).toBe(PSEUDO_LANGUAGE);
    for (const namespace of NAMESPACES)
      expect(i18n.hasResourceBundle(PSEUDO_LANGUAGE, namespace), namespace).toBe(true);
    expect(i18n.t('common:retry')).toBe(pseudoText(ENGLISH.common.retry));
    // The page is English in every other way: its lang, its direction, its dates.
    expect(document.documentElement.lang).toBe('en');
    await showLanguage('en');
    expect(i18n.language).toBe('en');
  });

  it('leaves no text of the sign-in page untranslated', async () => {
    await showPseudo();
    renderLogin();
    await screen.findByRole('button', { name: /Šíĝñ Íñ/ });
    expect(shownTexts().filter((text) => !text.includes('⟦'))).toEqual([]);
  });

  it("leaves no text of the admin's dashboard untranslated", async () => {
    fakeApi({ 'GET /dashboard/summary': () => [200, dashboardSummary({ not_reached: 2 })] });
    await showPseudo();
    renderPage(<DashboardPage />, { signedInAs: 'admin' });
    await screen.findByText(/Çĺášš/);
    // The date under the heading is data formatted for the language, not a text of the catalogue.
    const date = formatDay(dashboardSummary().date);
    expect(shownTexts().filter((text) => !text.includes('⟦') && text !== date)).toEqual([]);
  });
});

describe('dates and numbers', () => {
  it('keep their English forms in English', () => {
    expect(formatDay('2026-11-22')).toBe('22 Nov 2026');
    expect(formatClock('2026-11-22T14:05:09')).toBe('14:05:09');
    expect(formatNumber(1234)).toBe('1234');
  });

  it("give the date pickers the language's month names", async () => {
    await showLanguage('hi');
    expect(dayjsLocale('hi')).toBe('hi');
    expect(dayjs('2026-11-22').locale(dayjsLocale('hi')).format('MMMM')).toBe('नवम्बर');
    // dayjs's own default stays English for the console's English forms.
    expect(dayjs('2026-11-22').format('MMM')).toBe('Nov');
  });

  it("follow the language's words and order, in Western digits", async () => {
    await showLanguage('hi');
    expect(formatDay('2026-11-22')).toBe('22 नवंबर 2026');
    expect(formatClock('2026-11-22T14:05:09')).toBe('14:05:09');
    await showLanguage('mr');
    expect(formatNumber(12345)).toBe('12,345');
    await showLanguage('ur');
    expect(formatDay('2026-11-22')).toBe('22 نومبر، 2026');
  });
});
