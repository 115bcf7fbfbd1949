import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ParentInbox, ParentMessage } from '@tuitiondesk/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../testing';
import { json } from '../testing/fake-api';
import { KEPT_AT_HEADER, saveSession } from './api';
import { ParentApp } from './app';
import { ALLOW_STEPS, NotificationsBlockedNote } from './inbox-notes';
import { keptWhen } from './inbox-state';
import { browserFamily } from './push';

const UA = {
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0',
  firefoxDesktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  unknown: 'SomeBrowser/1.0',
};

describe('which browser, for the steps to allow notifications', () => {
  it('tells the families apart, the narrower names first', () => {
    expect(browserFamily(UA.androidChrome, false)).toBe('android-chrome');
    expect(browserFamily(UA.androidChrome, true)).toBe('android-app');
    expect(browserFamily(UA.samsung, false)).toBe('samsung');
    expect(browserFamily(UA.iphone, true)).toBe('ios');
    expect(browserFamily(UA.firefoxAndroid, false)).toBe('firefox');
    expect(browserFamily(UA.firefoxDesktop, false)).toBe('firefox');
    expect(browserFamily(UA.edge, false)).toBe('chrome');
    expect(browserFamily(UA.macSafari, false)).toBe('safari');
    expect(browserFamily(UA.unknown, false)).toBe('other');
  });
});

describe('the note when notifications are blocked', () => {
  beforeEach(() => localStorage.clear());

  it('says so, and how to allow them in this browser', () => {
    render(<NotificationsBlockedNote family="samsung" />);
    const note = screen.getByRole('region', { name: 'Notifications are turned off for this browser' });
    expect(note).toHaveTextContent('You will see new messages from the centre only when you open this app.');
    expect(note).toHaveTextContent(`To turn them on: ${ALLOW_STEPS.samsung}`);
    expect(note).toHaveTextContent('Sites and downloads → Notifications');
  });

  it('gives the iPhone Home Screen app the Settings app route', () => {
    render(<NotificationsBlockedNote family="ios" />);
    expect(screen.getByRole('region')).toHaveTextContent(
      'Open the Settings app, tap Notifications, then TuitionDesk, and turn on Allow Notifications.',
    );
  });

  it('stays hidden once the parent hides it', async () => {
    const { unmount } = render(<NotificationsBlockedNote family="chrome" />);
    await userEvent.click(screen.getByRole('button', { name: 'Hide this' }));
    expect(screen.queryByRole('region')).toBeNull();
    unmount();
    render(<NotificationsBlockedNote family="chrome" />);
    expect(screen.queryByRole('region')).toBeNull();
  });
});

const profile = {
  phone: '+919812345678',
  parent_name: 'Priya Sharma',
  children: [{ id: 1, unique_id: 'STU0001', full_name: 'Aarav Sharma', class_name: '8' }],
};
const message = (id: number, subject: string): ParentMessage => ({
  id,
  message_type: 'IN_APP',
  kind: 'notice',
  reply: null,
  can_reply: false,
  fee_answer: null,
  can_fee_reply: false,
  subject,
  message: `${subject}: the whole text.`,
  sent_at: '2026-11-20T10:00:00.000Z',
  sent_by: 'Administrator',
  student_id: null,
  read_at: null,
});
const inbox: ParentInbox = { messages: [message(1, 'Holiday on Monday')], unread_count: 1 };

describe('the inbox when the phone is offline or the centre out of reach', () => {
  let online = true;
  beforeEach(() => {
    localStorage.clear();
    online = true;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    window.history.replaceState(null, '', '/parent/');
    saveSession({ token: 'parent-token', profile });
  });
  afterEach(() => vi.restoreAllMocks());

  function goOffline() {
    online = false;
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
  }

  it('says nothing while all is well', async () => {
    fakeApi({ 'GET /parent/messages': () => [200, inbox], 'GET /parent/me': () => [200, profile] });
    render(<ParentApp />);
    await screen.findByRole('button', { name: /Holiday on Monday/ });
    expect(screen.queryByText(/offline|cannot be reached/)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('going offline keeps the messages and says from when they are, without an error', async () => {
    let down = false;
    fakeApi({
      'GET /parent/messages': () => {
        if (down) throw new TypeError('Failed to fetch');
        return [200, inbox];
      },
      'GET /parent/me': () => [200, profile],
    });
    render(<ParentApp />);
    await screen.findByRole('button', { name: /Holiday on Monday/ });
    const answered = keptWhen(new Date().toISOString());
    down = true;
    goOffline();
    expect(await screen.findByText(/^You are offline\./)).toHaveTextContent(
      `You are offline. These are the messages you had at ${answered}. New ones will show when you are back online.`,
    );
    // Refresh while offline: the messages stay, the note stays, and no error is put on top.
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(screen.getByRole('button', { name: /Holiday on Monday/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText(/^You are offline\./)).toBeInTheDocument();

    // Back online: a fresh answer, and the note goes.
    down = false;
    online = true;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await vi.waitFor(() => expect(screen.queryByText(/^You are offline\./)).toBeNull());
  });

  it('the centre out of reach with the phone online: the messages stay, and the note says the centre', async () => {
    let down = false;
    fakeApi({
      'GET /parent/messages': () => {
        if (down) throw new TypeError('Failed to fetch');
        return [200, inbox];
      },
      'GET /parent/me': () => [200, profile],
    });
    render(<ParentApp />);
    await screen.findByRole('button', { name: /Holiday on Monday/ });
    down = true;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    const note = await screen.findByText(/cannot be reached/);
    expect(note).toHaveTextContent(
      /^The centre cannot be reached just now\. These are the messages you had at \d\d:\d\d\./,
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('an answer the service worker kept says when the centre gave it', async () => {
    const keptAt = '2026-11-19T08:05:00.000Z';
    online = false;
    fakeApi({
      'GET /parent/messages': () =>
        new Response(JSON.stringify(inbox), {
          status: 200,
          headers: { 'content-type': 'application/json', [KEPT_AT_HEADER]: keptAt },
        }),
      'GET /parent/me': () => [200, profile],
    });
    render(<ParentApp />);
    const note = await screen.findByText(/^You are offline\./);
    expect(note).toHaveTextContent(`These are the messages you had at ${keptWhen(keptAt)}.`);
    expect(keptWhen(keptAt)).toMatch(/^\d\d:\d\d on 19 Nov( 2026)?$/);
    expect(within(screen.getByRole('list')).getByText('Holiday on Monday')).toBeInTheDocument();
  });

  it('no messages to show and no connection: the plain error, no note', async () => {
    fakeApi({
      'GET /parent/messages': () => {
        throw new TypeError('Failed to fetch');
      },
      'GET /parent/me': () => json(profile),
    });
    render(<ParentApp />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot reach the centre');
    expect(screen.queryByText(/These are the messages you had/)).toBeNull();
  });
});
