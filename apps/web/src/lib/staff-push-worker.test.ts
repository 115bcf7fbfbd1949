import { describe, expect, it } from 'vitest';
import {
  type ClientLike,
  consolePage,
  type NotificationOptionsShown,
  openStaffPush,
  readStaffPush,
  type ServiceWorkerLike,
  showStaffPush,
} from './staff-push-worker';

const ORIGIN = 'https://centre.example.com';

/** A service worker's global as far as the handlers use it, recording what they did. */
function fakeWorker(windows: ClientLike[] = []) {
  const shown: { title: string; options: NotificationOptionsShown }[] = [];
  const opened: string[] = [];
  const worker: ServiceWorkerLike = {
    location: { origin: ORIGIN },
    registration: {
      showNotification: async (title, options) => {
        shown.push({ title, options });
      },
    },
    clients: {
      matchAll: async () => windows,
      openWindow: async (url) => {
        opened.push(url);
      },
    },
    addEventListener: () => undefined,
  };
  return { worker, shown, opened };
}

function pushEvent(text: string | null) {
  const waited: Promise<unknown>[] = [];
  return {
    event: {
      data: text === null ? null : { text: () => text },
      waitUntil: (work: Promise<unknown>) => waited.push(work),
    },
    waited,
  };
}

const reminder = {
  kind: 'marking_reminder',
  title: 'Attendance not marked',
  body: 'Class 9 has no attendance marked today. Tap to open the register.',
  url: '/mark-attendance?class_name=9&date=2026-11-25',
  tag: 'marking-reminder-9-2026-11-25',
};

describe('the console service worker and staff pushes', () => {
  it('shows a marking reminder with its words, its tag and the register it opens', async () => {
    const { worker, shown } = fakeWorker();
    const { event, waited } = pushEvent(JSON.stringify(reminder));
    expect(showStaffPush(worker, event)).toBe(true);
    await Promise.all(waited);
    expect(shown).toEqual([
      {
        title: 'Attendance not marked',
        options: {
          body: 'Class 9 has no attendance marked today. Tap to open the register.',
          tag: 'marking-reminder-9-2026-11-25',
          icon: '/icons/icon-192.png',
          badge: '/icons/badge-96.png',
          data: { url: `${ORIGIN}/mark-attendance?class_name=9&date=2026-11-25` },
        },
      },
    ]);
  });

  it('shows nothing for a push that is not a staff push', () => {
    const { worker, shown } = fakeWorker();
    for (const text of [null, '', 'not json', '"text"', JSON.stringify({ ...reminder, kind: 'message' })]) {
      expect(showStaffPush(worker, pushEvent(text).event)).toBe(false);
    }
    expect(readStaffPush(JSON.stringify({ ...reminder, url: 42 }))).toBeUndefined();
    expect(shown).toEqual([]);
  });

  it('a tap brings the open console window to the register; with none open, opens one', async () => {
    const visits: string[] = [];
    const consoleWindow: ClientLike = {
      url: `${ORIGIN}/dashboard`,
      focus: async () => visits.push('focus'),
      navigate: async (url) => visits.push(url),
    };
    const parentWindow: ClientLike = { url: `${ORIGIN}/parent/`, focus: async () => visits.push('parent') };
    const open = fakeWorker([parentWindow, consoleWindow]);
    const waited: Promise<unknown>[] = [];
    let closed = false;
    const data = { url: `${ORIGIN}/mark-attendance?class_name=9&date=2026-11-25` };
    openStaffPush(open.worker, {
      notification: { data, close: () => (closed = true) },
      waitUntil: (work) => waited.push(work),
    });
    await Promise.all(waited);
    expect(closed).toBe(true);
    expect(visits).toEqual(['focus', data.url]);
    expect(open.opened).toEqual([]);

    const none = fakeWorker([parentWindow]);
    const more: Promise<unknown>[] = [];
    openStaffPush(none.worker, {
      notification: { data, close: () => undefined },
      waitUntil: (work) => more.push(work),
    });
    await Promise.all(more);
    expect(none.opened).toEqual([data.url]);
  });

  it('opens only pages of the console: another origin or no address goes to the dashboard', () => {
    expect(consolePage('https://evil.example.net/phish', ORIGIN)).toBe(`${ORIGIN}/dashboard`);
    expect(consolePage('//evil.example.net/x', ORIGIN)).toBe(`${ORIGIN}/dashboard`);
    expect(consolePage(undefined, ORIGIN)).toBe(`${ORIGIN}/dashboard`);
    expect(consolePage('/mark-attendance?class_name=7', ORIGIN)).toBe(`${ORIGIN}/mark-attendance?class_name=7`);
  });
});
