import { useState } from 'react';
import { keptWhen } from './inbox-state';
import { type BrowserFamily, currentBrowserFamily } from './push';

const BLOCKED_NOTE_HIDDEN_KEY = 'parent_blocked_note_hidden';

/** How to allow notifications again, in the words of each browser's own menus. */
export const ALLOW_STEPS: Record<BrowserFamily, string> = {
  ios: 'Open the Settings app, tap Notifications, then TuitionDesk, and turn on Allow Notifications.',
  samsung: 'Tap the menu (☰) at the bottom, then Settings → Sites and downloads → Notifications, and allow this site.',
  firefox: 'Tap or click the icon left of the address, remove Blocked next to Notifications, then reload this page.',
  'android-app':
    'Touch and hold the TuitionDesk icon on your home screen, tap App info → Notifications, and turn them on.',
  'android-chrome': 'Tap the icon left of the address, then Permissions → Notifications, and turn them on.',
  chrome: 'Click the icon left of the address, set Notifications to Allow, then reload this page.',
  safari: 'In Safari, open Settings → Websites → Notifications, and set this site to Allow.',
  other: "Open this browser's settings for this site and set Notifications to Allow.",
};

/** The steps for the browser the parent is in (the user agent's, unless a test names one). */
export function NotificationsAllowSteps({ family = currentBrowserFamily() }: { family?: BrowserFamily }) {
  return <p className="muted">To turn them on: {ALLOW_STEPS[family]} Then come back and tap Turn on notifications.</p>;
}

/**
 * In the inbox, where parents look: this browser refuses notifications, so new messages show only
 * when the app is opened. Hidden for good by the parent's own choice; Settings still says it.
 */
export function NotificationsBlockedNote({ family }: { family?: BrowserFamily }) {
  const [hidden, setHidden] = useState(() => readHidden());
  if (hidden) return null;
  return (
    <section className="notice blocked-note" aria-labelledby="blocked-note-title">
      <h2 id="blocked-note-title">Notifications are turned off for this browser</h2>
      <p>You will see new messages from the centre only when you open this app.</p>
      <NotificationsAllowSteps family={family} />
      <button
        type="button"
        className="link"
        onClick={() => {
          rememberHidden();
          setHidden(true);
        }}
      >
        Hide this
      </button>
    </section>
  );
}

/**
 * The messages shown are the ones the phone kept, not the centre's answer now: offline, or the centre
 * out of reach while the phone is online.
 */
export function OfflineNote({ keptAt, online }: { keptAt: string; online: boolean }) {
  const when = keptWhen(keptAt);
  return (
    <p className="notice offline-note" role="status">
      {online
        ? `The centre cannot be reached just now. These are the messages you had at ${when}. New ones will show once it answers again.`
        : `You are offline. These are the messages you had at ${when}. New ones will show when you are back online.`}
    </p>
  );
}

function readHidden(): boolean {
  try {
    return localStorage.getItem(BLOCKED_NOTE_HIDDEN_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberHidden(): void {
  try {
    localStorage.setItem(BLOCKED_NOTE_HIDDEN_KEY, '1');
  } catch {
    // Private mode without storage: hidden for this visit only.
  }
}
