/**
 * The parent app speaks the family's language: the one kept on the server once signed in, else the
 * browser's, else English; `<html lang>` and `dir` follow (Urdu reads right to left).
 */
import { render, screen } from '@testing-library/react';
import type { ParentInbox } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentLanguage } from '../i18n/current';
import { fakeApi } from '../testing';
import { saveSession } from './api';
import { ParentApp } from './app';
import { showLanguage } from './i18n';
import { fullWhen, schoolDay } from './inbox-state';

const profile = {
  phone: '+919812345678',
  parent_name: 'Priya Sharma',
  children: [{ id: 1, unique_id: 'STU0001', full_name: 'Aarav Sharma', class_name: '8' }],
};
const inbox: ParentInbox = {
  messages: [
    {
      id: 2,
      message_type: 'IN_APP',
      kind: 'notice',
      reply: null,
      can_reply: false,
      fee_answer: null,
      can_fee_reply: false,
      subject: 'Holiday on Monday',
      message: 'The centre is closed on Monday.',
      sent_at: '2026-11-20T10:00:00.000Z',
      sent_by: 'Administrator',
      student_id: null,
      read_at: null,
    },
  ],
  unread_count: 1,
};

function browserSpeaks(...languages: string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
}

function signedInWithFamilyLanguage(language: string) {
  saveSession({ token: 'parent-token', profile });
  fakeApi({
    'GET /api/v1/parent/messages': () => [200, inbox],
    'GET /api/v1/parent/me': () => [200, profile],
    'GET /api/v1/parent/language': () => [200, { language }],
  });
}

afterEach(async () => {
  vi.restoreAllMocks();
  localStorage.clear();
  await showLanguage('en');
});

describe('the parent app in the family’s language', () => {
  it('shows the sign-in page in the browser’s language (Hindi), with <html lang="hi">', async () => {
    browserSpeaks('hi-IN', 'en');
    fakeApi({});
    render(<ParentApp />);
    expect(await screen.findByRole('heading', { name: 'अभिभावकों के लिए TuitionDesk' })).toBeInTheDocument();
    expect(screen.getByLabelText('फ़ोन नंबर')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'साइन इन करें' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'hi');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
    expect(document.documentElement.style.getPropertyValue('--font')).toContain('Noto Sans Devanagari');
    expect(document.title).toBe('अभिभावकों के लिए TuitionDesk');
  });

  it('shows the inbox in the family’s language (Hindi) whatever the browser’s, dates in Hindi with Western digits', async () => {
    browserSpeaks('en-GB');
    signedInWithFamilyLanguage('hi');
    render(<ParentApp />);
    expect(await screen.findByText('1 अपठित')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /^संदेश/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'मेरे बच्चे' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^अपठित:\s*Holiday on Monday/ })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'hi');
    expect(currentLanguage()).toBe('hi');
    expect(schoolDay('2026-11-23')).toMatch(/23 नवंबर/);
    expect(fullWhen('2026-11-23T09:05:00.000Z')).toMatch(/2026/);
    expect(fullWhen('2026-11-23T09:05:00.000Z')).not.toMatch(/[०-९]/);
  });

  it('reads right to left in Urdu', async () => {
    browserSpeaks('en-GB');
    signedInWithFamilyLanguage('ur');
    render(<ParentApp />);
    expect(await screen.findByText('1 غیر پڑھا')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'میرے بچے' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'ur');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });

  it('stays in English for an English browser and family, as the spec has it', async () => {
    browserSpeaks('en-US');
    signedInWithFamilyLanguage('en');
    render(<ParentApp />);
    expect(await screen.findByText('1 unread')).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'en');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });
});
